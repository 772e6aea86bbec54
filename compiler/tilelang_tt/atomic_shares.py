"""Atomic adds whose position moves with a loop, as shares in a workspace that a second program sums.

Flash-attention backward (TileLang's ``example_mha_bwd_bhsd.py``) launches one grid point per key block;
each walks the query blocks and adds its part of their gradient into ``dQ``::

    with T.Kernel(heads, T.ceildiv(seq_len, block_M), batch) as (bx, by, bz):   # by: the key block
        for k in T.Pipelined(loop_st, loop_ed):                                   # k: the query block
            ...
            for i, j in T.Parallel(block_N, dim):
                T.atomic_add(dQ[bz, bx, k * block_N + i, j], dq[i, j])

Tenstorrent has no atomic add into DRAM, and the turn-taking SerializeSplitKTT arranges for adds into a
fixed block (each grid point's partial sums held in L1 until its loop ends) cannot hold a block per loop
step. So the grid points that add into the same elements — those of the launch axes the position does
not use, here the key block — write their shares instead, each into its own copy of the tensor in a
``T.alloc_global`` workspace (``dQ_shares``, one copy per key block, zeroed by the host, so elements a
point never reaches add nothing), and a second ``T.Kernel`` block adds the copies into the tensor:
``dQ += sum over p of dQ_shares[p]``, TileLang's atomic semantics. The function then compiles as two
programs (stages.py); the sum's order differs from the GPU's atomics only in float32 rounding.

Taken when: one such atomic add into the tensor in the kernel, inside ``T.Parallel`` and one serial loop
whose variable moves it by at least a block per step (so no two steps write one element), its indices
built from launch, loop and ``T.Parallel`` variables alone (directly or through values the kernel names:
``i_b = i_bh // H``, TileLang's linear attention), and the tensor's last dimension and its other
dimensions' product multiples of 32 (the sum reads the copies as 2-D tiles). The launch axes the indices
do not use share the elements: one copy per combination of their points (one copy when there is none:
each point's adds then go to elements of its own, still read-modify-writes of the tensor). Anything else
stays as it is and SerializeSplitKTT reports it.
"""

from __future__ import annotations

import math

import tvm
import tvm_ffi
from tvm import tirx

from . import ops
from .ir_utils import cast_to, collect_vars, find_ops, is_global, parallel_loc, seq, simplify
from .target import TILE

__all__ = ["share_moving_atomic_adds"]


def _launches(stmt) -> list:
    """The ``thread_extent`` AttrStmts at the top of a ``T.Kernel`` block (none for another statement)."""
    launches = []
    while isinstance(stmt, tirx.AttrStmt) and stmt.attr_key == "thread_extent":
        launches.append(stmt)
        stmt = stmt.body
    return launches


def _moves_a_block_per_step(indices, loop: tirx.For, parallel: list) -> bool:
    """Whether consecutive steps of ``loop`` add into disjoint elements: some index moves by at least the
    extent of the ``T.Parallel`` variable in it (1 without one) per step."""
    for index in indices:
        (step, _) = tvm.sym.detect_linear_equation(index, [loop.loop_var]) or (None, None)
        if not isinstance(step, tirx.IntImm) or step.value == 0:
            continue
        within = [lp for lp in parallel if any(lp.loop_var.same_as(v) for v in collect_vars(index))]
        if abs(step.value) >= (int(within[0].extent) if within else 1):
            return True
    return False


def _named_values(stmt) -> dict:
    """Each value the kernel names (``i_b = i_bh // H``), in terms of what the names before it stand for."""
    named = {}

    def bind(b: tirx.Bind):
        named[b.var] = tvm_ffi.structural_map(b.value, (tvm.ir.Var, lambda v: named.get(v, v)))

    tvm_ffi.structural_walk(stmt, (tirx.Bind, bind))  # in program order: a name may use an earlier one
    return named


