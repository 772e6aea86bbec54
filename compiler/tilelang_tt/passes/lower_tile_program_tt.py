"""C1' · LowerTileProgramTT — plan a tile program's circular buffers and lower its statements to tile ops.

A *tile program* is any program beyond the plain matmul shape (copies, ``T.gemm`` into a cleared
accumulator, one store): ``T.Parallel`` element-wise math, ``T.reduce_*``, fills with any value, copies
between tile buffers, fragments that live across loop iterations, fragments as GEMM operands. Plain matmul
programs are left to LowerSharedToCB and the matmul schedule (accumulator resident in DST across the
reduction loop); this pass marks the others ``tt.compute_schedule = "tile_program"`` and does their stage C.

The value model: a tile buffer's current value is the tiles at the front of its circular buffer.
  * A buffer only ever loaded from a global tensor (and of the tensor's dtype) is an *input* CB the reader
    fills; the compute kernel waits for it where the copy is and releases it when its value dies. Its only
    load, at the top of the work loop, of constant positions in a tensor the kernel does not write (gamma
    of a LayerNorm) moves before the work loop: read once per core, kept (a CB of one block). A 1-row
    buffer that compute reads only as row or scalar broadcasts is marked ``first_row_only``. Loaded at
    the top of two loops that read the same blocks (online softmax's two passes over a row), the first
    loop's blocks are *kept* for the second: the CB holds two rows of them (one, or none, when L1 is
    short) and the reader reads the row once.
  * A GEMM loop (two loads and a ``T.gemm``) takes its K steps 8, 4 or 2 at a time where L1 holds the
    wider operand blocks (k_groups.py), so the accumulator goes through DST once per group.
  * A buffer the compute kernel writes is an *intermediate* CB of two blocks: a statement writes the new
    value behind the old one (so it may read the old value, ``acc_o[i, j] *= scale[i]``), then releases
    the old one. A buffer that is both loaded and computed on gets an input staging CB (``X_in``) and a copy.
  * Every store to a global tensor goes through an *output* CB (``X_out``, the tensor's dtype: the pack
    converts) that the writer drains; a copy global → global goes reader → writer through one CB.
  * Element-wise statements read global tensors through input CBs and store to them through output CBs
    (``B[bx * 32 + i, 0] = m[i, 0]``); a sub-expression that depends on the element's position but on no
    buffer (a causal mask) becomes a *generated* tile the reader writes into an input CB. A store into one
    column of a 2-D buffer at a position the nest does not span (``acc[i, k] = v[i]``) is a store of the
    whole buffer that keeps the other columns (a select on a generated ``p == k`` tile). An operand read
    transposed (``xt[i, j] = x[j, i]``) is transposed into a scratch CB (``x_T``) first.
  * Integer tile buffers are float32 CBs; only an int32 tensor's output CB holds Int32 words (the
    scheduler typecasts before packing). What they are given is checked exact (integer_tiles.py).
Input expectations
    After GridToCoreGrid: the persistent work loop, ``tl.copy`` / ``tl.fill`` / ``tl.gemm`` /
    ``tl.reduce`` over 2-D regions (LegalizeVectorsTT), ``T.Parallel`` nests (loops annotated ``tl.loc``)
    of BufferStores and Binds; ``tt.tensor_accessors``, ``tt.target``, ``tt.options``.
Output guarantees
    Tile allocations removed; each statement became (role in brackets; positions in tiles):
      ``tt.read_to_cb(cb, param, row, col, rows, cols, loc)`` [reader], ``tt.gen_tile(cb, value, i, j, rows,
      cols, loc)`` [reader], ``tt.write_from_cb(cb, param, row, col, rows, cols, loc)`` [writer] (of a
      tensor stored a page per row: ``tt.read_row`` / ``tt.write_row(cb, param, row, col, rows, cols,
      loc)``, consecutive rows in elements of its row-major view, row_copies.py) and the
      compute ops ``tt.tile.wait_input(cb)`` (a kept buffer: ``tt.tile.wait_kept(cb, step)`` in the first
      loop, ``tt.tile.use_kept(cb, step)`` in the later one, ``tt.tile.release_kept(cb, steps)`` after it),
      ``tt.tile.fill(cb, value)``, ``tt.tile.copy(src, dst)``,
      ``tt.tile.eltwise(dst, expr)`` (leaves ``tt.tile.operand(cb, broadcast)``, broadcast ∈ none | row |
      col | scalar), ``tt.tile.matmul(a, b, c, transpose_b)`` (transpose_A goes through ``tt.tile.transpose``
      into a scratch CB first; ``tt.tile.matmul_cleared`` when the statement before it only zeroes c — a
      ``T.clear``, or a mask that is 0 over its loops — which is then dropped: c = a·b, c not read),
      ``tt.tile.reduce(src, dst, kind, dim, clear, scaler, scratch, mask, identity)`` (scratch: the CB of |x|
      or -x for abs/min reductions, or of the source with its padding masked, -1 otherwise; mask: over a
      dimension of fewer than 32 entries, a reader-generated tile, 1.0 inside the extent and 0.0 beyond, where
      the reduction takes its identity instead, -1 otherwise), ``tt.tile.transpose(src, dst)`` — each with the
      DSL location last; their fields and the CBs each reads and writes are ``ops.SPECS`` rows.
      ``tt.cb_table``: ``CircularBuffer``s (named after their buffers: cb_acc_o, cb_Q_shared…);
      ``tt.tile_dfg`` as BuildTileDFGTT gives it; ``tt.accumulators`` [].
    Unsupported forms are TTCompileErrors at the DSL line naming the construct.
Example
    before: T.tl.copy(A[bx * 32:bx * 32 + 32, 0:256], A_s[0:32, 0:256], l1)
            for i, j in T.Parallel(32, 256): S[i, j] = T.exp(A_s[i, j] - m[i, 0])
    after:  T.tt.read_to_cb(0, 0, bx, 0, 1, 8, l1); T.tt.tile.wait_input(0, l1)
            T.tt.tile.eltwise(25, T.exp(T.tt.tile.operand(0, "none") - T.tt.tile.operand(24, "col")), l2)
Test
    ./bazelw test //compiler/tests/passes:passes_test --test_arg=-k --test_arg=test_lower_tile_program_tt
"""

from __future__ import annotations

import dataclasses
import math
import re

import tvm
import tvm_ffi
from tvm import tirx

from .. import integer_tiles, ops
from ..errors import TTCompileError, TTResourceError
from ..index_tables import word_dtype
from ..ir_utils import (
    Region,
    buffer_scope,
    cast_to,
    collect_vars,
    def_loc,
    find_ops,
    gemm_operands,
    get_attr,
    has_narrow_int,
    is_global,
    is_zero_mod,
    parallel_loc,
    region,
    require_attr,
    seq,
    simplify,
    storage_dtype,
    with_loop_body,
)
from ..k_groups import GROUPS as K_GROUPS
from ..k_groups import group_k_steps
from ..records import CircularBuffer, DFGNode
from ..row_copies import row_major_position
from ..target import DATA_FORMATS, TABLE_FORMAT, TABLE_WORD_BYTES, TILE, compute_dtype, tile_compute_dtype
from ..tile_ops import REDUCE
from .build_tile_dfg_tt import tile_dfg
from .lower_shared_to_cb import check_cb_budget
from .split_device_kernel import keep_role

TILE_SCOPES = ("shared", "shared.dyn", "local.fragment", "local")
FIRST_CB = {"input": 0, "output": 16, "intermediate": 24}
BROADCASTS = ("none", "row", "col", "scalar")


def _at_top_of(loop: tirx.For, call) -> bool:
    """Whether ``call`` is a statement of ``loop``'s body itself (not inside an if or an inner loop)."""
    body = loop.body.seq if isinstance(loop.body, tirx.SeqStmt) else [loop.body]
    return any(isinstance(s, tirx.Evaluate) and s.value.same_as(call) for s in body)


def _substitute_var(expr, var, value):
    return tvm_ffi.structural_map(expr, (tvm.ir.Var, lambda v: value if v.same_as(var) else v))


