"""A01 · VectorizeElementLoopsTT — scalar loop nests of element statements become tile statements.

Tenstorrent has no scalar path worth using for tile data: the compute core works on whole 32×32 tiles,
and the data-movement cores would move one element per NOC transaction. So a nest of sequential loops
(``T.serial``, ``T.grid``, ``range``) whose body only stores elements is executed as what it computes:
  * every store indexed by all the nest's loop variables, reading the stored buffers only at the stored
    element, is element-wise: the nest becomes a ``T.Parallel`` nest (loops annotated ``tl.loc``) — but a
    sequential loop around a ``T.Parallel`` nest stays a loop when it spans only part of the tile buffer
    dimension it indexes (``y[i, k]``, k over 4 of 64 columns: each step sets one column);
  * a single store ``y[i] = y[i] + f(i, j)`` (``y[i] += ...``) in a two-loop nest, whose index omits one
    loop variable, is a sum over that variable, in a ``T.Parallel`` nest too (TileLang's reducers:
    ``o_reducer[i] += a[i, j] * x[j]``): it becomes ``tmp[i, j] = f`` (a float32 fragment),
    ``T.reduce_sum(tmp, part, dim)`` and ``y[i] = y[i] + part[i]``, which later passes lower to tile math
    (SFPU/FPU) and ``reduce_tile``; ``y[i] = T.max(y[i], f)`` (``T.min``) likewise, with
    ``T.reduce_max`` (``T.reduce_min``) and ``T.max(y[i], part[i])``.
  * a store to a one-element tile buffer (a ``T.alloc_local((1,))`` scalar), or of one element of a
    global tensor outside any element loop (``B[0] = total[0]``), is the element statement of a
    one-element ``T.Parallel``, and ``s[0] = s[0] + f(k)`` over one loop a row sum of a (1, L) row.
Anything else (another loop-carried value, a store that does not cover the nest) is left as it is; what
is left outside ``T.Parallel`` is reported by LowerTileProgramTT as scalar code not supported yet. In the
timing model's terms a vectorised nest costs what its tile operations cost: one pass of the unpacker,
math and packer per tile instead of one instruction per element.

Input expectations
    A PrimFunc from the DSL; sequential loops carry their DSL line (``tl.serial_loc``) when written with
    ``T.serial`` / ``T.grid``.
Output guarantees
    Element-wise nests are ``T.Parallel`` nests (``tl.loc`` = their ``tl.serial_loc``, or the ``def``
    line for ``range`` loops); each sum-reduction store is the three statements above, with the two new
    fragments allocated before them (``<y>_terms``, ``<y>_sum``).
Example
    before: for i, j in T.grid(32, 32): y[i] = y[i] + A[i, j] * x[j]
    after:  y_terms = T.alloc_fragment((32, 32), "float32"); y_sum = T.alloc_fragment((32,), "float32")
            for i, j in T.Parallel(32, 32): y_terms[i, j] = A[i, j] * x[j]
            T.reduce_sum(y_terms, y_sum, dim=1)
            for i in T.Parallel(32): y[i] = y[i] + y_sum[i]
Test
    ./bazelw test //compiler/tests/passes:passes_test --test_arg=-k \\
        --test_arg=test_vectorize_element_loops_tt
"""

from __future__ import annotations

import tvm
import tvm_ffi
from tvm import tirx

from .. import ops
from ..ir_utils import (
    cast_to,
    collect_vars,
    def_loc,
    is_global,
    map_children,
    parallel_loc,
    seq,
    tensor_loads,
)


def store_nest(stmt) -> tuple[list[tirx.For], list[tirx.BufferStore]] | None:
    """(loops, stores) when ``stmt`` is a store or a perfect loop nest around element stores only (the
    loops outermost first), else None."""
    loops = []
    while isinstance(stmt, tirx.For):
        loops.append(stmt)
        stmt = stmt.body
    stores = list(stmt.seq) if isinstance(stmt, tirx.SeqStmt) else [stmt]
    return (loops, stores) if all(isinstance(x, tirx.BufferStore) for x in stores) else None


def _var_set(exprs) -> set:
    found = set()
    for e in exprs:
        found |= set(collect_vars(e))
    return found


def _same(a, b) -> bool:
    return len(a) == len(b) and all(tvm_ffi.structural_equal(x, y) for x, y in zip(a, b, strict=True))


def _element_wise(stores, loop_vars) -> bool:
    for s in stores:
        if _var_set(s.indices) & loop_vars != loop_vars:
            return False
        for load in tensor_loads(s.value):
            other = next((w for w in stores if w.buffer.same_as(load.source)), None)
            if other is not None and not _same(load.indices, other.indices):
                return False  # a value another iteration wrote: a loop-carried dependence
    return True