def _sharing_axes(site, launches, named: dict):
    """The launch axes whose grid points add into the same elements (none: each point's adds are its own),
    when the atomic add ``site`` is one this module rewrites (module docstring), else None. ``named``: the
    kernel's named values, which its indices may use (``O[i_b, ...]`` with ``i_b = i_bh // H``)."""
    dst = ops.fields(site.call).dst
    parallel = [lp for lp in site.loops if parallel_loc(lp) is not None]
    serial = [lp for lp in site.loops if parallel_loc(lp) is None]
    indices = [tvm_ffi.structural_map(i, (tvm.ir.Var, lambda v: named.get(v, v))) for i in dst.indices]
    used = [v for index in indices for v in collect_vars(index)]
    moving = [lp for lp in serial if any(lp.loop_var.same_as(v) for v in used)]
    grid = [a for a in launches if str(a.node.thread_tag).startswith("blockIdx.")]
    known = [lp.loop_var for lp in site.loops] + [a.node.var for a in grid]
    if not parallel or len(moving) != 1 or not all(any(v.same_as(k) for k in known) for v in used):
        return None
    if not _moves_a_block_per_step(indices, moving[0], parallel):
        return None
    shape = [int(x) for x in dst.source.ty.shape]
    if shape[-1] % TILE or math.prod(shape[:-1]) % TILE:
        return None
    return [a for a in grid if int(a.value) > 1 and not any(a.node.var.same_as(v) for v in used)]


def _sum_of_shares(target, shares) -> tirx.Stmt:
    """A ``T.Kernel`` block adding the copies in ``shares`` into ``target``, 32 rows of their 2-D views per
    grid point."""
    from . import language as T  # the DSL, for a program written as users write them

    shape, dtype = [int(x) for x in target.ty.shape], str(target.ty.dtype)
    copies, cols = int(shares.ty.shape[0]), shape[-1]
    rows = math.prod(shape[:-1])

    @T.prim_func
    def add_shares(Target: T.Tensor(shape, dtype), Shares: T.Tensor([copies, *shape], dtype)):
        with T.Kernel(rows // TILE, threads=128) as r:
            target_rows = T.reshape(Target, [rows, cols])
            share_rows = T.reshape(Shares, [copies * rows, cols])
            total = T.alloc_fragment([TILE, cols], dtype)
            share = T.alloc_shared([TILE, cols], dtype)
            T.copy(target_rows[r * TILE, 0], total)
            for p in T.serial(copies):
                T.copy(share_rows[p * rows + r * TILE, 0], share)
                for i, j in T.Parallel(TILE, cols):
                    total[i, j] += share[i, j]
            T.copy(total, target_rows[r * TILE, 0])

    ours = list(zip(add_shares.params, (target, shares), strict=True))

    def rename(v):  # the program's parameters → the function's tensor and workspace
        return next((theirs for param, theirs in ours if v.same_as(param)), v)

    return tvm_ffi.structural_map(add_shares.body, (tvm.ir.Var, rename))


def share_moving_atomic_adds(func: tirx.PrimFunc) -> tirx.PrimFunc:
    """``func`` with each atomic add the module docstring describes made a store into a workspace of
    shares, summed by a ``T.Kernel`` block after the one that adds (``func`` itself when there is none)."""
    stmts = list(func.body.seq) if isinstance(func.body, tirx.SeqStmt) else [func.body]
    out, changed = [], False
    for stmt in stmts:
        launches = _launches(stmt)
        if not launches:
            out.append(stmt)
            continue
        sites = [s for s in find_ops(stmt, ("tl.atomic_add",)) if is_global(ops.fields(s.call).dst.source)]
        per_tensor: dict[str, list] = {}
        for site in sites:
            per_tensor.setdefault(str(ops.fields(site.call).dst.source.name), []).append(site)
        rewrites, after = {}, []
        for name, group in per_tensor.items():
            axes = _sharing_axes(group[0], launches, _named_values(stmt)) if len(group) == 1 else None
            if axes is None:
                continue
            # one copy per combination of the sharing axes' points, numbered like a grid's blocks
            point, copies = tirx.const(0, "int32"), 1
            for axis in axes:
                point, copies = point + axis.node.var * copies, copies * int(axis.value)
            target = ops.fields(group[0].call).dst.source
            shares = tirx.decl_buffer(
                [copies, *[int(x) for x in target.ty.shape]],
                target.ty.dtype,
                f"{name}_shares",
                scope="global",
            )
            rewrites[group[0].call] = (shares, simplify(point))
            out.append(tirx.AllocBuffer(shares))
            after.append(_sum_of_shares(target, shares))

        def store(e, rewrites=rewrites):
            if not ops.is_op(e, "tl.atomic_add"):
                return e
            hit = next(((w, v) for c, (w, v) in rewrites.items() if c.same_as(e.value)), None)
            if hit is None:
                return e
            shares, point = hit
            f = ops.fields(e.value)
            return tirx.BufferStore(shares, cast_to(f.value, str(shares.ty.dtype)), [point, *f.dst.indices])

        out.append(tvm_ffi.structural_map(stmt, (tirx.Evaluate, store), order="post") if rewrites else stmt)
        out += after
        changed = changed or bool(rewrites)
    return func.with_body(seq(out)) if changed else func
