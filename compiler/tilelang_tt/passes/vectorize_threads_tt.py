"""A015 · VectorizeThreadsTT — SIMT code (``T.get_thread_binding``) becomes loops over the threads.

A GPU kernel written per thread (``tn = T.get_thread_binding(0)``; ``C_reg = T.alloc_local((1,), ...)``;
``C[bn * BLOCK_N + tn] = C_reg[0]``) describes the same computation for each of the block's threads. A
Tenstorrent core has no threads to spread it over, but its compute engine works on tiles, so the thread
index becomes one more dimension of the data: each thread-local buffer gets a leading dimension of the
thread count (``C_reg[tn, 0]``), and every statement that depends on the thread index is wrapped in a
loop over it. Statements that do not depend on it are what every thread does alike, done once.
VectorizeElementLoopsTT then turns those loops into tile statements (an element-wise nest, or a row sum
for ``C_reg[tn, 0] += A[tk] * B[tn, tk]`` over ``tk``).

Input expectations
    A PrimFunc from the DSL whose launch has ``threadIdx`` threads (from ``T.get_thread_binding``).
Output guarantees
    No ``threadIdx`` launch remains. ``T.alloc_local`` buffers have the thread counts as leading
    dimensions, indexed by the thread variables (a per-thread scalar, shape (1,), becomes a vector of one
    value per thread); named values that depend on a thread index are substituted into the statements
    after them; a statement that uses a thread variable (after that rewrite) is, at the innermost loop
    nest of element stores holding it, wrapped in ``for <thread> in range(count)`` loops over the thread
    indices it uses (all of them when a store adds into what it reads: every thread adds): outside the
    nest when its stores name one thread index (the nest's loops then make the tile's other dimension),
    inside when they name two (the threads fill the tile, the loops step it). The stores of such a nest
    that do not use the thread index stay in a nest of their own, executed once; ``if <thread> ==
    <value>:`` around statements that do not use that index is dropped (they are done once). A
    thread-dependent tile operation (``T.copy`` of a per-thread slice, ``T.gemm``...) is a TTCompileError
    at its line: per-thread tile operations are not supported on Tenstorrent yet.
Example
    before: tn = launch_thread("threadIdx.x", 128); C_reg = T.alloc_local((1,), "float32")
            for tk in T.serial(128): C_reg[0] = C_reg[0] + A_s[tk] * B_s[tn, tk]
            C[bn * 128 + tn] = C_reg[0]
    after:  C_reg = T.alloc_local((128,), "float32")
            for tn in range(128): for tk in T.serial(128): C_reg[tn] = C_reg[tn] + A_s[tk] * B_s[tn, tk]
            for tn in range(128): C[bn * 128 + tn] = C_reg[tn]
Test
    ./bazelw test //compiler/tests/passes:passes_test --test_arg=-k --test_arg=test_vectorize_threads_tt
"""

from __future__ import annotations

import tvm
import tvm_ffi
from tvm import tirx

from .. import ops
from ..errors import TTCompileError
from ..ir_utils import collect_vars, def_loc, map_children, parallel_loc, seq, simplify
from .vectorize_element_loops_tt import store_nest


def _is_thread_launch(stmt) -> bool:
    return (
        isinstance(stmt, tirx.AttrStmt)
        and stmt.attr_key == "thread_extent"
        and str(stmt.node.thread_tag).startswith("threadIdx.")
    )


def _threads(func) -> tuple[list, tirx.Stmt, list]:
    """(block launches, body, thread launches) of the launch nest at the top of ``func``. A thread index
    the kernel first asks for after other statements (``T.get_thread_binding`` below an allocation) is
    launched there; the launch is taken to the top, around the statements before it, which do not use it."""
    blocks, threads, node = [], [], func.body
    while True:
        if isinstance(node, tirx.SeqStmt):
            at = next((k for k, x in enumerate(node.seq) if _is_thread_launch(x)), None)
            if at is None:
                break
            launch = node.seq[at]
            threads.append(launch)
            node = seq(list(node.seq[:at]) + [launch.body] + list(node.seq[at + 1 :]))
        elif isinstance(node, tirx.AttrStmt) and node.attr_key == "thread_extent":
            (threads if _is_thread_launch(node) else blocks).append(node)
            node = node.body
        else:
            break
    return blocks, node, threads


def _uses(stmt, variables) -> bool:
    return any(any(v.same_as(t) for t in variables) for v in collect_vars(stmt))


def _holds(cond, var, value: int) -> bool:
    """Whether ``cond`` (over ``var`` alone) is true for ``var = value``."""
    fixed = tvm_ffi.structural_map(
        cond, (tvm.ir.Var, lambda v: tirx.const(value, v.ty.dtype) if v.same_as(var) else v)
    )
    folded = simplify(fixed)
    return isinstance(folded, tirx.IntImm) and bool(folded.value)


