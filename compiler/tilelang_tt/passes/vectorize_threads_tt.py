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
    value per thread); a statement that uses a thread variable (after that
    rewrite) is, at the innermost loop nest of element stores holding it, wrapped in ``for <thread> in
    range(count)`` loops, outermost; the stores of such a nest that do not use the thread index stay in a
    nest of their own, executed once. A thread-dependent tile operation (``T.copy`` of a per-thread slice,
    ``T.gemm``...) is a TTCompileError at its line: per-thread tile operations are not supported on
    Tenstorrent yet.
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
from ..ir_utils import collect_vars, def_loc, map_children, seq
from .vectorize_element_loops_tt import store_nest


def _threads(func) -> tuple[list, tirx.Stmt, list]:
    """(block launches, body, thread launches) of the launch nest at the top of ``func``."""
    blocks, threads, node = [], [], func.body
    while isinstance(node, tirx.AttrStmt) and node.attr_key == "thread_extent":
        (threads if str(node.node.thread_tag).startswith("threadIdx.") else blocks).append(node)
        node = node.body
    return blocks, node, threads


def _uses(stmt, variables) -> bool:
    return any(any(v.same_as(t) for t in variables) for v in collect_vars(stmt))


def _nest(loops, stores) -> tirx.Stmt:
    body = seq(stores)
    for lp in reversed(loops):
        body = tirx.For(lp.loop_var, lp.min, lp.extent, lp.kind, body, lp.thread_binding, lp.annotations)
    return body


def _reads(stores) -> set:
    names = set()
    for s in stores:
        tvm_ffi.structural_walk(s.value, (tvm.ir.TensorLoad, lambda t: names.add(str(t.source.name))))
    return names


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

        def per_thread(stmt):
            """``stmt`` in loops over the threads (fresh loop variables, outermost first)."""
            fresh = [tirx.Var(str(v.name), v.ty.dtype) for v in variables]
            renamed = tvm_ffi.structural_map(
                stmt,
                (
                    tvm.ir.Var,
                    lambda v: next((f for old, f in zip(variables, fresh, strict=True) if old.same_as(v)), v),
                ),
            )
            # the thread loops take the DSL line of the loop they wrap, for VectorizeElementLoopsTT's errors
            line = (
                stmt.annotations.get("tl.serial_loc")
                if isinstance(stmt, tirx.For) and stmt.annotations
                else None
            )
            for var, count in reversed(list(zip(fresh, counts, strict=True))):
                annotations = {"tl.serial_loc": line} if line is not None else None
                renamed = tirx.For(var, 0, count, tirx.ForKind.SERIAL, renamed, None, annotations)
            return renamed

        def wrap(stmt):
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
                return seq(([_nest(loops, alike)] if alike else []) + [per_thread(_nest(loops, own))])
            if isinstance(stmt, tirx.SeqStmt | tirx.For | tirx.AttrStmt):
                return map_children(stmt, wrap)
            if (
                isinstance(stmt, tirx.Evaluate)
                and isinstance(stmt.value, tvm.ir.Call)
                and ops.loc_of(stmt.value)
            ):
                loc = ops.loc_of(stmt.value)
            else:
                loc = def_loc(func)
            raise TTCompileError.at(
                loc,
                f"this statement depends on the thread index ({', '.join(str(v.name) for v in variables)}) "
                f"and is not a store of elements; per-thread tile operations and branches are not supported "
                f"on Tenstorrent yet (write the tile operation for the whole block)",
            )

        out = wrap(body)
        for launch in reversed(blocks):
            out = tirx.AttrStmt(launch.node, launch.attr_key, launch.value, out)
        return func.with_body(out)

    return tirx.transform.prim_func_pass(transform, opt_level=0, name="VectorizeThreadsTT")
