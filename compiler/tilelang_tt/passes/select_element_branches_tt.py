"""A00 · SelectElementBranchesTT — ``if`` around element stores becomes a select in the store.

A Tenstorrent core computes whole 32×32 tiles; it cannot branch per element. An ``if`` in an element loop
nest (``T.Parallel``, or a ``T.serial`` / ``T.grid`` nest that VectorizeElementLoopsTT will make one),
whose branches only store elements and name values, means the same as storing into every element what the
branch taken would leave there:

    if cond: X[i, j] = a          →  X[i, j] = T.if_then_else(cond, a, X[i, j])
    else:    Y[i, j] = b          →  Y[i, j] = T.if_then_else(cond, Y[i, j], b)

and branches that store to the same elements in the same order take one store each, which reads no old
value (a store into a global tensor may then read another: ``B[r, c] = A[r, c] * 2`` or ``* 0.5``):

    if cond: X[i, j] = a          →  X[i, j] = T.if_then_else(cond, a, b)
    else:    X[i, j] = b

Stores keep their order, so a later store in a branch sees an earlier one's value when the branch is
taken and the old value when it is not, as the ``if`` would. The condition is evaluated again in each
store, so it may read a buffer the branches store to only if no store to it comes before another store
(``if a[i, j] > 0: a[i, j] *= 2`` is fine; otherwise a located error); nested ``if`` statements are
rewritten inside out. TileLang's masked selects (``if A[i, j] > 0: B[i, j] = ...``) and causal masks
written as branches take this form; ScheduleTileComputeTT computes the select with the SFPU's
comparisons. A guard that only keeps global stores inside their tensors (``if row < M and col < N:
C[row, col] = ...``) is dropped instead: a store past a tensor's end is dropped anyway.

Input expectations
    A PrimFunc from the DSL: element loop nests carry their DSL line (``tl.loc`` or ``tl.serial_loc``).
Output guarantees
    No ``IfThenElse`` inside such a nest whose branches are element stores and named values; ifs around
    anything else (tile operations, loops) are left for the passes that report them. Integer named
    values in such a nest (``row = by * bM + i``) are substituted into the statements after them.
Example
    before: for i, j in T.Parallel(32, 32):
                if A_s[i, j] > 0: B_f[i, j] = A_s[i, j] * 2
    after:  for i, j in T.Parallel(32, 32):
                B_f[i, j] = T.if_then_else(A_s[i, j] > 0, A_s[i, j] * 2, B_f[i, j])
Test
    ./bazelw test //compiler/tests/passes:passes_test --test_arg=-k \\
        --test_arg=test_select_element_branches_tt
"""

from __future__ import annotations

import tvm
import tvm_ffi
from tvm import tirx

from ..errors import TTCompileError
from ..ir_utils import is_global, parallel_loc, seq


def _element_loc(loop: tirx.For) -> str | None:
    """The DSL line of an element loop (T.Parallel, T.serial, T.grid), else None."""
    annotations = loop.annotations or {}
    loc = parallel_loc(loop) or annotations.get("tl.serial_loc")
    return str(loc) if loc is not None else None


def _statements(stmt) -> list:
    return list(stmt.seq) if isinstance(stmt, tirx.SeqStmt) else [stmt]


def _stored_names(stmts: list) -> set[str]:
    return {str(s.buffer.name) for s in stmts}


def _read_names(expr) -> set[str]:
    found = set()
    tvm_ffi.structural_walk(expr, (tvm.ir.TensorLoad, lambda t: found.add(str(t.source.name))))
    return found


def _inline_index_names(block: tirx.SeqStmt):
    """``row = by * 32 + i`` (an integer named value) in an element nest, substituted into the statements
    after it: element positions are tile coordinates, and later passes read indices, not names."""
    out, names = [], {}
    for stmt in block.seq:
        if names:
            stmt = tvm_ffi.structural_map(stmt, (tvm.ir.Var, lambda v: names.get(v, v)))
        if isinstance(stmt, tirx.Bind) and str(stmt.var.ty.dtype).startswith(("int", "uint")):
            names[stmt.var] = stmt.value
            continue
        out.append(stmt)
    return seq(out) if names else block


