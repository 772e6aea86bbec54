"""K steps of a tile program's GEMM loop taken several at a time, so its accumulator is reloaded less often.

A tile program's ``T.gemm`` (LowerTileProgramTT, ScheduleTileComputeTT) adds one K block into an
accumulator that lives in a circular buffer: every K step unpacks each accumulator tile into DST, adds the
step's ``block_K / 32`` products and packs it back. With TileLang's usual ``block_K = 32`` that is one
``copy_tile`` and one ``pack_tile`` per ``matmul_tiles``: the GEMM epilogue example spent 46% of its math
time moving its accumulator. The plain GEMM schedule groups K steps for the same reason (``k_group``).

The loop::

    for k in T.Pipelined(K // bK):
        T.copy(A[by * bM, k * bK], A_s)          # A_s: (bM, bK)
        T.copy(B[k * bK, bx * bN], B_s)          # B_s: (bK, bN)
        T.gemm(A_s, B_s, C_local)

becomes, for a group of g steps (g dividing the trip count)::

    for k in T.Pipelined(K // bK // g):
        T.copy(A[by * bM, k * g * bK], A_s)      # A_s: (bM, g * bK)
        T.copy(B[k * g * bK, bx * bN], B_s)      # B_s: (g * bK, bN)
        T.gemm(A_s, B_s, C_local)

The products are added in the same order (K tile by K tile, in float32 DST, the accumulator packed and
unpacked as float32 between groups as between steps), so results are bit-identical. Taken for a loop whose
body is exactly the two loads and the GEMM, its operand buffers used nowhere else, each load's K position
``k * bK`` plus a constant in one dimension (transposed operands included); a convolution's
``T.im2col(img, A_s, by, k, ...)`` is A's load (its window position is ``c_step * block_K`` plus the
column, so the same call into a wider block covers the group). LowerTileProgramTT tries groups of 8, 4
and 2 and keeps the largest whose circular buffers fit L1.
"""

from __future__ import annotations

import tvm
import tvm_ffi
from tvm import tirx

from . import ops
from .ir_utils import buffer_scope, collect_vars, find_ops, is_global, parallel_loc, simplify

__all__ = ["GROUPS", "group_k_steps"]

GROUPS = (8, 4, 2)  # K steps per group LowerTileProgramTT tries, largest first


def _whole(value) -> bool:
    """Whether a region covers its (tile) buffer from its start."""
    shape = [int(x) for x in value.source.ty.shape]
    return all(
        isinstance(r.min, tirx.IntImm) and int(r.min) == 0 and int(simplify(r.extent)) == n
        for r, n in zip(value.region, shape, strict=True)
    )


def _k_dim(value, loop: tirx.For) -> int | None:
    """The one dimension of a global region whose start moves with ``loop`` by its extent per step."""
    moving = [
        d for d, r in enumerate(value.region) if any(v.same_as(loop.loop_var) for v in collect_vars(r.min))
    ]
    if len(moving) != 1:
        return None
    d = moving[0]
    step, _ = tvm.sym.detect_linear_equation(value.region[d].min, [loop.loop_var]) or (None, None)
    extent = simplify(value.region[d].extent)
    ok = isinstance(step, tirx.IntImm) and isinstance(extent, tirx.IntImm) and int(step) == int(extent)
    return d if ok else None


def _all_of(buffer):
    """The region of all of ``buffer``."""
    zero = tirx.const(0, "int32")
    return tirx.BufferRegion(buffer, [tvm.ir.Range.from_min_extent(zero, int(n)) for n in buffer.ty.shape])


def _widened(value, d: int, loop: tirx.For, g: int):
    """The region ``value`` with dimension ``d`` g times as long and its start at step ``k * g``."""
    ranges = []
    for i, r in enumerate(value.region):
        if i != d:
            ranges.append(r)
            continue
        start = tvm_ffi.structural_map(
            r.min, (tvm.ir.Var, lambda v: loop.loop_var * g if v.same_as(loop.loop_var) else v)
        )
        ranges.append(tvm.ir.Range.from_min_extent(simplify(start), simplify(r.extent * g)))
    return tirx.BufferRegion(value.source, ranges)


def _grouped_im2col(load, loop: tirx.For, g: int, operands: dict, uses: dict):
    """(``T.im2col`` into a g times wider block at the same step, the old block, the new one) when it
    fills the GEMM's untransposed A operand at K step ``k`` (its window position is ``c_step * block_K``
    plus the column, so a wider block at step k covers the g steps of the group), else None."""
    f = ops.fields(load.value)
    col = f.col.source
    a, kdim = operands["a"]
    if not (a.source.same_as(col) and kdim == 1 and _whole(f.col) and f.c_step.same_as(loop.loop_var)):
        return None
    if uses.get(str(col.name), 0) != 2:
        return None
    rows, cols = (int(x) for x in col.ty.shape)
    wide = tirx.decl_buffer([rows, cols * g], col.ty.dtype, str(col.name), scope=buffer_scope(col))
    args = list(load.value.args)
    args[1] = _all_of(wide)
    return tirx.Evaluate(tvm.ir.Call(load.value.op, args, ret_ty=load.value.ty)), col, wide


