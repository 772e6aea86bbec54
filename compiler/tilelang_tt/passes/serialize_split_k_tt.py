"""A02 · SerializeSplitKTT — grid points that ``T.atomic_add`` into the same output take turns on one core.

Split-K GEMM launches a third grid axis over slices of K, and every slice adds its partial block into the
output with ``T.atomic_add``. Tenstorrent has no atomic add into DRAM, and racing read-modify-writes from
several cores would lose sums. Each split axis (a launch axis no output index uses; a GEMV split over
K and over a batch has two) becomes a sequential loop inside the kernel instead: the core that owns an
output block computes each slice's partial block in turn and adds it to a float32 accumulator in L1;
after the last slice the block is added to the output once (``C += sum of partials``, TileLang's
atomic semantics). The result is exact and race-free; the slices of one block no longer run on
different cores (the reduction across cores with semaphores that would keep that parallelism is not
implemented), so a split-K program runs like the plain GEMM over K.

An atomic add into a buffer of the kernel's own (shared or local: the per-thread partial sums of SIMT
split-K GEMV, ``T.atomic_add(C_shared[tn], C_accum[0])``) is a plain ``dst = dst + value``: a core's
statements run one after another, so nothing races (VectorizeThreadsTT then makes the add over the
threads a row sum).

Input expectations
    A PrimFunc from the DSL: ``T.Kernel`` launch threads at the top; ``tl.atomic_add(C[idx], value)``
    statements into global tensors inside ``T.Parallel`` nests, into other buffers anywhere.
Output guarantees
    No ``tl.atomic_add`` remains; those into non-global buffers are read-modify-write stores. The launch
    axes that appear in no atomic-add index, if any, are ``T.serial`` loops around the body (in launch
    order, outermost first) — also where another output's index uses them: that output is then written
    from the loop; an axis the indices use only as ``axis // g`` (GQA's heads in groups of g sharing a
    key/value head) keeps extent / g grid points, one per group, and a ``<axis>_member`` loop of g inside
    them (``axis // g`` becomes ``axis``, any other use ``axis * g + <axis>_member``);
    each atomic add accumulates into ``<C>_partials`` (a float32 fragment of the ``T.Parallel`` nest's
    shape, cleared before the loops);
    after the loop the output block is copied into ``<C>_block``, the partials are added in a
    ``T.Parallel`` nest, and the block is copied back (an element statement may not read and write one
    global tensor). Atomic adds outside ``T.Parallel``, and those whose position moves with a loop around
    them, are TTCompileErrors at the atomic add.
Example
    before: with T.Kernel(gx, gy, S) as (bx, by, bz): ...; for i, j in T.Parallel(bM, bN):
                T.atomic_add(C[by * bM + i, bx * bN + j], C_local[i, j])
    after:  C_partials = T.alloc_fragment((bM, bN), "float32"); T.clear(C_partials)
            for bz in T.serial(S): ...; for i, j in T.Parallel(bM, bN):
                C_partials[i, j] = C_partials[i, j] + C_local[i, j]
            T.copy(C[by * bM, bx * bN], C_block)
            for i, j in T.Parallel(bM, bN): C_block[i, j] += C_partials[i, j]
            T.copy(C_block, C[by * bM, bx * bN])
Test
    ./bazelw test //compiler/tests/passes:passes_test --test_arg=-k --test_arg=test_serialize_split_k_tt
"""

from __future__ import annotations

import tvm
import tvm_ffi
from tvm import tirx

from .. import ops
from ..errors import TTCompileError
from ..ir_utils import cast_to, collect_vars, find_ops, is_global, parallel_loc, seq, simplify


def _atomic_sites(stmt) -> list[tuple]:
    """(atomic call, enclosing T.Parallel loops outermost first) for each atomic add / max / min under
    ``stmt``."""
    return [
        (site.call, [lp for lp in site.loops if parallel_loc(lp) is not None])
        for site in find_ops(stmt, tuple(ops.ATOMICS))
    ]