def _only_guards_bounds(condition, stores: list) -> bool:
    """True when ``condition`` holds wherever every store lands inside its global tensor: a bounds guard
    (``if row < M and col < N: C[row, col] = ...``), which the padded tiles make redundant."""
    targets = [s for s in stores if isinstance(s, tirx.BufferStore)]
    if not targets or not all(is_global(s.buffer) for s in targets):
        return False
    inside = [
        tirx.all(index >= 0, index < extent)
        for s in targets
        for index, extent in zip(s.indices, s.buffer.ty.shape, strict=True)
    ]
    analyzer = tvm.sym.Analyzer()
    with analyzer.constraint_scope(tirx.all(*inside)):
        return bool(analyzer.can_prove(condition))


def _same_targets(then: list, other: list) -> bool:
    """Whether both branches store, in the same order, to the same elements and nothing else."""
    return (
        bool(then)
        and len(then) == len(other)
        and all(
            isinstance(a, tirx.BufferStore)
            and isinstance(b, tirx.BufferStore)
            and a.buffer.same_as(b.buffer)
            and tvm_ffi.structural_equal(list(a.indices), list(b.indices))
            for a, b in zip(then, other, strict=True)
        )
    )


def _select(branch: tirx.IfThenElse, loc: str) -> list | None:
    """The branch as select stores, or None when a branch holds more than stores and named values."""
    then, other = _statements(branch.then_case), _statements(branch.else_case) if branch.else_case else []
    if not all(isinstance(s, tirx.BufferStore | tirx.Bind) for s in then + other):
        return None
    if not other and _only_guards_bounds(branch.condition, then):
        return then  # a store past a tensor's end is dropped anyway (tensors are padded to whole tiles)
    stores = [s for s in then + other if isinstance(s, tirx.BufferStore)]
    read = _read_names(branch.condition)
    for k, store in enumerate(stores[1:], start=1):
        clash = sorted(_stored_names(stores[:k]) & read)
        if clash:
            raise TTCompileError.at(
                loc,
                f"an if in an element-wise loop whose condition reads {', '.join(clash)}, which a store of "
                f"its branches changes before the store to {store.buffer.name}, is not supported on "
                f"Tenstorrent yet; store {', '.join(clash)} last",
            )

    if _same_targets(then, other):  # each element gets one branch's value: nothing old is read
        return [
            tirx.BufferStore(a.buffer, tirx.if_then_else(branch.condition, a.value, b.value), list(a.indices))
            for a, b in zip(then, other, strict=True)
        ]

    def selected(stmt, taken: bool):
        if isinstance(stmt, tirx.Bind):
            return stmt
        old = tirx.BufferLoad(stmt.buffer, list(stmt.indices))
        a, b = (stmt.value, old) if taken else (old, stmt.value)
        value = tirx.if_then_else(branch.condition, a, b)
        return tirx.BufferStore(stmt.buffer, value, list(stmt.indices))

    return [selected(s, True) for s in then] + [selected(s, False) for s in other]


def SelectElementBranchesTT() -> tvm.transform.Pass:  # noqa: N802
    def transform(func: tirx.PrimFunc, mod, ctx) -> tirx.PrimFunc:
        def rewrite(node, loc: str | None):
            if isinstance(node, tirx.For):
                inner = _element_loc(node) or loc
                body = rewrite(node.body, inner)
                if body.same_as(node.body):
                    return node
                return tirx.For(
                    node.loop_var,
                    node.min,
                    node.extent,
                    node.kind,
                    body,
                    node.thread_binding,
                    node.annotations,
                )
            if isinstance(node, tirx.SeqStmt) and loc is not None:
                inlined = _inline_index_names(node)
                if not inlined.same_as(node):
                    return rewrite(inlined, loc)
            if isinstance(node, tirx.SeqStmt):
                parts = [rewrite(s, loc) for s in node.seq]
                flat = [x for p in parts for x in _statements(p)]
                return (
                    seq(flat) if any(not p.same_as(s) for p, s in zip(parts, node.seq, strict=True)) else node
                )
            if isinstance(node, tirx.IfThenElse):
                then = rewrite(node.then_case, loc)
                other = rewrite(node.else_case, loc) if node.else_case is not None else None
                branch = tirx.IfThenElse(node.condition, then, other)
                stores = _select(branch, loc) if loc is not None else None
                return seq(stores) if stores is not None else branch
            if isinstance(node, tirx.AttrStmt):
                body = rewrite(node.body, loc)
                return (
                    node
                    if body.same_as(node.body)
                    else tirx.AttrStmt(node.node, node.attr_key, node.value, body)
                )
            return node

        return func.with_body(rewrite(func.body, None))

    return tirx.transform.prim_func_pass(transform, opt_level=0, name="SelectElementBranchesTT")
