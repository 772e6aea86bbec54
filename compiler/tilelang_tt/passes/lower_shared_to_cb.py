"""C1 · LowerSharedToCB — turn shared and fragment buffers into circular buffers.

Input expectations
    Stages A–B done (``tt.target``, ``tt.options``, ``tt.data_formats``); ``tl.copy`` / ``tl.gemm`` /
    ``tl.fill`` over shared (``shared``) and fragment (``local.fragment``) allocations.
Output guarantees
    ``tt.cb_table``: one ``CircularBuffer`` per CB (cb, buffer, name, role ∈ input | output |
    intermediate, dtype, format, page_size, tiles (per block), tile_shape, depth (pages), total_bytes, dims,
    loc). Roles come from dataflow: a tile
    buffer filled from a global tensor is an input CB (c_0…), one stored to a global tensor is an output CB
    (c_16…); a fragment stored straight to global gets its own output CB (``packs``: the fragment it
    receives); a gemm accumulator larger than
    DST whose reduction loop runs more than once spills partial sums to an intermediate CB (c_24…).
    ``dims`` names each buffer dimension m / n / k by its gemm operand role; with transpose_A an
    intermediate CB (``source``: the A buffer) receives A's tiles transposed. Input CBs hold
    ``max(2, num_stages)`` blocks (double buffering; ``num_stages`` alone when double buffering is off),
    output CBs two blocks (one when off), but the output CB a subblocked accumulator packs into is sized
    after the K groups: two of its DST subblocks (BuildTileDFGTT's choose_subblock; one when off) while
    they are chosen, it is packed and drained subblock by subblock, then two blocks (one) if the L1 left
    holds them. ``tt.accumulators``: ``Accumulator``s (buffer, dtype, format, fp32,
    tiles [Mt, Nt], residency ∈ dst | subblocked (always subblocked with transpose_A), spill_cb, loc,
    k_group). The shared/fragment allocations are removed from the body.
    K groups: a subblocked accumulator reduced by one constant loop of ``steps`` (no transpose_A) takes
    its inputs ``k_group`` steps at a time, so each DST pass accumulates that many steps before its partial
    sums are spilled and reloaded (a reload and a pack of every output tile per pass). ``k_group`` is the
    largest divisor of ``steps`` with ``k_group * kt <= MAX_GROUP_K_TILES``, at most ``max(8, steps / 8)``
    (the first group's reads are not overlapped), whose deeper A and B CBs
    (``k_group`` times their depth) fit the L1 left to CBs; the loop is annotated ``tt.k_group`` for the
    reader and compute lowerings, and a group that covers all of K needs no spill CB.
    Block sizes not multiples of 32 → TTCompileError; CB bytes over the L1 budget or more CBs than the
    target has → TTResourceError naming the buffer and DSL line.
Example
    before: A_s = T.alloc_shared((64, 32), "bfloat16"); ... T.tl.copy(A[...], A_s[...], loc)
    after:  (no allocation)  "tt.cb_table": [CircularBuffer(cb=0, buffer="A_s", name="cb_in0", role="input",
                                            tiles=2, depth=4, page_size=2048, dims=["m", "k"], ...), ...]
Test
    ./bazelw test //compiler/tests/passes:passes_test --test_arg=-k \\
        --test_arg=test_lower_shared_to_cb
"""

from __future__ import annotations

import math

import tvm
import tvm_ffi
from tvm import tirx

from .. import ops
from ..errors import TTCompileError, TTResourceError
from ..ir_utils import (
    buffer_scope,
    find_ops,
    get_attr,
    is_global,
    l1_for_circular_buffers,
    region,
    require_attr,
    seq,
    simplify,
    storage_dtype,
)
from ..records import Accumulator, CircularBuffer
from ..target import BLOCK_FLOAT_DTYPES, DATA_FORMATS, TILE
from .build_tile_dfg_tt import choose_subblock

TILE_SCOPES = ("shared", "shared.dyn", "local.fragment", "local")
# K tiles one DST pass accumulates before its partial sums go back to L1. A pass costs a reload and a pack
# of each output tile (2 x 16 cycles per tile, doubled for float32) against 64 cycles per K tile of HiFi4
# matmul; 16 K tiles keep that near 6% while the input CBs stay a fraction of L1.
MAX_GROUP_K_TILES = 16
# Compute starts on a group only once all its steps are read, so the first group's reads are not hidden:
# a group is at most an eighth of K's steps, or this many (modelled on Wormhole: 2048^3, 64 steps, 83.9% of
# peak in groups of 8 against 80.3% in 16; 3584x3072x768, 24 steps, best at 8; 4096^3 at 16: 93.4%).
MIN_GROUP_CAP_STEPS = 8
FIRST_CB = {"input": 0, "output": 16, "intermediate": 24}
CB_CLASS_SIZE = {"input": 16, "output": 8, "intermediate": 8}


