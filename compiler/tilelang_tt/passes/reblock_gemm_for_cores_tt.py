"""A' · ReblockGemmForCoresTT — a plain GEMM's blocks resized so that its block grid is the core grid.

A GEMM's block sizes are the user's (TileLang tunes them for a GPU's SMs). On Tenstorrent the fast GEMM steps
every core in lockstep, the A block of a core row and the B block of a core column multicast to the row or
column, which needs the block grid to divide the core grid. When it does not (Blackhole's 13x10 cores and
4096^3 in 256x256 blocks, 16x16 of them), LayoutAwareWorkPartitionTT keeps the largest rectangle of cores
that divides it (8x8: half the chip) or gives up multicast. This pass instead gives each core of the grid
one block of ``ceil(Mt / rows) x ceil(Nt / cols)`` tiles (416x320 there: 10x13 blocks, the last row and
column partly past the edge, which reads zeros and drops its writes as any edge block does).

Every output element is the same sum in the same order (the K loop and its step are untouched; only which
core computes which elements changes), so the results are bit-identical to the user's blocks.

Taken only for the plain GEMM, with the ``auto`` partition and no layout hints: launch axes blockIdx.x and
blockIdx.y and no others; tile buffers only; ``fill(C)``, a K loop of two loads and ``gemm(A_s, B_s, C)``
(either operand transposed), then ``C`` copied out, possibly through a shared buffer. The block indices
appear only as the starts of the global regions' block dimensions: ``by * bM`` (A's rows, or its columns
when transposed, and the output's rows) and ``bx * bN`` (B's and the output's columns).
And only when the user's grid does not divide the core grid, or leaves cores idle and the new blocks take a
quarter off each core's tiles, and the new blocks are at least as big as the partition's multicast
threshold. A new block whose circular buffers do not fit L1 is not known here: the
pipeline runs again without this pass when a re-blocked kernel raises TTResourceError (pipeline.py).

Input expectations
    ``tt.target`` and ``tt.options`` (ApplyTTDefaults).
Output guarantees
    Unchanged, or the GEMM above with launch extents (ceil(Nt / tn), ceil(Mt / tm)) and blocks of
    (32 tm, 32 tn), and ``tt.reblocked`` = [bM, bN, bM', bN'].
Example
    before: T.Kernel(16, 16) as (bx, by); A_s (256, 32); B_s (32, 256); C_f (256, 256)   (Blackhole, 4096^3)
    after:  T.Kernel(13, 10) as (bx, by); A_s (416, 32); B_s (32, 320); C_f (416, 320)
Test
    ./bazelw test //compiler/tests/passes:passes_test --test_arg=-k --test_arg=reblock
"""

from __future__ import annotations

import dataclasses

import tvm
from tvm import tirx

from .. import ops
from ..ir_utils import buffer_scope, collect_vars, is_global, provably_equal, require_attr, seq
from ..target import TILE
from .layout_aware_work_partition_tt import MIN_MULTICAST_BLOCK_TILES


@dataclasses.dataclass
class _Gemm:
    """A matched plain GEMM: its launches and statements, and its blocks."""

    launches: list  # the launch AttrStmts, outermost first
    bx: tirx.Var
    by: tirx.Var
    stmts: list  # the body's statements: allocations, fill, K loop, the copies out
    loop: tirx.For
    output: tirx.Buffer
    block_m: int
    block_n: int


def _int(expr) -> int | None:
    return int(expr) if isinstance(expr, tirx.IntImm) else None


def _call(stmt) -> tvm.ir.Call | None:
    """The tile-op call ``stmt`` evaluates, if it is one."""
    is_call = isinstance(stmt, tirx.Evaluate) and isinstance(stmt.value, tvm.ir.Call)
    return stmt.value if is_call and isinstance(stmt.value.op, tvm.ir.Op) else None


def _names(calls) -> list[str]:
    return [str(c.op.name) for c in calls]


def _whole(region) -> bool:
    """Whether ``region`` covers its buffer."""
    return all(
        provably_equal(r.min, 0) and provably_equal(r.extent, n)
        for r, n in zip(region.region, region.source.ty.shape, strict=True)
    )


def _block_dims(region, bx, by) -> list[str] | None:
    """Per dimension of a 2-D global region: "m" for ``by * e`` (extent e), "n" for ``bx * e``, "" for a
    range using neither (K); None for any other use of the block indices. The extents are checked later."""
    if len(region.region) != 2:
        return None
    dims = []
    for r in region.region:
        used = collect_vars(r.min) + collect_vars(r.extent)
        uses_x, uses_y = (any(v.same_as(axis) for v in used) for axis in (bx, by))
        if not (uses_x or uses_y):
            dims.append("")
            continue
        var, name = (by, "m") if uses_y else (bx, "n")
        extent = _int(r.extent)
        if (uses_x and uses_y) or extent is None or not provably_equal(r.min, var * extent):
            return None
        dims.append(name)
    return dims