def _grouped_loop(loop: tirx.For, g: int, uses: dict):
    """(the loop taking g K steps at a time, {old operand buffer: new one}) or None when it is not the
    GEMM loop of the module docstring or its trip count is no multiple of g."""
    body = loop.body.seq if isinstance(loop.body, tirx.SeqStmt) else [loop.body]
    extent = simplify(loop.extent)
    if parallel_loc(loop) is not None or not isinstance(extent, tirx.IntImm) or int(extent) % g:
        return None
    if not (isinstance(loop.min, tirx.IntImm) and int(loop.min) == 0) or len(body) != 3:
        return None
    *loads, gemm = body
    loaded = all(ops.is_op(s, "tl.copy") or ops.is_op(s, "tl.im2col") for s in loads)
    if not (loaded and ops.is_op(gemm, "tl.gemm")):
        return None
    f = ops.fields(gemm.value)
    operands = {"a": (f.a, 1 if not int(f.trans_a) else 0), "b": (f.b, 0 if not int(f.trans_b) else 1)}
    new_loads, new_operands = [], {}
    for load in loads:
        if ops.is_op(load, "tl.im2col"):
            gathered = _grouped_im2col(load, loop, g, operands, uses)
            if gathered is None:
                return None
            new_load, old, wide = gathered
            new_operands["a"] = (old, wide)
            new_loads.append(new_load)
            continue
        src, dst = ops.fields(load.value).src, ops.fields(load.value).dst
        role = next((r for r, (v, _) in operands.items() if v.source.same_as(dst.source)), None)
        if role is None or role in new_operands or not is_global(src.source) or not _whole(dst):
            return None
        if uses.get(str(dst.source.name), 0) != 2:  # loaded here and multiplied here, nothing else
            return None
        d, kdim = _k_dim(src, loop), operands[role][1]
        if d is None or int(simplify(src.region[d].extent)) != int(dst.source.ty.shape[kdim]):
            return None
        shape = [int(x) * (g if i == kdim else 1) for i, x in enumerate(dst.source.ty.shape)]
        wide = tirx.decl_buffer(
            shape, dst.source.ty.dtype, str(dst.source.name), scope=buffer_scope(dst.source)
        )
        new_operands[role] = (dst.source, wide)
        whole = [tvm.ir.Range.from_min_extent(tirx.const(0, "int32"), n) for n in shape]
        copy = load.value
        args = [_widened(src, d, loop, g), tirx.BufferRegion(wide, whole), *list(copy.args)[2:]]
        new_loads.append(tirx.Evaluate(tvm.ir.Call(copy.op, args, ret_ty=copy.ty)))
    if set(new_operands) != {"a", "b"}:
        return None
    a, b = (_all_of(new_operands[r][1]) for r in ("a", "b"))
    product = tirx.Evaluate(
        tvm.ir.Call(gemm.value.op, [a, b, *list(gemm.value.args)[2:]], ret_ty=gemm.value.ty)
    )
    grouped = tirx.For(
        loop.loop_var,
        0,
        int(extent) // g,
        loop.kind,
        tirx.SeqStmt([*new_loads, product]),
        loop.thread_binding,
        loop.annotations,
    )
    return grouped, dict(new_operands.values())


def group_k_steps(func: tirx.PrimFunc, g: int) -> tirx.PrimFunc:
    """``func`` with each GEMM loop of the module docstring taking ``g`` K steps at a time (``func``
    itself when it has none that can)."""
    uses: dict[str, int] = {}  # tile buffer → tile operators naming it (+2 if element statements read it)
    for site in find_ops(func.body, tuple(n for n in ops.SPECS if n.startswith("tl."))):
        for arg in site.call.args:
            if isinstance(arg, tvm.ir.TensorRegion):
                uses[str(arg.source.name)] = uses.get(str(arg.source.name), 0) + 1
    elements = []  # buffers element statements read or write
    tvm_ffi.structural_walk(func.body, (tvm.ir.TensorLoad, lambda e: elements.append(str(e.source.name))))
    tvm_ffi.structural_walk(func.body, (tirx.BufferStore, lambda e: elements.append(str(e.buffer.name))))
    for name in elements:
        uses[name] = uses.get(name, 0) + 2
    replaced: dict = {}

    def rewrite(loop):
        grouped = _grouped_loop(loop, g, uses)
        if grouped is None:
            return loop
        replaced.update(grouped[1])
        return grouped[0]

    body = tvm_ffi.structural_map(func.body, (tirx.For, rewrite), order="post")
    if not replaced:
        return func

    def reallocate(stmt):
        new = next((w for old, w in replaced.items() if stmt.buffer.same_as(old)), None)
        return stmt if new is None else tirx.AllocBuffer(new)

    return func.with_body(tvm_ffi.structural_map(body, (tirx.AllocBuffer, reallocate)))