def _whole(loops, stores) -> bool:
    """Whether a sequential loop may join the ``T.Parallel`` nest it holds: each tile buffer it stores is
    indexed by the loop's variable along a dimension of its extent. A loop over fewer columns than the
    buffer has (``for k in T.serial(4): for i in T.Parallel(32): y[i, k] = r[i]``) stays a loop, each
    step setting one column."""
    serial = [lp for lp in loops if parallel_loc(lp) is None]
    if len(serial) == len(loops):
        return True
    for store in stores:
        if is_global(store.buffer):
            continue
        for index, extent in zip(store.indices, store.buffer.ty.shape, strict=True):
            hit = [lp for lp in serial if index.same_as(lp.loop_var)]
            if hit and not tvm_ffi.structural_equal(hit[0].extent, extent):
                return False
    return True


_REDUCTIONS = {tirx.Add: "sum", tirx.Max: "max", tirx.Min: "min"}  # how y[I] combines with f, by node


def _reduction_terms(store: tirx.BufferStore):
    """(kind, f) when ``store`` is ``y[I] = y[I] + f`` — or ``T.max(y[I], f)``, ``T.min(y[I], f)``: kind
    "sum", "max", "min" — in either operand order, else None."""
    value = store.value
    kind = next((k for node, k in _REDUCTIONS.items() if isinstance(value, node)), None)
    if kind is None:
        return None
    for own, terms in ((value.a, value.b), (value.b, value.a)):
        if (
            isinstance(own, tvm.ir.TensorLoad)
            and own.source.same_as(store.buffer)
            and _same(own.indices, store.indices)
            and not any(load.source.same_as(store.buffer) for load in tensor_loads(terms))
        ):
            return kind, terms
    return None


def _combined(kind: str, own, part):
    """``own`` combined with a reduction's ``part`` as ``kind`` does."""
    if kind == "max":
        return tirx.Max(own, part)
    if kind == "min":
        return tirx.Min(own, part)
    return own + part


def _annotated(loops, body, marker) -> tirx.For:
    """The nest ``loops`` around ``body`` as a ``T.Parallel`` nest whose ``tl.loc`` is ``marker``."""
    for lp in reversed(loops):
        annotations = {k: v for k, v in (lp.annotations or {}).items() if k != "tl.serial_loc"}
        annotations["tl.loc"] = marker
        body = tirx.For(lp.loop_var, lp.min, lp.extent, lp.kind, body, lp.thread_binding, annotations)
    return body


def _single_element(buf) -> bool:
    return not is_global(buf) and all(int(x) == 1 for x in buf.ty.shape)


def _once(store, marker) -> tirx.For:
    """A store to a one-element tile buffer as the element statement of a one-element ``T.Parallel``
    (its index is the loop's variable, which is 0)."""
    one = tirx.Var("one", "int32")
    indexed = tirx.BufferStore(store.buffer, store.value, [one] * len(store.indices))
    return _annotated([tirx.For(one, 0, 1, tirx.ForKind.SERIAL, indexed)], indexed, marker)


def _once_global(store, marker) -> tirx.For:
    """A store of one element of a global tensor (``B[0] = total[0]``, outside any loop) as the element
    statement of a ``T.Parallel`` nest of one element per dimension, each index its start plus the loop's
    variable (0), the form StageElementGlobalsTT stages through a tile."""
    ones = [tirx.Var(f"one{d}", "int32") for d in range(len(store.indices))]
    indexed = tirx.BufferStore(
        store.buffer, store.value, [i + v for i, v in zip(store.indices, ones, strict=True)]
    )
    return _annotated([tirx.For(v, 0, 1, tirx.ForKind.SERIAL, indexed) for v in ones], indexed, marker)


def _scalar_reduction(kind, loop, store, terms, marker, loc: str) -> tirx.Stmt:
    """``y[0] += terms(k)`` (or its max, min) over one loop, ``y`` a one-element buffer → a (1, L) terms
    row, its reduction, combined into y."""
    length = int(loop.extent)
    name = str(store.buffer.name)
    terms_buf = tirx.decl_buffer([1, length], "float32", f"{name}_terms", scope="local.fragment")
    sum_buf = tirx.decl_buffer([1, 1], "float32", f"{name}_sum", scope="local.fragment")
    zero = tirx.const(0, "int32")
    fill = tirx.BufferStore(terms_buf, cast_to(terms, "float32"), [zero, loop.loop_var])
    regions = [
        tirx.BufferRegion(
            terms_buf, [tvm.ir.Range.from_min_extent(zero, 1), tvm.ir.Range.from_min_extent(zero, length)]
        ),
        tirx.BufferRegion(
            sum_buf, [tvm.ir.Range.from_min_extent(zero, 1), tvm.ir.Range.from_min_extent(zero, 1)]
        ),
    ]
    own = tirx.BufferLoad(store.buffer, store.indices)
    total = _combined(kind, own, cast_to(tirx.BufferLoad(sum_buf, [zero, zero]), store.buffer.ty.dtype))
    return seq(
        [
            tirx.AllocBuffer(terms_buf),
            tirx.AllocBuffer(sum_buf),
            _annotated([loop], fill, marker),
            tirx.Evaluate(ops.call("tl.reduce", *regions, kind, 1, True, loc)),
            _once(tirx.BufferStore(store.buffer, total, store.indices), marker),
        ]
    )


