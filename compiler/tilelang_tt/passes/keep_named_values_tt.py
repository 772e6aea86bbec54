"""A00' · KeepNamedValuesTT — a value named in an element loop keeps the value it had when it was named.

An element loop nest names values (``v = x[i, j] * 2``) that later statements of the same body use. Later
passes put a named value's expression into each statement that uses it, which is the same thing only
while nothing the expression reads has changed. After a store to a buffer the expression reads, it is
not::

    v = x[i, j] * 2          # as Python: v is twice the old x
    x[i, j] = v
    y[i, j] = v              # y must be twice the old x, not twice the new one

Such a value is kept in a fragment of the nest's shape instead (``v_kept[i, j] = x[i, j] * 2``, and its
uses read ``v_kept[i, j]``), which is what naming it meant. Chained assignments (``x[i, j] = y[i, j] =
x[i, j] * 2``, named first by the front end) take this form.

Input expectations
    A PrimFunc from the DSL after SelectElementBranchesTT: element loop nests (loops annotated ``tl.loc``
    or ``tl.serial_loc``) whose bodies are stores and named values.
Output guarantees
    No floating-point named value in such a body is used after a store to a buffer it reads; those that
    were are stores into a ``<name>_kept`` fragment allocated just before the nest, and their uses loads of
    it.
Example
    before: for i, j in T.Parallel(32, 32): v = x[i, j] * 2; x[i, j] = v; y[i, j] = v
    after:  v_kept = T.alloc_fragment((32, 32), "float32")
            for i, j in T.Parallel(32, 32): v_kept[i, j] = x[i, j] * 2; x[i, j] = v_kept[i, j]
                                            y[i, j] = v_kept[i, j]
Test
    ./bazelw test //compiler/tests/passes:passes_test --test_arg=-k --test_arg=test_keep_named_values_tt
"""

from __future__ import annotations

import tvm
import tvm_ffi
from tvm import tirx

from ..ir_utils import collect_vars, map_children, parallel_loc, seq, with_loop_body


def _element_nest(loop: tirx.For) -> tuple[list, tirx.Stmt] | None:
    """(the nest's loops, outermost first; its innermost body) for an element loop nest, else None."""
    annotations = loop.annotations or {}
    if parallel_loc(loop) is None and "tl.serial_loc" not in annotations:
        return None
    loops, body = [loop], loop.body
    while isinstance(body, tirx.For):
        loops.append(body)
        body = body.body
    if not all(isinstance(lp.extent, tirx.IntImm) for lp in loops):
        return None
    return loops, body


def _reads(expr, names: dict) -> set[str]:
    """Buffers ``expr`` reads, through the named values in ``names`` (var → buffers its value reads)."""
    found = set()
    tvm_ffi.structural_walk(expr, (tvm.ir.TensorLoad, lambda t: found.add(str(t.source.name))))
    for var in collect_vars(expr):
        found |= names.get(var, set())
    return found


def _stale(stmts: list) -> list:
    """The named values of ``stmts`` (a body in order) used after a store to a buffer they read."""
    reads: dict = {}  # named var → the buffers its value reads
    stale = []
    for k, stmt in enumerate(stmts):
        if isinstance(stmt, tirx.Bind) and str(stmt.var.ty.dtype).startswith(("float", "bfloat")):
            reads[stmt.var] = _reads(stmt.value, reads)
            changed = False
            for later in stmts[k + 1 :]:
                if changed and any(v.same_as(stmt.var) for v in collect_vars(later)):
                    stale.append(stmt.var)
                    break
                if isinstance(later, tirx.BufferStore) and str(later.buffer.name) in reads[stmt.var]:
                    changed = True
    return stale


def _keep(loops: list, body: tirx.Stmt) -> tuple[list, tirx.Stmt]:
    """(fragments to allocate, the body) with each stale named value kept in a fragment."""
    stmts = list(body.seq) if isinstance(body, tirx.SeqStmt) else [body]
    if not all(isinstance(s, tirx.Bind | tirx.BufferStore) for s in stmts):
        return [], body  # not a body of element statements (a loop of tile operations, a branch)
    stale = _stale(stmts)
    if not stale:
        return [], body
    shape = [int(lp.extent) for lp in loops]
    index = [lp.loop_var for lp in loops]
    kept = {v: tirx.decl_buffer(shape, v.ty.dtype, f"{v.name}_kept", scope="local.fragment") for v in stale}

    def load(v):
        return next((tirx.BufferLoad(b, index) for var, b in kept.items() if var.same_as(v)), v)

    out = []
    for stmt in stmts:
        buf = next(
            (b for var, b in kept.items() if isinstance(stmt, tirx.Bind) and var.same_as(stmt.var)), None
        )
        if buf is not None:  # the named value, stored into its fragment
            out.append(tirx.BufferStore(buf, tvm_ffi.structural_map(stmt.value, (tvm.ir.Var, load)), index))
        else:
            out.append(tvm_ffi.structural_map(stmt, (tvm.ir.Var, load)))
    return list(kept.values()), seq(out)


def KeepNamedValuesTT() -> tvm.transform.Pass:  # noqa: N802
    def transform(func: tirx.PrimFunc, mod, ctx) -> tirx.PrimFunc:
        def rewrite(stmt):
            nest = _element_nest(stmt) if isinstance(stmt, tirx.For) else None
            if nest is None:
                return map_children(stmt, rewrite)
            loops, body = nest
            fragments, new_body = _keep(loops, body)
            if not fragments:
                return stmt
            for lp in reversed(loops):
                new_body = with_loop_body(lp, new_body)
            return seq([tirx.AllocBuffer(b) for b in fragments] + [new_body])

        return func.with_body(rewrite(func.body))

    return tirx.transform.prim_func_pass(transform, opt_level=0, name="KeepNamedValuesTT")