def _match(func: tirx.PrimFunc) -> _Gemm | None:
    """The plain GEMM of the module docstring, or None."""
    launches, node = [], func.body
    while isinstance(node, tirx.AttrStmt) and node.attr_key == "thread_extent":
        launches.append(node)
        node = node.body
    axes = {str(a.node.thread_tag): a.node.var for a in launches}
    if set(axes) != {"blockIdx.x", "blockIdx.y"}:
        return None
    bx, by = axes["blockIdx.x"], axes["blockIdx.y"]
    stmts = list(node.seq) if isinstance(node, tirx.SeqStmt) else [node]
    allocs = [s.buffer for s in stmts if isinstance(s, tirx.AllocBuffer)]
    rest = [s for s in stmts if not isinstance(s, tirx.AllocBuffer)]
    loops = [s for s in rest if isinstance(s, tirx.For)]
    if len(loops) != 1 or len(rest) < 2 or rest[1] is not loops[0] or any(is_global(b) for b in allocs):
        return None
    loop = loops[0]
    inner = [_call(s) for s in (loop.body.seq if isinstance(loop.body, tirx.SeqStmt) else [loop.body])]
    outer = [_call(s) for s in rest if s is not loop]
    if None in inner or None in outer:
        return None
    if _names(inner) != ["tl.copy", "tl.copy", "tl.gemm"] or _names(outer) not in (
        ["tl.fill", "tl.copy"],
        ["tl.fill", "tl.copy", "tl.copy"],
    ):
        return None
    g = ops.fields(inner[2])
    loads = [ops.fields(c) for c in inner[:2]]
    copies_out = [ops.fields(c) for c in outer[1:]]
    a_s, b_s, c = (r.source for r in (g.a, g.b, g.c))
    load = {str(x.dst.source.name): x.src for x in loads}
    staged = [x.dst.source for x in copies_out[:-1]]  # C_s, when the sums are staged in shared memory
    output = copies_out[-1].dst
    tile_chain = [c, *staged]
    if not (
        set(load) == {str(a_s.name), str(b_s.name)}
        and ops.fields(outer[0]).dst.source.same_as(c)
        and all(x.src.source.same_as(t) for x, t in zip(copies_out, tile_chain, strict=True))
        and len(allocs) == 3 + len(staged)
        and all(_whole(r) for r in (g.a, g.b, g.c, ops.fields(outer[0]).dst))
        and all(_whole(x.dst) for x in loads)
        and all(_whole(x.src) for x in copies_out)
        and all(is_global(r.source) for r in (*load.values(), output))
    ):
        return None
    dims = {name: _block_dims(region, bx, by) for name, region in [*load.items(), ("", output)]}
    if None in dims.values() or sorted(dims[""]) != ["m", "n"]:
        return None
    if sorted(dims[str(a_s.name)]) != ["", "m"] or sorted(dims[str(b_s.name)]) != ["", "n"]:
        return None
    block = {}
    for name, region in [*load.items(), ("", output)]:
        for kind, r in zip(dims[name], region.region, strict=True):
            if kind:
                block.setdefault(kind, set()).add(int(r.extent))
    if any(len(sizes) != 1 for sizes in block.values()):
        return None
    (bm,), (bn,) = block["m"], block["n"]
    if (
        bm % TILE
        or bn % TILE
        or any(v.same_as(bx) or v.same_as(by) for v in collect_vars(loop.min) + collect_vars(loop.extent))
    ):
        return None
    return _Gemm(launches, bx, by, stmts, loop, output.source, bm, bn)


# A grid that already steps in lockstep on fewer cores than the chip has is re-blocked only if that takes at
# least a quarter off the tiles each core computes: the bigger blocks cost L1 that double buffering may need.
REBLOCK_GAIN = 0.75