def _kind(call) -> str:
    """The kind of an atomic call: "add", "max" or "min"."""
    return ops.ATOMICS[str(call.op.name)]


def _combine(kind: str, own, value):
    """The element an atomic of ``kind`` leaves: ``own`` combined with the ``value`` it brings."""
    value = cast_to(value, str(own.ty))
    if kind == "max":
        return tirx.Max(own, value)
    if kind == "min":
        return tirx.Min(own, value)
    return own + value


# The partials' starting value: what combines with a value into that value.
_IDENTITY = {"add": 0.0, "max": float("-inf"), "min": float("inf")}


def _check_fixed_targets(stmt) -> None:
    """TTCompileError at an atomic add into a global tensor whose position moves with a loop around it: its
    adds would go to one block per iteration, which the one accumulator per output this pass keeps cannot
    hold. (``tilelang_tt.compile`` has already made the common form of these, attention backward's
    ``dQ[k * block_N + i, j]`` in the key loop, stores into a workspace: atomic_shares.py.)"""
    for site in find_ops(stmt, tuple(ops.ATOMICS)):
        dst = ops.fields(site.call).dst
        if not is_global(dst.source):
            continue
        used = set()
        for index in dst.indices:
            used.update(collect_vars(index))
        moving = [
            lp.loop_var.name
            for lp in site.loops
            if parallel_loc(lp) is None and any(lp.loop_var.same_as(v) for v in used)
        ]
        if moving and _kind(site.call) == "add":
            raise TTCompileError.at(
                ops.loc_of(site.call),
                f"T.atomic_add into {dst.source.name} at a position that moves with the loop over "
                f"{', '.join(moving)} is not supported on Tenstorrent yet in this form: the adds of each "
                f"grid point must go to one block, or, compiled with tilelang_tt.compile, be the only atomic "
                f"add into {dst.source.name}, move by a block per step of one loop and index it by launch, "
                f"loop and T.Parallel variables alone, its rows and last dimension multiples of 32 (the grid "
                f"points then write shares that a second program adds up)",
            )
        if moving:
            raise TTCompileError.at(
                ops.loc_of(site.call),
                f"T.atomic_{_kind(site.call)} into {dst.source.name} at a position that moves with the "
                f"loop over {', '.join(moving)} is not supported on Tenstorrent yet: the writes of each grid "
                f"point must go to one block",
            )


def _combine_into_output(kind: str, dst, loops, acc, loc: str) -> list:
    """The output block ``dst`` (a ``T.Parallel`` element index over ``loops``) combined with ``acc`` by the
    atomic ``kind`` (+=, max, min): read into a fragment, combined, written back (element statements may
    not read and write one global tensor)."""
    mins, extents = [], []
    for index in dst.indices:
        start = simplify(
            tvm_ffi.structural_map(
                index,
                (
                    tvm.ir.Var,
                    lambda v: next((tirx.const(0, "int32") for lp in loops if lp.loop_var.same_as(v)), v),
                ),
            )
        )
        offset = simplify(index - start)
        moving = [lp for lp in loops if offset.same_as(lp.loop_var)]
        if not moving and not (isinstance(offset, tirx.IntImm) and int(offset) == 0):
            raise TTCompileError.at(
                loc,
                f"T.atomic_{kind} into {dst.source.name}[{', '.join(map(str, dst.indices))}]: each index "
                "must be a block start plus one T.Parallel variable",
            )
        mins.append(start)
        extents.append(int(moving[0].extent) if moving else 1)
    out = tirx.decl_buffer(
        [int(lp.extent) for lp in loops],
        dst.source.ty.dtype,
        f"{dst.source.name}_block",
        scope="local.fragment",
    )
    whole = [tvm.ir.Range.from_min_extent(tirx.const(0, "int32"), int(lp.extent)) for lp in loops]
    block = tirx.BufferRegion(
        dst.source, [tvm.ir.Range.from_min_extent(m, e) for m, e in zip(mins, extents, strict=True)]
    )
    fresh = [tirx.Var(lp.loop_var.name, lp.loop_var.ty.dtype) for lp in loops]
    add = tirx.BufferStore(
        out, _combine(kind, tirx.BufferLoad(out, fresh), tirx.BufferLoad(acc, fresh)), fresh
    )
    for lp, v in reversed(list(zip(loops, fresh, strict=True))):
        add = tirx.For(v, lp.min, lp.extent, lp.kind, add, lp.thread_binding, lp.annotations)
    return [
        tirx.AllocBuffer(out),
        tirx.Evaluate(ops.call("tl.copy", block, tirx.BufferRegion(out, whole), loc)),
        add,
        tirx.Evaluate(ops.call("tl.copy", tirx.BufferRegion(out, whole), block, loc)),
    ]