def _row_reduction(kind, loops, store, terms, marker, loc: str) -> tirx.Stmt | None:
    """``y[I(kept)] += terms(kept, reduced)`` (or its max, min) over a two-loop nest → terms tile, row or
    column reduction, combined into y."""
    kept = [i for i, lp in enumerate(loops) if lp.loop_var in _var_set(store.indices)]
    if len(loops) == 1 and not kept and _single_element(store.buffer):
        return _scalar_reduction(kind, loops[0], store, terms, marker, loc)
    if len(loops) != 2 or len(kept) != 1:
        return None
    (keep,) = kept
    extents = [int(lp.extent) for lp in loops]
    name = str(store.buffer.name)
    terms_buf = tirx.decl_buffer(extents, "float32", f"{name}_terms", scope="local.fragment")
    sum_buf = tirx.decl_buffer([extents[keep]], "float32", f"{name}_sum", scope="local.fragment")
    i, j = (lp.loop_var for lp in loops)
    fill = tirx.BufferStore(terms_buf, cast_to(terms, "float32"), [i, j])
    zero = tirx.const(0, "int32")
    regions = [
        tirx.BufferRegion(terms_buf, [tvm.ir.Range.from_min_extent(zero, e) for e in extents]),
        tirx.BufferRegion(sum_buf, [tvm.ir.Range.from_min_extent(zero, extents[keep])]),
    ]
    # reduce over the other loop: dim 1 (a sum along each row) when the kept loop is the outer one
    reduce = ops.call("tl.reduce", *regions, kind, 1 - keep, True, loc)
    own = tirx.BufferLoad(store.buffer, store.indices)
    part = cast_to(tirx.BufferLoad(sum_buf, [loops[keep].loop_var]), store.buffer.ty.dtype)
    total = _combined(kind, own, part)
    add = tirx.BufferStore(store.buffer, total, store.indices)
    return seq(
        [
            tirx.AllocBuffer(terms_buf),
            tirx.AllocBuffer(sum_buf),
            _annotated(loops, fill, marker),
            tirx.Evaluate(reduce),
            _annotated([loops[keep]], add, marker),
        ]
    )


def VectorizeElementLoopsTT() -> tvm.transform.Pass:  # noqa: N802
    def transform(func: tirx.PrimFunc, mod, ctx) -> tirx.PrimFunc:
        fallback = def_loc(func)

        def rewrite(loop: tirx.For):
            nest = store_nest(loop)
            if nest is None or any(not isinstance(lp.extent, tirx.IntImm) for lp in nest[0]):
                return loop
            loops, stores = nest
            body = loops[-1].body
            # the annotation as written (a StringImm from the DSL's markers), or the def line
            marker = (loop.annotations or {}).get("tl.loc", (loop.annotations or {}).get("tl.serial_loc"))
            marker = fallback if marker is None else marker
            loc = str(getattr(marker, "value", marker))
            loop_vars = {lp.loop_var for lp in loops}
            if len(stores) == 1 and _var_set(stores[0].indices) & loop_vars != loop_vars:
                reduction = _reduction_terms(stores[0])
                if reduction is None:
                    return loop
                kind, terms = reduction
                reduced = _row_reduction(kind, loops, stores[0], terms, marker, loc)
                return loop if reduced is None else reduced
            if parallel_loc(loop) is None and _element_wise(stores, loop_vars) and _whole(loops, stores):
                return _annotated(loops, body, marker)
            return loop

        def visit(stmt):
            if isinstance(stmt, tirx.For):
                out = rewrite(stmt)
                if out is not stmt or parallel_loc(stmt) is not None:
                    return out
            if isinstance(stmt, tirx.BufferStore) and _single_element(stmt.buffer):
                return _once(stmt, fallback)  # a scalar kept in a one-element tile (T.alloc_local((1,)))
            if isinstance(stmt, tirx.BufferStore) and is_global(stmt.buffer):
                return _once_global(stmt, fallback)  # ``B[0] = total[0]``: one element of a tensor
            return map_children(stmt, visit)

        return func.with_body(visit(func.body))

    return tirx.transform.prim_func_pass(transform, opt_level=0, name="VectorizeElementLoopsTT")