def _stages(loops) -> int:
    for loop in reversed(loops):
        if loop.annotations is not None and "tl.pipelined_stages" in loop.annotations:
            return int(loop.annotations["tl.pipelined_stages"])
    return 0


def _trips(loops) -> int:
    trips = 1
    for loop in loops:
        if ops.is_op(tirx.Evaluate(loop.extent), "tt.work_count"):
            continue
        extent = simplify(loop.extent)
        trips *= int(extent.value) if isinstance(extent, tirx.IntImm) else 2
    return trips


def _entry(name, dtype, role, dims, shape, blocks, loc):
    """A CB of ``blocks`` blocks of the tile buffer ``name`` of element shape ``shape``; its id and C++
    name are given by ``_assign``."""
    fmt, page = DATA_FORMATS[dtype]
    tile_shape = [shape[0] // TILE, shape[1] // TILE]
    tiles = tile_shape[0] * tile_shape[1]
    return {
        "buffer": name,
        "role": role,
        "dtype": dtype,
        "format": fmt,
        "page_size": page,
        "tiles": tiles,
        "tile_shape": tile_shape,
        "depth": tiles * blocks,
        "total_bytes": tiles * blocks * page,
        "dims": dims,
        "loc": loc,
    }


def _carried_dtype(func, tensor, tile_dtype: str) -> str:
    """The dtype of the CB that carries tiles between global ``tensor`` and a tile buffer of ``tile_dtype``:
    a block-float tensor's own (its pages are copied as they are), else the tile buffer's."""
    stored = storage_dtype(func, tensor)
    return stored if stored in BLOCK_FLOAT_DTYPES else tile_dtype


def _check_tiles(reg, loc):
    for ext in reg.shape:
        if ext % TILE:
            raise TTCompileError.at(
                loc, f"block size {ext} of {reg.name} is not a multiple of the {TILE}x{TILE} tile"
            )


def _plan(func, target, options):
    double = options.enable_double_buffer
    entries, accumulators, dims = [], [], {}
    for site in find_ops(func.body, ("tl.gemm",)):
        a, b, c = (
            region(r, site.loc)
            for r in (ops.fields(site.call).a, ops.fields(site.call).b, ops.fields(site.call).c)
        )
        ta, tb = ops.fields(site.call).trans_a, ops.fields(site.call).trans_b
        dims[a.name] = ["k", "m"] if ta else ["m", "k"]
        dims[b.name] = ["n", "k"] if tb else ["k", "n"]
        dims[c.name] = ["m", "n"]
        for reg in (a, b, c):
            _check_tiles(reg, site.loc)
        fp32 = str(c.buffer.dtype) == "float32"
        n_tiles = (c.shape[0] // TILE) * (c.shape[1] // TILE)
        # transpose_A re-packs A's tiles through DST every k step, so the accumulator cannot stay in DST.
        residency = "dst" if n_tiles <= target.dst_capacity(fp32) and not ta else "subblocked"
        accumulators.append(
            {
                "buffer": c.name,
                "dtype": str(c.buffer.dtype),
                "format": DATA_FORMATS[str(c.buffer.dtype)][0],
                "fp32": fp32,
                "tiles": [c.shape[0] // TILE, c.shape[1] // TILE],
                "residency": residency,
                "spill_cb": -1,
                "loc": site.loc,
                "operands": (a.name, b.name, ta, a.shape[0 if ta else 1] // TILE),
                "loops": [
                    lp for lp in site.loops if not ops.is_op(tirx.Evaluate(lp.extent), "tt.work_count")
                ],
            }
        )
        if residency == "subblocked" and _trips(site.loops) > 1:
            entries.append(
                _entry(c.name, str(c.buffer.dtype), "intermediate", ["m", "n"], c.shape, 1, site.loc)
            )
        if ta:
            entry = _entry(
                f"{a.name}_T", str(a.buffer.dtype), "intermediate", ["m", "k"], a.shape, 1, site.loc
            )
            entries.append({**entry, "source": a.name})
    for site in find_ops(func.body, ("tl.copy",)):
        src, dst = (region(r, site.loc) for r in (ops.fields(site.call).src, ops.fields(site.call).dst))
        for reg in (src, dst):
            if not is_global(reg.buffer):
                _check_tiles(reg, site.loc)
        if is_global(src.buffer) and not is_global(dst.buffer):
            stages = _stages(site.loops)
            depth_blocks = max(2, stages) if double else max(1, stages)
            entries.append(
                _entry(
                    dst.name,
                    _carried_dtype(func, src.buffer, str(dst.buffer.dtype)),
                    "input",
                    dims.get(dst.name, ["r", "c"]),
                    dst.shape,
                    depth_blocks,
                    site.loc,
                )
            )
        elif is_global(dst.buffer) and not is_global(src.buffer):
            # A fragment stored straight to global packs into a CB of the tensor's format.
            direct = buffer_scope(src.buffer) == "local.fragment"
            name, dtype = (
                (f"{src.name}_out", storage_dtype(func, dst.buffer))
                if direct
                else (src.name, _carried_dtype(func, dst.buffer, str(src.buffer.dtype)))
            )
            entry = _entry(name, dtype, "output", ["m", "n"], src.shape, 2 if double else 1, site.loc)
            acc = next((a for a in accumulators if a["buffer"] == src.name), None)
            if direct and acc is not None and acc["residency"] == "subblocked":
                # Compute packs a subblocked accumulator one DST subblock at a time and the writer drains
                # each as it comes: two subblocks (one without double buffering) keep both going, and the
                # L1 a whole block would take goes to deeper K groups.
                sub_tiles = math.prod(choose_subblock(*acc["tiles"], target.dst_capacity(acc["fp32"])))
                pages = sub_tiles * (2 if double else 1)
                entry = {**entry, "depth": pages, "total_bytes": pages * entry["page_size"], "cut_to": pages}
            # "packs" ties the CB to its fragment, so later passes never derive it from the name.
            entries.append({**entry, "packs": src.name} if direct else entry)
    return entries, accumulators


def _group_k(entries: list[dict], acc: dict, budget: int) -> tirx.Var | None:
    """Choose ``acc``'s k_group (see the module docstring), deepen its input CBs and drop its spill CB when
    one group covers K; returns the reduction loop's variable when it is grouped."""
    a_name, b_name, trans_a, kt = acc.pop("operands")
    loops = acc.pop("loops")
    acc["k_group"] = 1
    if acc["residency"] != "subblocked" or trans_a or len(loops) != 1:
        return None
    extent = simplify(loops[0].extent)
    if not isinstance(extent, tirx.IntImm):
        return None
    steps = int(extent.value)
    inputs = [e for e in entries if e["role"] == "input" and e["buffer"] in (a_name, b_name)]
    spill = [e for e in entries if e["role"] == "intermediate" and e["buffer"] == acc["buffer"]]
    free = budget - sum(e["total_bytes"] for e in entries)
    group = 1
    for candidate in range(2, steps + 1):
        extra = sum((candidate - 1) * e["total_bytes"] for e in inputs)
        if candidate == steps:  # one pass over all of K: the spill CB goes
            extra -= sum(e["total_bytes"] for e in spill)
        short = candidate <= max(MIN_GROUP_CAP_STEPS, steps // 8)
        if steps % candidate == 0 and candidate * kt <= MAX_GROUP_K_TILES and short and extra <= free:
            group = candidate
    if group == 1:
        return None
    for e in inputs:
        e["depth"] *= group
        e["total_bytes"] *= group
    if group == steps:
        for e in spill:
            entries.remove(e)
    acc["k_group"] = group
    return loops[0].loop_var


def _widen_outputs(entries: list[dict], budget: int, blocks: int) -> None:
    """Give the output CBs cut to DST subblocks (marked ``cut_to``) back ``blocks`` whole blocks, or one,
    where the L1 the K groups left allows: then a core's next block need not wait for the writer to drain
    the last one."""
    for e in entries:
        if "cut_to" not in e:
            continue
        cut = e.pop("cut_to")
        others = sum(x["total_bytes"] for x in entries if x is not e)
        for depth in (blocks * e["tiles"], e["tiles"]):
            if depth > cut and others + depth * e["page_size"] <= budget:
                e["depth"], e["total_bytes"] = depth, depth * e["page_size"]
                break


def _annotate_k_group(body: tirx.Stmt, loop_var: tirx.Var, group: int) -> tirx.Stmt:
    def annotate(lp: tirx.For):
        if not lp.loop_var.same_as(loop_var):
            return lp
        annotations = {**(dict(lp.annotations) if lp.annotations is not None else {}), "tt.k_group": group}
        return tirx.For(lp.loop_var, lp.min, lp.extent, lp.kind, lp.body, lp.thread_binding, annotations)

    return tvm_ffi.structural_map(body, (tirx.For, annotate))


def _cb_name(entry: dict, number: int) -> str:
    """The C++ constant naming a CB: cb_in0.. (inputs), cb_out0.. (outputs), cb_partials0.. (partial sums),
    cb_transposed0.. (transposed operand tiles); ``number`` counts within the CB id's class."""
    if entry.get("source"):
        return f"cb_transposed{number}"
    return {"input": "cb_in", "output": "cb_out", "intermediate": "cb_partials"}[entry["role"]] + str(number)


def check_cb_budget(func, target, entries: list[dict]) -> None:
    """TTResourceError at the largest CB's DSL line when ``entries`` (planned CBs) do not fit the L1 each
    core has for circular buffers (``l1_for_circular_buffers``)."""
    total = sum(e["total_bytes"] for e in entries)
    budget, taken = l1_for_circular_buffers(func, target)
    if total > budget:
        big = max(entries, key=lambda e: e["total_bytes"])
        raise TTResourceError.at(
            big["loc"],
            f"circular buffers need {total} bytes of L1 per core but {target.name} has {budget} for them"
            f"{taken}; the largest is {big['buffer']} ({big['depth']} pages of {big['page_size']} bytes) — "
            f"use smaller blocks or fewer pipeline stages",
        )


def _assign(entries, target, func_name):
    counters = dict(FIRST_CB)
    for e in entries:
        role = e["role"]
        if (
            counters[role] - FIRST_CB[role] >= CB_CLASS_SIZE[role]
            or counters[role] >= target.num_circular_buffers
        ):
            raise TTResourceError.at(
                e["loc"],
                f"{func_name} needs more {role} circular buffers than "
                f"{target.name} provides (CB ids {FIRST_CB[role]}..)",
            )
        e["cb"] = counters[role]
        e["name"] = _cb_name(e, counters[role] - FIRST_CB[role])
        counters[role] += 1


def _drop_tile_allocations(s: tirx.SeqStmt) -> tirx.Stmt:
    return seq(
        [x for x in s.seq if not (isinstance(x, tirx.AllocBuffer) and buffer_scope(x.buffer) in TILE_SCOPES)]
    )


def LowerSharedToCB() -> tvm.transform.Pass:  # noqa: N802
    def transform(func: tirx.PrimFunc, mod, ctx) -> tirx.PrimFunc:
        if get_attr(func, "tt.compute_schedule") == "tile_program":
            return func  # LowerTileProgramTT / ScheduleTileComputeTT own it
        target = require_attr(func, "tt.target", "LowerSharedToCB")
        options = require_attr(func, "tt.options", "LowerSharedToCB")
        entries, accumulators = _plan(func, target, options)
        budget, _ = l1_for_circular_buffers(func, target)
        grouped = [(_group_k(entries, acc, budget), acc["k_group"]) for acc in accumulators]
        _widen_outputs(entries, budget, 2 if options.enable_double_buffer else 1)
        _assign(entries, target, str(func.attrs["global_symbol"]))
        check_cb_budget(func, target, entries)
        for acc in accumulators:
            spill = [e["cb"] for e in entries if e["role"] == "intermediate" and e["buffer"] == acc["buffer"]]
            acc["spill_cb"] = spill[0] if spill else -1
        body = tvm_ffi.structural_map(func.body, (tirx.SeqStmt, _drop_tile_allocations))
        for loop_var, group in grouped:
            if loop_var is not None:
                body = _annotate_k_group(body, loop_var, group)
        return func.with_body(body).with_attrs(
            {
                "tt.cb_table": [CircularBuffer(**e) for e in entries],
                "tt.accumulators": [Accumulator(**a) for a in accumulators],
            }
        )

    return tirx.transform.prim_func_pass(transform, opt_level=0, name="LowerSharedToCB")