def _group_size(launch, sites) -> int | None:
    """g when the atomic adds' indices use launch axis ``launch`` (of more than g points, a multiple of g)
    only as ``axis // g`` with one constant g > 1, else None."""
    var, sizes = launch.node.var, set()

    def grouped(e):
        if isinstance(e, tirx.FloorDiv) and e.a.same_as(var) and isinstance(e.b, tirx.IntImm):
            sizes.add(int(e.b.value))
            return tirx.const(0, "int32")
        return e

    for call, _ in sites:
        for index in ops.fields(call).dst.indices:
            rest = tvm_ffi.structural_map(index, (tirx.FloorDiv, grouped), order="pre")
            if any(v.same_as(var) for v in collect_vars(rest)):
                return None
    if len(sizes) != 1:
        return None
    (g,) = sizes
    return g if g > 1 and int(launch.value) > g and int(launch.value) % g == 0 else None


def _walk_groups(stmt, var, g: int, member) -> tirx.Stmt:
    """``stmt`` with launch variable ``var`` counting groups of g: ``var // g`` becomes ``var`` and any
    other use ``var * g + member``."""
    group = tirx.Var(f"{var.name}_group", "int32")

    def to_group(e):
        return group if isinstance(e, tirx.FloorDiv) and e.a.same_as(var) and _is_int(e.b, g) else e

    stmt = tvm_ffi.structural_map(stmt, (tirx.FloorDiv, to_group), order="pre")
    stmt = tvm_ffi.structural_map(stmt, (tvm.ir.Var, lambda v: var * g + member if v.same_as(var) else v))
    return tvm_ffi.structural_map(stmt, (tvm.ir.Var, lambda v: var if v.same_as(group) else v))


def _is_int(e, value: int) -> bool:
    return isinstance(e, tirx.IntImm) and int(e.value) == value


def _is_atomic(stmt) -> bool:
    return any(ops.is_op(stmt, name) for name in ops.ATOMICS)


def _local_adds(body) -> tirx.Stmt:
    """``body`` with each atomic into a non-global buffer made a read-modify-write store."""

    def rewrite(stmt):
        if not _is_atomic(stmt):
            return stmt
        f = ops.fields(stmt.value)
        dst = f.dst
        if is_global(dst.source):
            return stmt
        own = tirx.BufferLoad(dst.source, dst.indices)
        return tirx.BufferStore(dst.source, _combine(_kind(stmt.value), own, f.value), dst.indices)

    return tvm_ffi.structural_map(body, (tirx.Evaluate, rewrite), order="post")