def reblocked_sizes(m: int, n: int, block_m: int, block_n: int, grid) -> tuple[int, int] | None:
    """(bM', bN') for an M x N output in blocks of block_m x block_n on a core grid (x, y), or None when the
    user's blocks serve as well: their grid divides the cores it uses and the new blocks would not take
    REBLOCK_GAIN off each core's tiles, or the new blocks are too small to multicast."""
    cores_x, cores_y = grid
    gx, gy = -(-n // block_n), -(-m // block_m)
    mt, nt = -(-m // TILE), -(-n // TILE)
    tm, tn = -(-mt // cores_y), -(-nt // cores_x)
    if tm * tn < MIN_MULTICAST_BLOCK_TILES:
        return None
    used_x, used_y = min(gx, cores_x), min(gy, cores_y)
    if gx % used_x == 0 and gy % used_y == 0:
        per_core = (gx // used_x) * (gy // used_y) * (block_m // TILE) * (block_n // TILE)
        if tm * tn > REBLOCK_GAIN * per_core:
            return None
    return tm * TILE, tn * TILE


def _rebuild(gemm: _Gemm, bm: int, bn: int, m: int, n: int) -> tirx.Stmt:
    """The matched GEMM's body with blocks of bm x bn: each range ``by * bM`` of a global region becomes
    ``by * bm`` (``bx * bN``: ``bx * bn``) and each tile buffer takes the shape of what it holds."""
    starts = {"m": (gemm.by, bm), "n": (gemm.bx, bn)}
    shapes = {}

    def global_region(region):
        dims = _block_dims(region, gemm.bx, gemm.by)
        ranges = []
        for kind, r in zip(dims, region.region, strict=True):
            if kind:
                var, size = starts[kind]
                r = tvm.ir.Range.from_min_extent(var * size, tirx.const(size, "int32"))
            ranges.append(r)
        return tirx.BufferRegion(region.source, ranges)

    # The tile buffers' new shapes: a loaded one's is its global region's, the sums' are (bm, bn).
    for stmt in gemm.loop.body.seq:
        call = _call(stmt)
        if str(call.op.name) == "tl.copy":
            f = ops.fields(call)
            shapes[str(f.dst.source.name)] = [r.extent for r in global_region(f.src).region]
    for stmt in gemm.stmts:
        if isinstance(stmt, tirx.AllocBuffer) and str(stmt.buffer.name) not in shapes:
            shapes[str(stmt.buffer.name)] = [tirx.const(bm, "int32"), tirx.const(bn, "int32")]
    new = {}
    for stmt in gemm.stmts:
        if isinstance(stmt, tirx.AllocBuffer):
            buf = stmt.buffer
            new[str(buf.name)] = tirx.decl_buffer(
                shapes[str(buf.name)], buf.ty.dtype, str(buf.name), scope=buffer_scope(buf)
            )

    def region(r):
        name = str(r.source.name)
        if name not in new:
            return global_region(r)
        zero = tirx.const(0, "int32")
        return tirx.BufferRegion(new[name], [tvm.ir.Range.from_min_extent(zero, e) for e in shapes[name]])

    def statement(stmt):
        if isinstance(stmt, tirx.AllocBuffer):
            return tirx.AllocBuffer(new[str(stmt.buffer.name)])
        if isinstance(stmt, tirx.For):
            body = seq([statement(s) for s in stmt.body.seq])
            return tirx.For(
                stmt.loop_var, stmt.min, stmt.extent, stmt.kind, body, stmt.thread_binding, stmt.annotations
            )
        call = _call(stmt)
        args = [region(a) if isinstance(a, tvm.ir.TensorRegion) else a for a in call.args]
        return tirx.Evaluate(ops.call(str(call.op.name), *args))

    out = seq([statement(s) for s in gemm.stmts])
    extents = {"blockIdx.x": -(-n // bn), "blockIdx.y": -(-m // bm)}
    for launch in reversed(gemm.launches):
        node = launch.node
        extent = tirx.const(extents[str(node.thread_tag)], "int32")
        axis = tirx.IterVar(tvm.ir.Range(0, extent), node.var, node.iter_type, node.thread_tag)
        out = tirx.AttrStmt(axis, launch.attr_key, extent, out)
    return out


def ReblockGemmForCoresTT(enabled: bool = True, reblocked: list | None = None) -> tvm.transform.Pass:  # noqa: N802
    """The pass (a no-op unless ``enabled``); the name of each function it re-blocks is appended to
    ``reblocked``, the pipeline's cue to run again without it when the new blocks do not fit L1."""

    def transform(func: tirx.PrimFunc, mod, ctx) -> tirx.PrimFunc:
        if not enabled:
            return func
        options = require_attr(func, "tt.options", "ReblockGemmForCoresTT")
        target = require_attr(func, "tt.target", "ReblockGemmForCoresTT")
        if options.partition_strategy != "auto" or "tt.layout_hints" in (func.attrs or {}):
            return func
        gemm = _match(func)
        if gemm is None:
            return func
        m, n = (_int(x) for x in gemm.output.ty.shape)
        if m is None or n is None:
            return func
        sizes = reblocked_sizes(m, n, gemm.block_m, gemm.block_n, target.grid)
        if sizes is None:
            return func
        if reblocked is not None:
            reblocked.append(str(func.attrs.get("global_symbol", "")))
        bm, bn = sizes
        return func.with_body(_rebuild(gemm, bm, bn, m, n)).with_attr(
            "tt.reblocked", [gemm.block_m, gemm.block_n, bm, bn]
        )

    return tirx.transform.prim_func_pass(transform, opt_level=0, name="ReblockGemmForCoresTT")