def _block_wide(stmt) -> bool:
    """Whether ``stmt`` is tile statements alone (TileLang operators and T.Parallel nests), each of which
    the block's threads do together."""
    if isinstance(stmt, tirx.SeqStmt):
        return all(_block_wide(s) for s in stmt.seq)
    if parallel_loc(stmt) is not None:
        return True
    return any(ops.is_op(stmt, name) for name in _BLOCK_OPS)


# TileLang's tile operators (and the markers of a statement's line): the block's threads share each one
_BLOCK_OPS = (
    "tl.copy",
    "tl.fill",
    "tl.gemm",
    "tl.reduce",
    "tl.transpose",
    "tl.im2col",
    "tl.loc",
    "tl.serial_loc",
)


def _nest(loops, stores) -> tirx.Stmt:
    body = seq(stores)
    for lp in reversed(loops):
        body = tirx.For(lp.loop_var, lp.min, lp.extent, lp.kind, body, lp.thread_binding, lp.annotations)
    return body


def _stored(stmt) -> set:
    names = set()
    tvm_ffi.structural_walk(stmt, (tirx.BufferStore, lambda st: names.add(str(st.buffer.name))))
    return names


def _inline_thread_values(stmt, variables):
    """``stmt`` with each named value that depends on a thread index (``A_local[0] = A[bk * 32 + tk]``,
    which the front end makes ``A_local = A[...]``) substituted into the statements after it: a value
    per thread is an element of the thread loops those statements get. A value reading a buffer that the
    statements after it write stays named (the error below then points at it)."""
    if isinstance(stmt, tirx.SeqStmt):
        items, out = list(stmt.seq), []
        for i, item in enumerate(items):
            rest = seq(items[i + 1 :]) if i + 1 < len(items) else None
            if (
                isinstance(item, tirx.Bind)
                and _uses(item.value, variables)
                and rest is not None
                and not (_reads_of(item.value) & _stored(rest))
            ):
                value = item.value
                items[i + 1 :] = [
                    tvm_ffi.structural_map(
                        later, (tvm.ir.Var, lambda v, var=item.var, val=value: val if v.same_as(var) else v)
                    )
                    for later in items[i + 1 :]
                ]
                continue
            out.append(_inline_thread_values(item, variables))
        return seq(out)
    return map_children(stmt, lambda child: _inline_thread_values(child, variables))


def _reads_of(expr) -> set:
    """Names of the buffers ``expr`` reads."""
    names = set()
    tvm_ffi.structural_walk(expr, (tvm.ir.TensorLoad, lambda t: names.add(str(t.source.name))))
    return names


def _reads(stores) -> set:
    """Names of the buffers the values of ``stores`` read."""
    return set().union(*(_reads_of(s.value) for s in stores))