def SerializeSplitKTT() -> tvm.transform.Pass:  # noqa: N802
    def transform(func: tirx.PrimFunc, mod, ctx) -> tirx.PrimFunc:
        if _atomic_sites(func.body):
            func = func.with_body(_local_adds(func.body))
        sites = _atomic_sites(func.body)
        if not sites:
            return func
        _check_fixed_targets(func.body)
        launches, node = [], func.body
        while isinstance(node, tirx.AttrStmt) and node.attr_key == "thread_extent":
            launches.append(node)
            node = node.body
        body = node
        for call, loops in sites:
            if not loops:
                raise TTCompileError.at(
                    ops.loc_of(call),
                    f"T.atomic_{_kind(call)} outside T.Parallel is not supported on Tenstorrent yet; write a "
                    "tile's elements in a T.Parallel nest",
                )
        # An axis the atomic adds' indices do not use adds into the same elements from each of its grid
        # points: it is serialised, even where another output uses it (LayerNorm's backward writes dX
        # per row block and adds every block's share into dGamma): that output is then written from the
        # loop, on the one core.
        used = set()
        for call, _ in sites:
            for index in ops.fields(call).dst.indices:
                used.update(collect_vars(index))
        split = [a for a in launches if not any(a.node.var.same_as(v) for v in used) and int(a.value) > 1]
        # An axis the indices use only as ``axis // g`` (GQA's heads sharing a key/value head:
        # ``dV[..., bx // groups, :]``) adds each group's g points into the same elements: the axis keeps
        # one grid point per group, whose members take turns (``bx = group * g + member``).
        grouped = [(a, g) for a in launches if (g := _group_size(a, sites)) is not None]
        loc = ops.loc_of(sites[0][0])

        partials: dict[str, tirx.Buffer] = {}
        kinds: dict[str, str] = {}
        finals = []

        def accumulate(stmt):
            if not _is_atomic(stmt):
                return stmt
            call = stmt.value
            f = ops.fields(call)
            kind = _kind(call)
            loops = next(lps for c, lps in sites if c.same_as(call))
            name = str(f.dst.source.name)
            if kinds.setdefault(name, kind) != kind:
                raise TTCompileError.at(
                    ops.loc_of(call),
                    f"T.atomic_{kind} into {name}, which this kernel also writes with "
                    f"T.atomic_{kinds[name]}: one kind of atomic per tensor is supported on Tenstorrent",
                )
            if name not in partials:
                extents = [int(lp.extent) for lp in loops]
                partials[name] = tirx.decl_buffer(
                    extents, "float32", f"{name}_partials", scope="local.fragment"
                )
                finals.append((kind, f.dst, loops, partials[name]))
            acc = partials[name]
            index = [lp.loop_var for lp in loops]
            return tirx.BufferStore(acc, _combine(kind, tirx.BufferLoad(acc, index), f.value), index)

        looped = tvm_ffi.structural_map(body, (tirx.Evaluate, accumulate), order="post")
        serial = looped
        members = [(a, g, tirx.Var(f"{a.node.var.name}_member", "int32")) for a, g in grouped]
        for _, g, member in reversed(members):
            serial = tirx.For(member, 0, g, tirx.ForKind.SERIAL, serial)
        for axis in reversed(split):  # each grid axis no output index uses, outermost first
            serial = tirx.For(axis.node.var, 0, axis.value, tirx.ForKind.SERIAL, serial)
        zero = tirx.const(0, "int32")
        before, after = [], []
        for kind, dst, loops, acc in finals:
            region = tirx.BufferRegion(
                acc, [tvm.ir.Range.from_min_extent(zero, int(lp.extent)) for lp in loops]
            )
            before += [
                tirx.AllocBuffer(acc),
                tirx.Evaluate(ops.call("tl.fill", region, tirx.const(_IDENTITY[kind], "float32"), loc)),
            ]
            after += _combine_into_output(kind, dst, loops, acc, loc)
        out = seq(before + [serial] + after)
        for axis, g, member in members:
            out = _walk_groups(out, axis.node.var, g, member)
        for launch in reversed(launches):
            if any(launch.same_as(axis) for axis in split):
                continue
            extent = next((int(launch.value) // g for a, g in grouped if a.same_as(launch)), launch.value)
            out = tirx.AttrStmt(launch.node, launch.attr_key, extent, out)
        return func.with_body(out)

    return tirx.transform.prim_func_pass(transform, opt_level=0, name="SerializeSplitKTT")