def _ceil_tiles(n: int) -> int:
    return -(-int(n) // TILE)


def is_tile_program(func: tirx.PrimFunc) -> bool:
    """False for the plain matmul shape the matmul schedule handles: only global→tile copies, T.gemm of
    loaded operands into fragments that are zero-filled, stored to global (directly or through one shared
    buffer), and no element-wise statement or reduction."""
    calls = find_ops(func.body, ("tl.copy", "tl.fill", "tl.gemm", "tl.reduce", "tl.transpose", "tl.im2col"))
    if any(ops.is_op(s.call, op) for s in calls for op in ("tl.reduce", "tl.transpose", "tl.im2col")):
        return True
    if _parallel_nests(func.body) or _has_guarded_tile_op(func.body):
        return True
    loaded, accumulators, staged = set(), set(), set()
    gemm_loops = {}  # operand name → the loops around the T.gemm that reads it
    for s in calls:
        if ops.is_op(s.call, "tl.gemm"):
            a, b, c = (
                region(r, s.loc) for r in (ops.fields(s.call).a, ops.fields(s.call).b, ops.fields(s.call).c)
            )
            accumulators.add(c.name)
            if buffer_scope(c.buffer) != "local.fragment":
                return True
            loaded |= {a.name, b.name}
            gemm_loops.update({a.name: s.loops, b.name: s.loops})
    for s in calls:
        if ops.is_op(s.call, "tl.fill"):
            dst = region(ops.fields(s.call).dst, s.loc)
            if dst.name not in accumulators or float(ops.fields(s.call).value) != 0.0:
                return True
        elif ops.is_op(s.call, "tl.copy"):
            src, dst = (region(r, s.loc) for r in (ops.fields(s.call).src, ops.fields(s.call).dst))
            if is_global(src.buffer) and is_global(dst.buffer):
                return True
            if not is_global(src.buffer) and not is_global(dst.buffer):
                if src.name not in accumulators or buffer_scope(dst.buffer) == "local.fragment":
                    return True
                staged.add(dst.name)
            elif is_global(src.buffer) and dst.name not in loaded:
                return True
            elif is_global(src.buffer) and not _same_loops(s.loops, gemm_loops[dst.name]):
                # loaded outside a loop that repeats the T.gemm on it: the operand stays in its CB across
                # that loop, which the matmul schedule (one load per reduction step) does not express
                return True
    return any(n in loaded for n in accumulators | staged)


def _has_guarded_tile_op(stmt) -> bool:
    """True when a tile operation sits under an ``if`` (a block-sparse mask, a causal skip): the matmul
    schedule keeps its accumulator in DST across an unconditional reduction loop, so it cannot skip steps."""
    guarded = []
    tvm_ffi.structural_walk(
        stmt,
        (tirx.IfThenElse, lambda b: guarded.append(bool(find_ops(b, ("tl.copy", "tl.gemm"))))),
    )
    return any(guarded)


def _same_loops(a: list, b: list) -> bool:
    return len(a) == len(b) and all(x.same_as(y) for x, y in zip(a, b, strict=True))


def operand_cbs(expr) -> list[int]:
    """The CB ids an element-wise expression's ``tt.tile.operand`` leaves read."""
    found = []
    tvm_ffi.structural_walk(
        expr,
        (
            tvm.ir.Call,
            lambda c: found.append(ops.fields(c).cb) if ops.is_op(c, "tt.tile.operand") else None,
        ),
    )
    return found


def _buffers_touched(stmt) -> list[str]:
    """Names of the buffers loaded or stored under ``stmt``."""
    found = []
    tvm_ffi.structural_walk(
        stmt,
        [
            (tirx.BufferStore, lambda s: found.append(str(s.buffer.name))),
            (tvm.ir.TensorLoad, lambda t: found.append(str(t.source.name))),
        ],
    )
    return found


# Functions of constants the arithmetic simplifier leaves alone (``T.tanh(1.5)``), folded here.
_CONSTANT_FUNCTIONS = {
    "exp": math.exp,
    "exp2": lambda x: 2.0**x,
    "log": math.log,
    "log2": math.log2,
    "sqrt": math.sqrt,
    "rsqrt": lambda x: 1.0 / math.sqrt(x),
    "tanh": math.tanh,
    "sigmoid": lambda x: 1.0 / (1.0 + math.exp(-x)),
    "fabs": abs,
    "abs": abs,
}


def _calls_math(value) -> bool:
    """Whether ``value`` calls a math function (exp2, log2, ...): anything but selects and table reads."""
    found = []

    def visit(c):
        if not (ops.is_op(c, "tt.table_value") or str(getattr(c.op, "name", "")).endswith("if_then_else")):
            found.append(c)

    tvm_ffi.structural_walk(value, (tvm.ir.Call, visit))
    return bool(found)


def _in_float32(value):
    """``value`` as the reader computes it, in float32 (a RISC-V core has no 16-bit float type): a cast to a
    16-bit float of a value read from a 16-bit tensor is exact, and of any other value only rounds less."""
    return tvm_ffi.structural_map(
        value,
        (
            tirx.Cast,
            lambda c: cast_to(c.value, "float32") if str(c.ty.dtype) in ("float16", "bfloat16") else c,
        ),
        order="post",
    )


def _fold_constant(value) -> float | None:
    """The value of a scalar expression made of constants, else None (it changes at run time)."""
    if isinstance(value, tvm.ir.Call) and str(value.op.name).split(".")[-1] in _CONSTANT_FUNCTIONS:
        arg = _fold_constant(value.args[0])
        if arg is None:
            return None
        try:
            return float(_CONSTANT_FUNCTIONS[str(value.op.name).split(".")[-1]](arg))
        except (ValueError, ZeroDivisionError, OverflowError):
            return None
    substituted = tvm_ffi.structural_map(
        value,
        (tvm.ir.Call, lambda c: tirx.const(v, "float32") if (v := _fold_constant_call(c)) is not None else c),
    )
    folded = simplify(tirx.Cast("float32", substituted))
    return float(folded.value) if isinstance(folded, tirx.FloatImm | tirx.IntImm) else None


def _fold_constant_call(c) -> float | None:
    name = str(getattr(c.op, "name", "")).split(".")[-1]
    return _fold_constant(c) if name in _CONSTANT_FUNCTIONS else None


def _parallel_nests(stmt) -> list:
    found = []

    def visit(node):
        if isinstance(node, tirx.For) and node.annotations and "tl.loc" in node.annotations:
            found.append(node)
            return tvm_ffi.structural.WalkResult.SKIP
        return tvm_ffi.structural.WalkResult.ADVANCE

    tvm_ffi.structural_walk(stmt, (tirx.For, visit), order="pre")
    return found


@dataclasses.dataclass
class _Buf:
    """One tile buffer's plan: its value CB, and the staging CB when the reader cannot fill it directly."""

    buffer: object
    value_cb: dict | None = None
    staging_cb: dict | None = None
    out_cbs: dict = dataclasses.field(default_factory=dict)  # global dtype → output CB


class _Planner:
    def __init__(self, func, keep_copies: int = 0):
        self.func = func
        self.target = require_attr(func, "tt.target", "LowerTileProgramTT")
        self.def_loc = def_loc(func)
        options = require_attr(func, "tt.options", "LowerTileProgramTT")
        self.double = options.enable_double_buffer
        accessors = require_attr(func, "tt.tensor_accessors", "LowerTileProgramTT")
        self.params = {a.name: a.param_index for a in accessors}
        self.read_only = {a.name for a in accessors if a.access == "read"}
        self.loads: dict[str, list] = {}  # tile buffer → the T.copy sites that load it from a global tensor
        # tile buffer → (first loop, later loop): the blocks it loads in the first are kept for the later
        self.kept: dict[str, tuple[tirx.For, tirx.For]] = {}
        self.keep_copies = keep_copies  # rows of kept blocks a kept buffer's CB holds (0: none is kept)
        # tensors copied one row at a time, stored a page per row (AttachTensorAccessorTT)
        self.row_tensors = {a.name for a in accessors if a.page_layout == "row_major"}
        self.entries: list[dict] = []
        self.bufs: dict[str, _Buf] = {}
        self.nodes: list[dict] = []
        self.scaler: dict | None = None

    # ---- circular buffers -------------------------------------------------------------------------
    def new_cb(self, label, dtype, role, rows, cols, blocks, loc):
        if role != "output":  # only the writer's CB holds a tensor's integer words
            dtype = tile_compute_dtype(dtype)
        fmt, page = DATA_FORMATS[dtype]
        n = _ceil_tiles(rows) * _ceil_tiles(cols)
        taken = {e["name"] for e in self.entries}
        name = "cb_" + re.sub(r"\W", "_", label)
        base, k = name, 1
        while name in taken:
            k += 1
            name = f"{base}{k}"
        entry = {
            "cb": self._take_id(role, loc),
            "buffer": label,
            "name": name,
            "role": role,
            "dtype": dtype,
            "format": fmt,
            "page_size": page,
            "tiles": n,
            "tile_shape": [_ceil_tiles(rows), _ceil_tiles(cols)],
            "depth": n * blocks,
            "total_bytes": n * blocks * page,
            "dims": ["r", "c"],
            "loc": loc,
        }
        if role == "output":
            entry["subblock"] = entry["tile_shape"]
        self.entries.append(entry)
        return entry

    def new_table_cb(self, table):
        """One page holding index table ``table``'s words (IndexTable), as the reader copies it."""
        page = -(-table.words * TABLE_WORD_BYTES // self.target.l1_alignment) * self.target.l1_alignment
        entry = {
            "cb": self._take_id("input", table.loc),
            "buffer": table.name,
            "name": "cb_" + re.sub(r"\W", "_", table.name),
            "role": "table",
            "dtype": word_dtype(table.dtype),
            "format": TABLE_FORMAT,
            "page_size": page,
            "tiles": 1,
            "tile_shape": [1, 1],
            "depth": 1,
            "total_bytes": page,
            "dims": ["r", "c"],
            "loc": table.loc,
        }
        self.entries.append(entry)
        return entry

    def _take_id(self, role, loc):
        """The next free CB id of ``role``'s class (inputs 0.., outputs 16.., intermediates 24..), else any
        free id: the classes are the SDK examples' convention, the hardware only counts CBs."""
        n_cbs = self.target.num_circular_buffers
        used = {e["cb"] for e in self.entries}
        for cb in list(range(FIRST_CB[role], n_cbs)) + list(range(n_cbs)):
            if cb not in used:
                return cb
        raise TTResourceError.at(
            loc,
            f"this kernel needs more than the {n_cbs} circular buffers {self.target.name} has; "
            "use fewer tile buffers",
        )

    def check_l1(self):
        check_cb_budget(self.func, self.target, self.entries)

    def input_blocks(self, loops) -> int:
        stages = 0
        for lp in loops:
            if lp.annotations is not None and "tl.pipelined_stages" in lp.annotations:
                stages = int(lp.annotations["tl.pipelined_stages"])
        return max(2, stages) if self.double else max(1, stages)

    def plan_buffers(self, func):
        """Roles of every tile buffer, from how the program uses it."""
        allocs = []
        tvm_ffi.structural_walk(
            func.body,
            (
                tirx.AllocBuffer,
                lambda a: allocs.append(a.buffer) if buffer_scope(a.buffer) in TILE_SCOPES else None,
            ),
        )
        for buf in allocs:
            self.bufs[str(buf.name)] = _Buf(buf)
        loaded, computed, loops_of, first_loc = {}, set(), {}, {}
        gathered = set()
        tile_ops = ("tl.copy", "tl.fill", "tl.gemm", "tl.reduce", "tl.transpose", "tl.im2col")
        for site in find_ops(func.body, tile_ops):
            c = site.call
            for arg in c.args:
                if isinstance(arg, tvm.ir.TensorRegion):
                    first_loc.setdefault(str(arg.source.name), site.loc)
            if ops.is_op(c, "tl.im2col"):
                col = str(ops.fields(c).col.source.name)
                gathered.add(col)
                loops_of[col] = site.loops
            elif ops.is_op(c, "tl.copy"):
                src, dst = (region(r, site.loc) for r in (ops.fields(c).src, ops.fields(c).dst))
                if is_global(src.buffer) and dst.name in self.bufs:
                    loaded.setdefault(dst.name, set()).add(storage_dtype(func, src.buffer))
                    self.loads.setdefault(dst.name, []).append(site)
                    loops_of[dst.name] = site.loops
                elif dst.name in self.bufs:
                    computed.add(dst.name)
            elif ops.is_op(c, "tl.fill"):
                computed.add(region(ops.fields(c).dst, site.loc).name)
            elif ops.is_op(c, "tl.gemm"):
                computed.add(region(ops.fields(c).c, site.loc).name)
            else:
                computed.add(region(ops.fields(c).dst, site.loc).name)
        for nest in _parallel_nests(func.body):
            tvm_ffi.structural_walk(nest, (tirx.BufferStore, lambda s: computed.add(str(s.buffer.name))))
            for name in _buffers_touched(nest):
                first_loc.setdefault(name, parallel_loc(nest))
        for name, b in self.bufs.items():
            if name not in first_loc:  # allocated but never used: no circular buffer
                continue
            dtype = str(b.buffer.ty.dtype)
            rows, cols = (int(x) for x in b.buffer.ty.shape)
            loc = first_loc.get(name, "")
            if (
                name in loaded
                and name not in computed
                and {compute_dtype(d) for d in loaded[name]} == {dtype}
            ):
                # the reader fills the value CB with the tensor's pages as they are (block-float ones too)
                (stored,) = loaded[name] if len(loaded[name]) == 1 else (dtype,)
                b.value_cb = self.new_cb(
                    name, stored, "input", rows, cols, self.input_blocks(loops_of[name]), loc
                )
                self._keep_between_loops(name, b.value_cb)
                continue
            b.value_cb = self.new_cb(name, dtype, "intermediate", rows, cols, 2, loc)
            if name in gathered:  # the reader gathers rows, compute tilizes them into the value
                blocks = self.input_blocks(loops_of[name])
                b.staging_cb = self.new_cb(f"{name}_rows", dtype, "input", rows, cols, blocks, loc)
            elif name in loaded:
                (src_dtype,) = loaded[name] if len(loaded[name]) == 1 else (dtype,)
                blocks = self.input_blocks(loops_of[name])
                b.staging_cb = self.new_cb(f"{name}_in", src_dtype, "input", rows, cols, blocks, loc)

    def _keep_between_loops(self, name: str, entry: dict) -> None:
        """Keeps the blocks ``name`` loads in one loop for a later loop that loads the same ones (online
        softmax's two passes over a row of blocks): both loads at the top of their loop's body, the loops
        of one trip count from 0 in the same enclosing loops, the regions alike but for the loop variable,
        the tensor not written by the kernel. The CB then holds ``keep_copies`` times the loop's blocks,
        and the reader reads them once."""
        sites = self.loads.get(name, [])
        if self.keep_copies == 0 or len(sites) != 2 or not all(s.loops for s in sites):
            return
        first, later = (s.loops[-1] for s in sites)
        outer = [s.loops[:-1] for s in sites]
        if len(outer[0]) != len(outer[1]) or not all(a.same_as(b) for a, b in zip(*outer, strict=True)):
            return
        extents = [lp.extent for lp in (first, later)]
        if not all(isinstance(e, tirx.IntImm) for e in extents) or extents[0].value != extents[1].value:
            return
        if not all(isinstance(lp.min, tirx.IntImm) and lp.min.value == 0 for lp in (first, later)):
            return
        if not all(_at_top_of(lp, s.call) for lp, s in zip((first, later), sites, strict=True)):
            return
        regions = [region(ops.fields(s.call).src, s.loc) for s in sites]
        if regions[0].name not in self.read_only or regions[0].name != regions[1].name:
            return
        renamed = [_substitute_var(m, first.loop_var, later.loop_var) for m in regions[0].mins]
        if regions[0].extents != regions[1].extents or not all(
            tvm_ffi.structural_equal(simplify(a), simplify(b))
            for a, b in zip(renamed, regions[1].mins, strict=True)
        ):
            return
        entry["depth"] = extents[0].value * entry["tiles"] * self.keep_copies
        entry["total_bytes"] = entry["depth"] * entry["page_size"]
        self.kept[name] = (first, later)

    def scaler_cb(self, loc):
        if self.scaler is None:
            self.scaler = self.new_cb("reduce_scaler", "bfloat16", "intermediate", TILE, TILE, 1, loc)
        return self.scaler


class _Lowering:
    """Rewrites tile statements (after planning) into the tile ops of the module docstring."""

    def __init__(self, planner: _Planner):
        self.p = planner
        self.scalars: dict = {}  # named values of the kernel body (``inv_D = 1.0 / D``), for element bodies
        self.loop_locs: list[str] = [planner.def_loc]  # DSL lines of the T.serial loops being rewritten
        self.loop_ranges: list[tuple] = []  # (variable, min, extent) of the loops being rewritten
        self.index_ranges: dict = {}  # integer named values (grid indices) → the range they take
        self.cleared_for_gemm = False  # the statement just skipped zeroed the next GEMM's accumulator
        self.branches = 0  # how many ifs enclose the statement being rewritten
        self.before_work: list = []  # loads every block repeats, read once before the work loop

    # ---- helpers ----------------------------------------------------------------------------------
    def _whole(self, reg, loc, what):
        b = self.p.bufs.get(reg.name)
        if b is None:
            raise TTCompileError.at(loc, f"{what}: {reg.name} is not a tile buffer of this kernel")
        shape = [int(x) for x in b.buffer.ty.shape]
        if reg.extents != shape or any(not (isinstance(m, tirx.IntImm) and m.value == 0) for m in reg.mins):
            raise TTCompileError.at(
                loc,
                f"{what} uses part of {reg.name} {tuple(shape)}; tile programs use whole tile buffers "
                "on Tenstorrent (slicing a tile buffer is not supported yet)",
            )
        return b

    def _tile_pos(self, reg, loc):
        for m, e in zip(reg.mins, reg.extents, strict=True):
            if e >= TILE and not is_zero_mod(m, TILE):
                raise TTCompileError.at(
                    loc, f"tile region of {reg.name} starts at {m}, which is not a multiple of {TILE}"
                )
            if e < TILE and not (is_zero_mod(m, TILE)):
                raise TTCompileError.at(
                    loc,
                    f"tile region of {reg.name} starts at {m}: a region narrower than a tile must start on a "
                    f"tile boundary on Tenstorrent",
                )
        return [simplify(tirx.floordiv(m, TILE)) for m in reg.mins] + [_ceil_tiles(e) for e in reg.extents]

    def _tile_op(self, op, loc, operand_cbs=(), **fields):
        """The tile op ``op`` with its named ``fields``, recorded as a DFG node on the kernel that runs it,
        reading and writing the CBs its spec names (ops.SPECS), plus an element-wise expression's
        ``operand_cbs``."""
        call = ops.call(op, loc=loc, **fields)
        reads, writes = ops.cbs_read_and_written(call)
        self.p.nodes.append(
            {
                "id": len(self.p.nodes),
                "op": op,
                "kernel": ops.SPECS[op].kernel,
                "cbs_in": reads + list(operand_cbs),
                "cbs_out": writes,
                "loc": loc,
            }
        )
        return [tirx.Evaluate(call)]

    def _moved(self, op, cb, value, loc):
        """A whole-block read (``tt.read_to_cb``) or write (``tt.write_from_cb``) of the global region
        ``value``; of a tensor stored a page per row, a read or write of its rows (``tt.read_row`` /
        ``tt.write_row``: the first row's index, the first column and the sizes, in elements)."""
        reg = region(value, loc)
        tensor = self.p.params[reg.name]
        if reg.name in self.p.row_tensors:
            row, col, rows, cols = row_major_position(region(value, loc, tile_view=False), loc)
            return self._tile_op(op.replace("_to_cb", "_row").replace("_from_cb", "_row"), loc, cb=cb["cb"],
                                 tensor=tensor, row=row, col=col, rows=rows, cols=cols)  # fmt: skip
        row, col, rows, cols = self._tile_pos(reg, loc)
        return self._tile_op(op, loc, cb=cb["cb"], tensor=tensor, row=row, col=col, rows=rows, cols=cols)

    def _read(self, cb, value, loc):
        return self._moved("tt.read_to_cb", cb, value, loc)

    def _write(self, cb, value, loc):
        return self._moved("tt.write_from_cb", cb, value, loc)

    def _out_cb(self, b, dtype, loc):
        if dtype not in b.out_cbs:
            rows, cols = (int(x) for x in b.buffer.ty.shape)
            b.out_cbs[dtype] = self.p.new_cb(
                f"{b.buffer.name}_out", dtype, "output", rows, cols, 2 if self.p.double else 1, loc
            )
        return b.out_cbs[dtype]

    # ---- statements -------------------------------------------------------------------------------
    def copy(self, c, loc):
        src_value, dst_value = ops.fields(c).src, ops.fields(c).dst
        src, dst = (region(r, loc) for r in (src_value, dst_value))
        if [e for e in src.extents if e != 1] != [e for e in dst.extents if e != 1]:
            raise TTCompileError.at(
                loc,
                f"shape mismatch in T.copy: {src.name}{tuple(src.extents)} → {dst.name}{tuple(dst.extents)}",
            )
        if is_global(src.buffer) and is_global(dst.buffer):
            stored, wanted = (storage_dtype(self.p.func, r.buffer) for r in (src, dst))
            cb = self.p.new_cb(f"{src.name}_to_{dst.name}", stored, "input", *src.extents, 2, loc)
            if stored == wanted:  # the reader's tiles go straight to the writer
                cb["subblock"] = cb["tile_shape"]  # the writer drains the whole block at once
                return self._read(cb, src_value, loc) + self._write(cb, dst_value, loc)
            # A conversion (an fp32 dQ stored as fp16): the compute core unpacks and packs each tile.
            out = self.p.new_cb(f"{src.name}_to_{dst.name}_out", wanted, "output", *src.extents, 2, loc)
            return (
                self._read(cb, src_value, loc)
                + self._tile_op("tt.tile.wait_input", loc, cb=cb["cb"])
                + self._tile_op("tt.tile.copy", loc, src=cb["cb"], dst=out["cb"])
                + self._write(out, dst_value, loc)
            )
        if is_global(src.buffer):
            b = self._whole(dst, loc, "T.copy")
            if b.staging_cb is None:
                kept = self.p.kept.get(dst.name)
                if kept is not None:
                    step, cb = self.loop_ranges[-1][0], b.value_cb["cb"]
                    if step.same_as(kept[0].loop_var):  # the first loop reads, the later one reuses
                        return self._read(b.value_cb, src_value, loc) + self._tile_op(
                            "tt.tile.wait_kept", loc, cb=cb, step=step
                        )
                    return self._tile_op("tt.tile.use_kept", loc, cb=cb, step=step)
                load = self._read(b.value_cb, src_value, loc) + self._tile_op(
                    "tt.tile.wait_input", loc, cb=b.value_cb["cb"]
                )
                if not self._same_for_every_block(src, dst.name):
                    return load
                # LayerNorm's gamma and beta: read once per core and kept, not re-read with every row block
                entry = b.value_cb
                entry["depth"], entry["total_bytes"] = entry["tiles"], entry["tiles"] * entry["page_size"]
                self.before_work += load
                return []
            stage = b.staging_cb
            return (
                self._read(stage, src_value, loc)
                + self._tile_op("tt.tile.wait_input", loc, cb=stage["cb"])
                + self._tile_op("tt.tile.copy", loc, src=stage["cb"], dst=b.value_cb["cb"])
            )
        sliced = self._slice(src, dst, loc)
        if sliced is not None:
            return sliced
        s = self._whole(src, loc, "T.copy")
        if is_global(dst.buffer):
            out = self._out_cb(s, storage_dtype(self.p.func, dst.buffer), loc)
            return self._tile_op("tt.tile.copy", loc, src=s.value_cb["cb"], dst=out["cb"]) + self._write(
                out, dst_value, loc
            )
        d = self._whole(dst, loc, "T.copy")
        return self._tile_op("tt.tile.copy", loc, src=s.value_cb["cb"], dst=d.value_cb["cb"])

    def fill(self, c, loc):
        b = self._whole(region(ops.fields(c).dst, loc), loc, "T.fill")
        if integer_tiles.is_integer_tile(b.buffer.ty.dtype):
            integer_tiles.check_fill(str(b.buffer.name), ops.fields(c).value, loc)
        return self._tile_op("tt.tile.fill", loc, cb=b.value_cb["cb"], value=ops.fields(c).value)

    def gemm(self, c, loc):
        a, b, cc, ta, tb, (m, _, k) = gemm_operands(c, loc)
        for reg in (a, b, cc):
            if any(e % TILE for e in reg.extents):
                raise TTCompileError.at(
                    loc, f"T.gemm operand {reg.name}{tuple(reg.extents)} is not a whole number of 32x32 tiles"
                )
        ab, bb, cb = (self._whole(r, loc, "T.gemm") for r in (a, b, cc))
        integer_tiles.check_gemm([r.name for r in (a, b, cc)], [x.buffer.ty.dtype for x in (ab, bb, cb)], loc)
        ids = [x.value_cb["cb"] for x in (ab, bb, cb)]
        prologue = []
        if ta:  # the matrix engine transposes only its second operand: A's transpose goes through a scratch
            scratch = self.p.new_cb(f"{a.name}_T", str(ab.buffer.ty.dtype), "intermediate", m, k, 2, loc)
            prologue = self._tile_op("tt.tile.transpose", loc, src=ids[0], dst=scratch["cb"])
            ids[0] = scratch["cb"]
        op = "tt.tile.matmul_cleared" if self.cleared_for_gemm else "tt.tile.matmul"
        self.cleared_for_gemm = False
        return prologue + self._tile_op(op, loc, a=ids[0], b=ids[1], c=ids[2], trans_b=tb)

    def _clears_for_gemm(self, stmt, following) -> bool:
        """Whether ``stmt`` sets every element of a tile buffer to zero (``T.clear``, or a ``T.Parallel``
        store of a value that is 0 wherever it is used: flash attention's padding mask when the blocks divide
        the sequence) that ``following``, a ``T.gemm``, then accumulates into without reading it otherwise:
        the GEMM can start from zero instead (C = A·B), saving the fill and the copy of C into DST."""
        call = following.value if isinstance(following, tirx.Evaluate) else None
        if not (isinstance(call, tvm.ir.Call) and ops.is_op(call, "tl.gemm")):
            return False
        a, b, c, *_ = gemm_operands(call, ops.loc_of(call))
        target = c.name
        if target in (a.name, b.name) or target not in self.p.bufs:
            return False
        whole = [int(x) for x in self.p.bufs[target].buffer.ty.shape]
        if isinstance(stmt, tirx.Evaluate) and ops.is_op(stmt.value, "tl.fill"):
            dst = region(ops.fields(stmt.value).dst, ops.loc_of(stmt.value))
            value = _fold_constant(ops.fields(stmt.value).value)
            return dst.name == target and dst.extents == whole and value == 0.0
        if not (isinstance(stmt, tirx.For) and parallel_loc(stmt)):
            return False
        try:
            element = _ElementStatement(self, stmt)
        except TTCompileError:
            return False  # lowered on its own, it reports what is wrong with it
        store = element.body
        if not isinstance(store, tirx.BufferStore) or str(store.buffer.name) != target:
            return False
        indices = [simplify(i) for i in store.indices]
        if element.extents != whole or len(indices) != len(element.vars):
            return False
        if not all(i.same_as(v) for i, v in zip(indices, element.vars, strict=True)):
            return False
        value = store.value.value if isinstance(store.value, tirx.Cast) else store.value
        return not element._has_load(value) and element._over_the_loops(value) == 0.0

    def reduce(self, c, loc):
        src, dst = (region(r, loc) for r in (ops.fields(c).src, ops.fields(c).dst))
        kind, dim, clear = ops.fields(c).kind, ops.fields(c).dim, ops.fields(c).clear
        s, d = self._whole(src, loc, f"T.reduce_{kind}"), self._whole(dst, loc, f"T.reduce_{kind}")
        if integer_tiles.is_integer_tile(s.buffer.ty.dtype):
            integer_tiles.check_reduce(src.name, kind, loc)
        want = [src.extents[0], 1] if dim == 1 else [1, src.extents[1]]
        if dst.extents != want:
            raise TTCompileError.at(
                loc,
                f"T.reduce_{kind} over dim {dim} of {src.name}{tuple(src.extents)} gives {want[0] * want[1]} "
                f"values but {dst.name} holds {dst.extents[0] * dst.extents[1]}",
            )
        # Each row (column) reduces on its own: only the reduced dimension's padding (a table of 4 rows
        # reduced over its rows: 28 padding rows in its tiles) would enter the result, so a dimension that
        # is not whole tiles keeps only the entries inside its extent.
        keep = None
        if src.extents[dim] % TILE:
            extent = src.extents[dim]
            keep = lambda i, j: tirx.LT(i if dim == 0 else j, extent)  # noqa: E731
        return self._reduce(s, d, src.extents, kind, dim, clear, keep, loc)

    def _reduce(self, s, d, extents, kind, dim, clear, keep, loc):
        """``tt.tile.reduce`` of tile buffer ``s`` (element ``extents``) into ``d``; with ``keep`` (a
        condition on the element's row i and column j) the other entries count as the reduction's identity:
        a tile the reader generates (1.0 where ``keep`` holds, 0.0 elsewhere) selects it there."""
        scaler = self.p.scaler_cb(loc)
        mask, before = -1, []
        if keep is not None:
            rows, cols = extents
            cb = self.p.new_cb(f"{s.buffer.name}_kept", "float32", "input", rows, cols, 2, loc)
            i, j = tirx.Var("i", "int32"), tirx.Var("j", "int32")
            tile_rows, tile_cols = cb["tile_shape"]
            value = tirx.Cast("float32", keep(i, j))
            before = self._tile_op(
                "tt.gen_tile", loc, cb=cb["cb"], value=value, i=i, j=j, rows=tile_rows, cols=tile_cols
            ) + self._tile_op("tt.tile.wait_input", loc, cb=cb["cb"])
            mask = cb["cb"]
        # |x| or -x of the source (or the source with the entries it does not keep masked) goes through a
        # scratch block the reduction then reads (reduce_tile unpacks from a CB); -1 when it reads the source.
        scratch = -1
        if REDUCE[kind].prepare or mask >= 0:
            rows, cols = extents
            scratch = self.p.new_cb(
                f"{s.buffer.name}_{REDUCE[kind].prepare or 'masked'}",
                str(s.buffer.ty.dtype),
                "intermediate",
                rows,
                cols,
                1,
                loc,
            )["cb"]
        return before + self._tile_op(
            "tt.tile.reduce",
            loc,
            src=s.value_cb["cb"],
            dst=d.value_cb["cb"],
            kind=kind,
            dim=dim,
            clear=clear,
            scaler=scaler["cb"],
            scratch=scratch,
            mask=mask,
            identity=tirx.const(REDUCE[kind].identity, "float32"),
        )

    def _slice(self, src, dst, loc):
        """A row (column) of a tile buffer copied into a vector (``T.copy(lse_local[k, :], lse_split)``):
        the sum over the buffer's rows (columns) keeping only row (column) k, exact with one term; None when
        ``src`` is not such a slice."""
        b = self.p.bufs.get(src.name)
        if b is None or is_global(dst.buffer):
            return None
        shape = [int(x) for x in b.buffer.ty.shape]
        # A vector (one column or one row) copied whole is no slice: the tiles are copied as they are.
        if src.extents == [1, shape[1]] and shape[0] > 1 and is_zero_mod(src.mins[1], shape[1]):
            dim, index = 0, src.mins[0]
        elif src.extents == [shape[0], 1] and shape[1] > 1 and is_zero_mod(src.mins[0], shape[0]):
            dim, index = 1, src.mins[1]
        else:
            return None
        d = self._whole(dst, loc, "T.copy")
        if [int(x) for x in d.buffer.ty.shape] != src.extents:
            return None
        keep = lambda i, j: tirx.EQ(i if dim == 0 else j, index)  # noqa: E731
        return self._reduce(b, d, shape, "sum", dim, True, keep, loc)

    def transpose(self, c, loc):
        src, dst = (region(r, loc) for r in (ops.fields(c).src, ops.fields(c).dst))
        s, d = self._whole(src, loc, "T.transpose"), self._whole(dst, loc, "T.transpose")
        # A vector (one extent 1) sits in column 0 or row 0 of its tiles, so it turns into the other.
        if dst.extents != src.extents[::-1] or any(e % TILE and e != 1 for e in src.extents):
            raise TTCompileError.at(
                loc,
                f"T.transpose({src.name}{tuple(src.extents)}, {dst.name}{tuple(dst.extents)}): the "
                "destination must have the source's shape reversed, in whole 32x32 tiles or as a vector",
            )
        ids = [s.value_cb["cb"], d.value_cb["cb"]]
        return self._tile_op("tt.tile.transpose", loc, src=ids[0], dst=ids[1])

    def im2col(self, c, loc):
        """The reader gathers the block's rows (runs of channels of the NHWC image, zeros in the padding)
        into a row-major staging CB; compute tilizes them into the tile buffer's value."""
        f = ops.fields(c)
        img, col = f.img.source, region(f.col, loc)
        shape = [int(x) for x in img.ty.shape]
        if len(shape) != 4 or not is_global(img):
            raise TTCompileError.at(
                loc, f"T.im2col reads an NHWC tensor parameter; {img.name} is {tuple(shape)}"
            )
        batch, height, width, channels = shape
        rows, cols = col.extents
        if str(img.ty.dtype) != str(col.buffer.ty.dtype):
            raise TTCompileError.at(
                loc,
                f"T.im2col from {img.name} ({img.ty.dtype}) into {col.name} ({col.buffer.ty.dtype}): the "
                f"dtypes differ",
            )
        if channels % TILE or rows % TILE or cols % TILE:
            raise TTCompileError.at(
                loc,
                f"T.im2col of {img.name} (C = {channels}) into {col.name}{tuple(col.extents)}: the channel "
                f"count and the block must be multiples of {TILE}, so that each run of channels the reader "
                f"fetches is an aligned NOC read and the block is whole tiles; other sizes are not supported "
                f"on Tenstorrent yet",
            )
        out_h = (height + 2 * f.pad - f.dilation * (f.kernel - 1) - 1) // f.stride + 1
        out_w = (width + 2 * f.pad - f.dilation * (f.kernel - 1) - 1) // f.stride + 1
        b = self._whole(col, loc, "T.im2col")
        stage = b.staging_cb
        return self._tile_op(
            "tt.read_im2col",
            loc,
            cb=stage["cb"],
            tensor=self.p.params[str(img.name)],
            nhw_step=f.nhw_step,
            c_step=f.c_step,
            kernel=f.kernel,
            stride=f.stride,
            dilation=f.dilation,
            pad=f.pad,
            height=height,
            width=width,
            channels=channels,
            out_height=out_h,
            out_width=out_w,
            positions=batch * out_h * out_w,
            rows=rows,
            cols=cols,
        ) + self._tile_op("tt.tile.tilize", loc, src=stage["cb"], dst=b.value_cb["cb"])

    def parallel(self, nest: tirx.For):
        selected = self._selection(nest)
        return selected if selected is not None else _ElementStatement(self, nest).lower()

    def _selection(self, nest: tirx.For):
        """``for i in T.Parallel(n): v[i] = table[k, i]`` (a row, or column, of a tile buffer into a vector,
        k free of i) is the slice copy ``T.copy(table[k, :], v)``; None for any other nest."""
        store = nest.body
        if not isinstance(store, tirx.BufferStore):
            return None
        load = (
            store.value.value if isinstance(store.value, tirx.Cast) else store.value
        )  # the CB's format casts
        if not isinstance(load, tvm.ir.TensorLoad) or load.source.name not in self.p.bufs:
            return None
        i, loc = nest.loop_var, parallel_loc(nest)
        if len(load.indices) != 2 or len(store.indices) != 2 or store.buffer.name not in self.p.bufs:
            return None
        moving = [any(v.same_as(i) for v in collect_vars(x)) for x in load.indices]
        if moving not in ([False, True], [True, False]):
            return None
        dim = 0 if moving == [False, True] else 1
        stored = [simplify(x) for x in store.indices]
        if not simplify(load.indices[1 - dim]).same_as(i) or not any(x.same_as(i) for x in stored):
            return None
        shape = [int(x) for x in load.source.shape]
        if int(simplify(nest.extent).value) != shape[1 - dim]:
            return None
        zero = tirx.const(0, "int32")
        src = Region(load.source, [load.indices[0], zero] if dim == 0 else [zero, load.indices[1]],
                     [1, shape[1]] if dim == 0 else [shape[0], 1])  # fmt: skip
        dst = Region(store.buffer, [zero, zero], [int(x) for x in store.buffer.shape])
        return self._slice(src, dst, loc)

    def _same_for_every_block(self, src: Region, name: str) -> bool:
        """Whether loading tile buffer ``name`` from ``src`` reads the same tiles in every block of a
        core's work: its only load, at the top of the work loop (in no other loop or if), of a region at
        constant positions in a tensor the kernel does not write."""
        (work_loop, *inner) = self.loop_ranges or [None]
        return (
            len(self.p.loads.get(name, [])) == 1
            and work_loop is not None
            and not inner
            and ops.is_op(tirx.Evaluate(work_loop[2]), "tt.work_count")
            and self.branches == 0
            and src.name in self.p.read_only
            and not any(collect_vars(m) for m in src.mins)
        )

    def rewrite(self, stmt):
        if isinstance(stmt, tirx.SeqStmt):
            out, stmts = [], list(stmt.seq)
            for k, s in enumerate(stmts):
                if k + 1 < len(stmts) and self._clears_for_gemm(s, stmts[k + 1]):
                    self.cleared_for_gemm = True  # the GEMM after it starts from zero instead
                    continue
                out.append(self.rewrite(s))
            return seq(out)
        if isinstance(stmt, tirx.AllocBuffer) and buffer_scope(stmt.buffer) in TILE_SCOPES:
            return None
        if isinstance(stmt, tirx.For):
            if stmt.annotations and "tl.loc" in stmt.annotations:
                return seq(self.parallel(stmt))
            line = (stmt.annotations or {}).get("tl.serial_loc")
            self.loop_locs.append(self.loop_locs[-1] if line is None else str(getattr(line, "value", line)))
            self.loop_ranges.append((stmt.loop_var, stmt.min, stmt.extent))
            body = self.rewrite(stmt.body)
            self.loop_ranges.pop()
            loc = self.loop_locs.pop()
            released = [
                self._tile_op(
                    "tt.tile.release_kept", loc, cb=self.p.bufs[name].value_cb["cb"], steps=stmt.extent
                )
                for name, (_, later) in self.p.kept.items()
                if later.same_as(stmt)
            ]
            return seq([with_loop_body(stmt, body), *[s for r in released for s in r]])
        if isinstance(stmt, tirx.IfThenElse):
            self.branches += 1
            then = self.rewrite(stmt.then_case)
            other = None if stmt.else_case is None else self.rewrite(stmt.else_case)
            self.branches -= 1
            return tirx.IfThenElse(stmt.condition, then, other)
        if isinstance(stmt, tirx.Evaluate) and isinstance(stmt.value, tvm.ir.Call):
            c = stmt.value
            loc = ops.loc_of(c)
            for name, fn in (
                ("tl.copy", self.copy),
                ("tl.fill", self.fill),
                ("tl.gemm", self.gemm),
                ("tl.reduce", self.reduce),
                ("tl.transpose", self.transpose),
                ("tl.im2col", self.im2col),
            ):
                if ops.is_op(c, name):
                    return seq(fn(c, loc))
        if isinstance(stmt, tirx.Bind):
            # Constants (``inv_D = 1.0 / D``) and float values (``log_decay = T.log2(...)`` of a grid index)
            # are inlined into element bodies, which then split them between the reader (arithmetic) and the
            # SFPU (math functions); integer grid indices and loop-dependent values stay variables.
            value = simplify(
                tvm_ffi.structural_map(stmt.value, (tvm.ir.Var, lambda v: self.scalars.get(v, v)))
            )
            if isinstance(value, tirx.IntImm | tirx.FloatImm) or str(value.ty.dtype).startswith("float"):
                self.scalars[stmt.var] = value
            elif ops.is_op(value, "tt.work_block"):  # a grid index: its range bounds integer tiles' values
                grid = get_attr(self.p.func, "tt.grid")
                if grid is not None:
                    extent = (grid.x, grid.y, grid.z)[int(ops.fields(value).axis)]
                    self.index_ranges[stmt.var] = tvm.ir.Range(0, int(extent))
            elif str(value.ty.dtype).startswith("int"):
                analyzer = tvm.sym.Analyzer()
                for var, start, extent in self.loop_ranges:
                    analyzer.bind(var, tvm.ir.Range.from_min_extent(start, extent))
                for var, known in self.index_ranges.items():
                    analyzer.bind(var, known)
                bound = analyzer.const_int_bound(value)
                if max(-bound.min_value, bound.max_value + 1) < (1 << 31):  # else: unbounded
                    self.index_ranges[stmt.var] = tvm.ir.Range(bound.min_value, bound.max_value + 1)
            return stmt
        if isinstance(stmt, tirx.BufferStore):
            raise TTCompileError.at(
                self.loop_locs[-1],
                f"a store to {stmt.buffer.name} outside T.Parallel is scalar code (a value carried from one "
                "element or iteration to the next), which is not supported on Tenstorrent yet; write "
                "element-wise statements inside `for i, j in T.Parallel(...)`",
            )
        return stmt


class _ElementStatement:
    """One ``T.Parallel`` nest → per stored buffer one ``tt.tile.eltwise`` (plus reads/writes it needs)."""

    def __init__(self, lowering: _Lowering, nest: tirx.For):
        self.low, self.p = lowering, lowering.p
        self.loc = parallel_loc(nest)
        self.vars, self.extents, body = [], [], nest
        while isinstance(body, tirx.For):
            self.vars.append(body.loop_var)
            self.extents.append(simplify(body.extent))
            body = body.body
        if any(not isinstance(e, tirx.IntImm) for e in self.extents):
            raise TTCompileError.at(self.loc, "T.Parallel extents must be constants")
        self.extents = [int(e.value) for e in self.extents]
        if len(self.vars) > 2:
            raise TTCompileError.at(self.loc, "T.Parallel over more than two dimensions is not supported yet")
        self.body = body
        self.before: list = []  # reads and waits the statement needs first
        self.after: list = []
        self.lets: dict = dict(lowering.scalars)

    def _axes(self, indices, shape, what):
        """For each of the 2 dims, the loop-var position (0/1) it follows, or None (index 0, extent 1)."""
        axes = []
        for idx, ext in zip(indices, shape, strict=True):
            idx = simplify(idx)
            hit = [k for k, v in enumerate(self.vars) if idx.same_as(v)]
            if hit and self.extents[hit[0]] == int(ext):
                axes.append(hit[0])
            elif isinstance(idx, tirx.IntImm) and idx.value == 0 and int(ext) == 1:
                axes.append(None)
            else:
                raise TTCompileError.at(
                    self.loc,
                    f"{what} indexes {indices} of a {tuple(int(s) for s in shape)} buffer; element-wise "
                    f"statements on Tenstorrent index tile buffers by the T.Parallel variables in order "
                    f"(or 0 along a dimension of 1)",
                )
        return axes

    def _out_axes(self, dst_axes):
        # Every variable is stored along once; one of extent 1 may be left out (a (1, D) nest's
        # ``dgamma[j] += ...``, as in TileLang's LayerNorm backward: its only value is 0).
        used = [a for a in dst_axes if a is not None]
        needed = {k for k, extent in enumerate(self.extents) if extent > 1}
        if len(set(used)) != len(used) or not needed <= set(used):
            raise TTCompileError.at(
                self.loc, "an element-wise statement must store every element of its T.Parallel range once"
            )
        return dst_axes

    def _broadcast(self, op_axes, dst_axes, dst_shape):
        """none | row | col | scalar: how an operand's tile is spread over the destination tile."""
        # a loop variable of extent 1 is index 0, as in a dimension of 1
        op_axes = [None if a is not None and self.extents[a] == 1 else a for a in op_axes]
        dst_axes = [None if a is not None and self.extents[a] == 1 else a for a in dst_axes]
        bcast_rows = op_axes[0] is None and dst_shape[0] > 1  # one row, repeated down the rows
        bcast_cols = op_axes[1] is None and dst_shape[1] > 1  # one column, repeated across
        transposed = any(a is not None and a != d for a, d in zip(op_axes, dst_axes, strict=True))
        if transposed or (op_axes != dst_axes and not (bcast_rows or bcast_cols)):
            raise TTCompileError.at(
                self.loc,
                "an operand is indexed in a different order than the stored buffer; element-wise statements "
                "on Tenstorrent index tile buffers by the T.Parallel variables in order (no transposes yet)",
            )
        return {(False, False): "none", (True, False): "row", (False, True): "col", (True, True): "scalar"}[
            (bcast_rows, bcast_cols)
        ]

    def _uses_position(self, e) -> bool:
        names = {v.name for v in self.vars}
        return any(v.name in names for v in collect_vars(e))

    def _has_load(self, e) -> bool:
        found = []
        tvm_ffi.structural_walk(e, (tvm.ir.TensorLoad, found.append))
        return bool(found)

    def _operands(self, value, dst_axes, dst_shape, dst_dtype):
        """``value`` with loads → tt.tile.operand leaves and position-only subtrees → generated tiles."""
        if isinstance(value, tvm.ir.TensorLoad):
            buf = value.source
            b = self.p.bufs.get(str(buf.name))
            if b is None:  # StageElementGlobalsTT staged every global tensor
                raise TTCompileError.at(self.loc, f"{buf.name} is not a tile buffer of this kernel")
            shape = [int(x) for x in buf.ty.shape]
            axes = self._axes(list(value.indices), shape, f"reading {buf.name}")
            cb = b.value_cb
            if None not in axes and axes == dst_axes[::-1] and axes != dst_axes:
                cb, axes = self._transposed(b, shape), dst_axes
            broadcast = self._broadcast(axes, dst_axes, dst_shape)
            return ops.call("tt.tile.operand", cb=cb["cb"], broadcast=broadcast, dtype="float32")
        if not self._has_load(value):
            folded = _fold_constant(value)
            if folded is not None:
                return tirx.const(folded, "float32")
            # The reader evaluates arithmetic only; exp2, log2... of such a value run on the SFPU below.
            if not _calls_math(value):
                if self._uses_position(value):
                    bounded = self._over_the_loops(value)
                    if bounded is not None:  # a mask that holds everywhere it is used: no tile to generate
                        return tirx.const(bounded, "float32")
                    return self._generated(value, dst_axes, dst_shape)
                return self._runtime_scalar(value)
        if isinstance(value, tirx.Cast):
            return self._operands(value.value, dst_axes, dst_shape, dst_dtype)
        if isinstance(value, tvm.ir.Call):
            args = [
                self._operands(a, dst_axes, dst_shape, dst_dtype)
                if not isinstance(a, tvm.ir.StringImm)
                else a
                for a in value.args
            ]
            # a test (T.isnan) stays a condition, for the logic and selects around it
            return tvm.ir.Call(value.op, args, ret_ty="bool" if str(value.ty) == "bool" else "float32")
        fields = {}
        for name in ("a", "b", "condition", "true_value", "false_value"):
            if hasattr(value, name):
                fields[name] = self._operands(getattr(value, name), dst_axes, dst_shape, dst_dtype)
        if isinstance(value, tirx.Select):
            condition = fields["condition"]
            if isinstance(condition, tirx.FloatImm | tirx.IntImm):  # T.Select(True, a, b), folded
                return fields["true_value"] if float(condition.value) else fields["false_value"]
            if str(condition.ty) != "bool":  # a value used as a condition: true where it is not zero
                condition = tirx.NE(condition, tirx.const(0.0, str(condition.ty)))
            return tirx.Select(condition, fields["true_value"], fields["false_value"])
        if fields.keys() == {"a", "b"}:
            return type(value)(fields["a"], fields["b"])
        if isinstance(value, tirx.Not):
            return tirx.Not(fields["a"])
        raise TTCompileError.at(
            self.loc,
            f"{type(value).__name__} in an element-wise statement is not supported on Tenstorrent yet",
        )

    def _transposed(self, b, shape):
        """A tile buffer read transposed (``xt[i, j] = x[j, i]``, TileLang's Mamba chunk state): its
        transpose, made into a scratch CB first (the engines' tile transpose), read in order."""
        scratch = self.p.new_cb(
            f"{b.buffer.name}_T", str(b.buffer.ty.dtype), "intermediate", *shape[::-1], 2, self.loc
        )
        self.before += self.low._tile_op(
            "tt.tile.transpose", self.loc, src=b.value_cb["cb"], dst=scratch["cb"]
        )
        return scratch

    def _over_the_loops(self, value) -> float | None:
        """The one value a position-only expression takes over the statement's elements and the loops
        around it (flash attention's padding mask ``k * block_N + j >= seq_kv`` when the blocks divide the
        sequence), else None."""
        if has_narrow_int(value):
            return None
        return _fold_constant(self._positions().simplify(value))

    def _positions(self) -> tvm.sym.Analyzer:
        """An analyzer that knows the ranges of the statement's elements and of the loops around it."""
        analyzer = tvm.sym.Analyzer()
        for var, named in self.low.scalars.items():  # ``loop_range = T.ceildiv(seq_kv, block_N)``
            if isinstance(named, tirx.IntImm):
                analyzer.bind(var, named)
        for var, start, extent in self.low.loop_ranges:
            analyzer.bind(var, tvm.ir.Range.from_min_extent(start, extent))
        for var, extent in zip(self.vars, self.extents, strict=True):
            analyzer.bind(var, tvm.ir.Range.from_min_extent(tirx.const(0, "int32"), extent))
        return analyzer

    def _generated(self, value, dst_axes, dst_shape):
        """A position-only sub-expression (a mask): the reader writes its values into a tile."""
        cb = self.p.new_cb("generated", "float32", "input", *dst_shape, 2, self.loc)
        i = self.vars[dst_axes[0]] if dst_axes[0] is not None else tirx.Var("unused_i", "int32")
        j = self.vars[dst_axes[1]] if dst_axes[1] is not None else tirx.Var("unused_j", "int32")
        rows, cols = cb["tile_shape"]
        value = tirx.Cast("float32", _in_float32(value))
        self.before += self.low._tile_op(
            "tt.gen_tile", self.loc, cb=cb["cb"], value=value, i=i, j=j, rows=rows, cols=cols
        )
        self.before += self.low._tile_op("tt.tile.wait_input", self.loc, cb=cb["cb"])
        return ops.call("tt.tile.operand", cb=cb["cb"], broadcast="none", dtype="float32")

    def _runtime_scalar(self, value):
        """A value known per block only (``T.Cast("float32", bx)``, a value of a scalar table such as
        ``Sinks[by]``): the reader computes it into a tile, and every element takes it from there."""
        cb = self.p.new_cb("scalar", "float32", "input", 1, 1, 2, self.loc)
        value = _in_float32(value)
        unused_i, unused_j = tirx.Var("unused_i", "int32"), tirx.Var("unused_j", "int32")
        self.before += self.low._tile_op(
            "tt.gen_tile",
            self.loc,
            cb=cb["cb"],
            value=cast_to(value, "float32"),
            i=unused_i,
            j=unused_j,
            rows=1,
            cols=1,
        )
        self.before += self.low._tile_op("tt.tile.wait_input", self.loc, cb=cb["cb"])
        return ops.call("tt.tile.operand", cb=cb["cb"], broadcast="scalar", dtype="float32")

    def _stores(self):
        stmts = self.body.seq if isinstance(self.body, tirx.SeqStmt) else [self.body]
        out = []
        for s in stmts:
            if isinstance(s, tirx.Bind):
                self.lets[s.var] = tvm_ffi.structural_map(
                    s.value, (tvm.ir.Var, lambda v: self.lets.get(v, v))
                )
            elif isinstance(s, tirx.BufferStore):
                value = tvm_ffi.structural_map(s.value, (tvm.ir.Var, lambda v: self.lets.get(v, v)))
                out.append((s.buffer, list(s.indices), value))
            else:
                raise TTCompileError.at(
                    self.loc,
                    f"{type(s).__name__} inside T.Parallel is not supported on Tenstorrent yet (element-wise "
                    "statements may assign buffers and name values only)",
                )
        return out

    def _slice_store(self, buf, indices, value, dst_shape):
        """A store into one row or column of a 2-D tile buffer at a position the nest does not span
        (``acc[i, k] = v[i]`` in ``T.Parallel(n)``, ``k`` a loop variable: top-k's k-th result): the store
        over the whole buffer that keeps every other element, ``acc[i, p] = p == k ? v[i] : acc[i, p]``, its
        mask a tile the reader generates. ``(indices, value)`` unchanged when every index is the nest's."""
        fixed = [
            d
            for d, idx in enumerate(indices)
            if not any(simplify(idx).same_as(v) for v in self.vars)
            and not (
                isinstance(simplify(idx), tirx.IntImm) and int(simplify(idx).value) == 0 and dst_shape[d] == 1
            )
        ]
        if len(fixed) != 1 or len(self.vars) != 1:
            return indices, value
        d = fixed[0]
        if self._uses_position(indices[d]):
            raise TTCompileError.at(
                self.loc,
                f"storing {buf.name}{list(indices)}: a position that moves with the T.Parallel variable "
                "along two dimensions (a diagonal) is not supported on Tenstorrent yet",
            )
        position = tirx.Var(f"{buf.name}_{'ij'[d]}", "int32")
        self.vars.append(position)
        self.extents.append(dst_shape[d])
        whole = [position if k == d else idx for k, idx in enumerate(indices)]
        kept = tirx.BufferLoad(buf, whole)
        return whole, tirx.Select(tirx.EQ(position, indices[d]), cast_to(value, str(buf.ty.dtype)), kept)

    def lower(self):
        result = []
        nest_vars, nest_extents = list(self.vars), list(self.extents)
        for buf, indices, value in self._stores():
            self.before = []
            self.vars, self.extents = list(nest_vars), list(nest_extents)
            b = self.p.bufs.get(str(buf.name))
            if b is None:
                raise TTCompileError.at(self.loc, f"{buf.name} is not a tile buffer of this kernel")
            dst_shape = [int(x) for x in buf.ty.shape]
            indices, value = self._slice_store(buf, indices, value, dst_shape)
            if integer_tiles.is_integer_tile(buf.ty.dtype):
                positions = self._positions()
                for var, known in self.low.index_ranges.items():
                    positions.bind(var, known)
                integer_tiles.check_store(str(buf.name), value, positions, self.loc)
                value = integer_tiles.truncated(value)
            dst_axes = self._out_axes(self._axes(indices, dst_shape, f"storing {buf.name}"))
            cb = b.value_cb
            expr = self._operands(value, dst_axes, dst_shape, str(buf.ty.dtype))
            reads = operand_cbs(expr)
            result += self.before
            constant = _fold_constant(expr) if not reads else None
            if constant is not None:  # every element set to one value: a fill
                value = tirx.const(constant, "float32")
                result += self.low._tile_op("tt.tile.fill", self.loc, cb=cb["cb"], value=value)
                continue
            result += self.low._tile_op(
                "tt.tile.eltwise", self.loc, operand_cbs=sorted(set(reads)), dst=cb["cb"], expr=expr
            )
        return result


_WAITS = ("tt.tile.wait_input", "tt.tile.wait_kept")  # the compute kernel's waits for the reader's blocks


def _check_dataflow(planner):
    """Reader- and writer-facing CBs need a producer and a consumer in different kernels (a buffer loaded but
    never used would fill up and hang the reader)."""
    for e in planner.entries:
        if e["role"] == "table":  # its protocol is _stage_tables's
            continue
        readers = [n for n in planner.nodes if e["cb"] in n["cbs_in"] and n["op"] not in _WAITS]
        written = any(e["cb"] in n["cbs_out"] for n in planner.nodes)
        if e["role"] != "output" and written and not readers and e["buffer"] != "reduce_scaler":
            raise TTCompileError.at(
                e["loc"], f"tile buffer {e['buffer']} is written but never read; remove it or use it"
            )
        if e["role"] == "intermediate":
            continue
        producers = {n["kernel"] for n in planner.nodes if e["cb"] in n["cbs_out"]}
        consumers = {n["kernel"] for n in planner.nodes if e["cb"] in n["cbs_in"]}
        if not producers or not consumers:
            raise TTCompileError.at(
                e["loc"],
                f"tile buffer {e['buffer']} is {'loaded' if producers else 'stored'} but never "
                f"{'used' if producers else 'written'}",
            )


def _read_first_rows_only(planner, body):
    """Marks ``first_row_only`` each input CB holding a row vector (a 1-row buffer of 16- or 32-bit
    floats) that compute reads only as row or scalar broadcasts, which take each tile's first row."""
    broadcasts: dict[int, set[str]] = {}

    def note(c):
        if ops.is_op(c, "tt.tile.operand"):
            f = ops.fields(c)
            broadcasts.setdefault(int(f.cb), set()).add(str(f.broadcast))

    tvm_ffi.structural_walk(body, (tvm.ir.Call, note))
    whole_tiles = {
        cb for n in planner.nodes if n["op"] not in (*_WAITS, "tt.tile.eltwise") for cb in n["cbs_in"]
    }
    for b in planner.bufs.values():
        e = b.value_cb
        if (
            e is not None
            and e["role"] == "input"
            and b.staging_cb is None
            and int(b.buffer.ty.shape[0]) == 1
            and e["dtype"] in ("bfloat16", "float16", "float32")
            and e["cb"] not in whole_tiles
            and broadcasts.get(e["cb"], {"none"}) <= {"row", "scalar"}
        ):
            e["first_row_only"] = True


def _tables_read(body) -> set[str]:
    """Names of the index tables whose values ``body`` reads."""
    used = set()
    if body is not None:
        tvm_ffi.structural_walk(
            body,
            (
                tvm.ir.Call,
                lambda c: used.add(ops.fields(c).table) if ops.is_op(c, "tt.table_value") else None,
            ),
        )
    return used


def _stage_tables(func, lowering, body):
    """``body`` with each index table it reads staged in L1: before the work loop the reader copies the
    table into a CB of its own; when the compute kernel's branches or loops depend on the table too, the
    reader pushes that page and the compute kernel waits for it and releases it after the loop.
    ``tt.table_value`` then names the table's CB, which each kernel reads from (see index_tables.py)."""
    used, computed = _tables_read(body), _tables_read(keep_role(body, "compute"))
    first, last, cbs = [], [], {}
    for table in get_attr(func, "tt.index_tables", []):
        if table.name not in used:
            continue
        cb = lowering.p.new_table_cb(table)["cb"]
        cbs[table.name] = cb
        tensor, shared = lowering.p.params[table.name], table.name in computed
        first += lowering._tile_op(
            "tt.read_table", table.loc, cb=cb, tensor=tensor, words=table.words, shared=shared
        )
        if shared:
            first += lowering._tile_op("tt.tile.wait_table", table.loc, cb=cb)
            last += lowering._tile_op("tt.tile.release_table", table.loc, cb=cb)
    if not cbs:
        return body

    def value(c):
        if not ops.is_op(c, "tt.table_value"):
            return c
        return ops.call(
            "tt.table_value", table=cbs[ops.fields(c).table], index=ops.fields(c).index, dtype="int32"
        )

    return seq(first + [tvm_ffi.structural_map(body, (tvm.ir.Call, value), order="post")] + last)


def LowerTileProgramTT() -> tvm.transform.Pass:  # noqa: N802
    def transform(func: tirx.PrimFunc, mod, ctx) -> tirx.PrimFunc:
        if not is_tile_program(func):
            return func
        double = require_attr(func, "tt.options", "LowerTileProgramTT").enable_double_buffer
        # Each saving of L1 traffic costs L1 space, so the lowering is tried from the most to the least of
        # it until its circular buffers fit: K steps of the GEMM loop in groups of 8, 4, 2 (k_groups.py),
        # then blocks kept from one loop for a later one, two rows of them, one, or none.
        grouped = [(group_k_steps(func, g), g) for g in K_GROUPS]
        variants = [f for f, g in grouped if not f.same_as(func)] + [func]
        keeps = (2, 1, 0) if double else (1, 0)
        attempts = [(variant, copies) for variant in variants for copies in keeps]
        for n, (variant, copies) in enumerate(attempts, 1):
            planner = _Planner(variant, keep_copies=copies)
            planner.plan_buffers(variant)
            lowering = _Lowering(planner)
            body = lowering.rewrite(variant.body)
            _read_first_rows_only(planner, body)
            body = _stage_tables(variant, lowering, seq(lowering.before_work + [body]))
            try:
                planner.check_l1()
                break
            except TTResourceError:
                if n == len(attempts) or (variant.same_as(func) and not planner.kept):
                    raise
        func = variant
        _check_dataflow(planner)
        return func.with_body(body).with_attrs(
            {
                "tt.compute_schedule": "tile_program",
                "tt.cb_table": [CircularBuffer(**e) for e in planner.entries],
                "tt.accumulators": [],
                "tt.tile_dfg": tile_dfg([DFGNode(**n) for n in planner.nodes]),
            }
        )

    return tirx.transform.prim_func_pass(transform, opt_level=0, name="LowerTileProgramTT")