def VectorizeThreadsTT() -> tvm.transform.Pass:  # noqa: N802
    def transform(func: tirx.PrimFunc, mod, ctx) -> tirx.PrimFunc:
        blocks, body, threads = _threads(func)
        if not threads:
            return func
        variables = [t.node.var for t in threads]
        counts = [int(t.value) for t in threads]
        local = {}

        def thread_local(a):
            if str(a.buffer.ty.storage_scope) == "local":
                own = [int(x) for x in a.buffer.ty.shape]
                shape = counts + ([] if own == [1] else own)  # a per-thread scalar: one value per thread
                new = tirx.decl_buffer(shape, a.buffer.ty.dtype, str(a.buffer.name), scope="local")
                local[str(a.buffer.name)] = (a.buffer, new)

        def alloc(a):
            new = swap(a.buffer)
            return a if new is None else tirx.AllocBuffer(new, a.annotations)

        def swap(buf):
            old, new = local.get(str(buf.name), (None, None))
            return new if old is not None and old.same_as(buf) else None

        def indices(new, old):
            return variables + (list(old) if len(new.ty.shape) > len(variables) else [])

        def store(s):
            new = swap(s.buffer)
            return s if new is None else tirx.BufferStore(new, s.value, indices(new, s.indices))

        def load(t):
            new = swap(t.source)
            return t if new is None else tirx.BufferLoad(new, indices(new, t.indices))

        def region(r):
            new = swap(r.source)
            if new is None:
                return r
            whole = [tvm.ir.Range.from_min_extent(tirx.const(0, "int32"), c) for c in counts]
            return tirx.BufferRegion(new, whole + (list(r.region) if len(new.ty.shape) > len(counts) else []))

        body = _inline_thread_values(body, variables)
        tvm_ffi.structural_walk(body, (tirx.AllocBuffer, thread_local))
        body = tvm_ffi.structural_map(
            body,
            [
                (tirx.AllocBuffer, alloc),
                (tirx.BufferStore, store),
                (tvm.ir.TensorLoad, load),
                (tvm.ir.TensorRegion, region),
            ],
            order="post",
        )

        def per_thread(stmt, stores, line=None):
            """``stmt`` in loops over the threads (fresh loop variables, outermost first): the threads its
            ``stores`` name, or every thread when one of them adds into what it reads (each thread adds).
            The loops carry ``line`` (else the line of the loop ``stmt`` is) as their DSL line."""
            accumulates = any(str(x.buffer.name) in _reads([x]) for x in stores)
            wrapped = [
                (v, c) for v, c in zip(variables, counts, strict=True) if accumulates or _uses(stmt, [v])
            ]
            fresh = [tirx.Var(str(v.name), v.ty.dtype) for v, _ in wrapped]
            renamed = tvm_ffi.structural_map(
                stmt,
                (
                    tvm.ir.Var,
                    lambda v: next(
                        (f for (old, _), f in zip(wrapped, fresh, strict=True) if old.same_as(v)), v
                    ),
                ),
            )
            # the thread loops take the DSL line of the loop they wrap, for VectorizeElementLoopsTT's errors
            if line is None and isinstance(stmt, tirx.For) and stmt.annotations:
                line = stmt.annotations.get("tl.serial_loc")
            for var, (_, count) in reversed(list(zip(fresh, wrapped, strict=True))):
                annotations = {"tl.serial_loc": line} if line is not None else None
                renamed = tirx.For(var, 0, count, tirx.ForKind.SERIAL, renamed, None, annotations)
            return renamed

        def threaded(loops, stores):
            """The nest ``loops`` around ``stores`` with the thread loops: outside it when the stores name one
            thread index (its loops are then a second tile dimension: ``C_reg[tn] += A[tk] * B[tn, tk]`` over
            ``tk`` is a row sum), inside when they name two or more (the threads fill the tile; the loops step
            it: ``for bk: C_accum[tn, tk] += A[bk * 32 + tk] * B[tn, bk * 32 + tk]``)."""
            named = {
                str(v.name) for x in stores for i in x.indices for v in collect_vars(i) if _uses(v, variables)
            }
            if len(named) < 2 or not loops:
                return per_thread(_nest(loops, stores), stores)
            line = loops[0].annotations.get("tl.serial_loc") if loops[0].annotations else None
            return _nest(loops, [per_thread(seq(stores), stores, line)])

        def wrap(stmt, line=None):
            """``stmt`` with its per-thread statements looped over the threads; ``line`` is the DSL line
            of the innermost loop around it, where an error points when the statement has none."""
            if not _uses(stmt, variables):
                return stmt
            nest = store_nest(stmt)
            if nest is not None:
                # the stores every thread makes alike stay once; the per-thread ones get the thread loops
                loops, stores = nest
                alike = [x for x in stores if not _uses(x, variables)]
                own = [x for x in stores if _uses(x, variables)]
                written = {str(x.buffer.name) for x in stores}
                if alike and (_reads(own) & {str(x.buffer.name) for x in alike} or _reads(alike) & written):
                    alike, own = [], stores  # they depend on each other: keep them together
                return seq(([_nest(loops, alike)] if alike else []) + [threaded(loops, own)])
            if isinstance(stmt, tirx.For) and stmt.annotations and "tl.serial_loc" in stmt.annotations:
                line = stmt.annotations["tl.serial_loc"]
            if isinstance(stmt, tirx.SeqStmt | tirx.For | tirx.AttrStmt):
                return map_children(stmt, lambda child: wrap(child, line))
            one = _one_thread(stmt)
            if one is not None:
                return wrap(one, line)
            if (
                isinstance(stmt, tirx.Evaluate)
                and isinstance(stmt.value, tvm.ir.Call)
                and ops.loc_of(stmt.value)
            ):
                loc = ops.loc_of(stmt.value)
            else:
                loc = str(getattr(line, "value", line)) if line is not None else def_loc(func)
            raise TTCompileError.at(
                loc,
                f"this statement depends on the thread index ({', '.join(str(v.name) for v in variables)}) "
                f"and is not a store of elements; per-thread tile operations and branches are not supported "
                f"on Tenstorrent yet (write the tile operation for the whole block)",
            )

        def _one_thread(stmt):
            """The body of ``if <condition on one thread index t>:`` (no else) when the body does not use t
            and some thread takes the branch: what the body does, done once. With one thread taking it
            (``if tk == 0: C_shared[tn] = 0``) that is what that thread does; with several (``if tx < 128:``
            around a copy, the producer threads of warp specialisation) only a body of block-wide tile
            statements, which the threads taking it share (copies, fills, GEMMs, reductions, T.Parallel
            nests), is the same done once. Else None."""
            if not isinstance(stmt, tirx.IfThenElse) or stmt.else_case is not None:
                return None
            cond = stmt.condition
            named = [(v, c) for v, c in zip(variables, counts, strict=True) if _uses(cond, [v])]
            if len(named) != 1:
                return None
            var, count = named[0]
            if not all(v.same_as(var) for v in collect_vars(cond)) or _uses(stmt.then_case, [var]):
                return None
            taking = [t for t in range(int(count)) if _holds(cond, var, t)]
            if len(taking) == 1 or (taking and _block_wide(stmt.then_case)):
                return stmt.then_case
            return None

        out = wrap(body)
        for launch in reversed(blocks):
            out = tirx.AttrStmt(launch.node, launch.attr_key, launch.value, out)
        return func.with_body(out)

    return tirx.transform.prim_func_pass(transform, opt_level=0, name="VectorizeThreadsTT")
