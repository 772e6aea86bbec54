"""A0' · StageElementGlobalsTT — element-wise statements reach global tensors through tile buffers.

A Tenstorrent compute core cannot address DRAM: every global tensor element a ``T.Parallel`` body reads
must arrive in a tile first, and every element it stores must leave from one. This pass makes that
explicit in TileLang's own terms, so every later pass sees global tensors only in ``T.copy``:
``C[by * 32 + i, j] = A[by * 32 + i, j] * 2`` becomes ``T.copy(A[by * 32, 0], A_tile)``; ``C_tile[i, j] =
A_tile[i, j] * 2``; ``T.copy(C_tile, C[by * 32, 0])``.

Input expectations
    2-D buffers (LegalizeVectorsTT); ``T.Parallel`` nests (loops annotated ``tl.loc``) whose global indices
    are a start that does not depend on the nest's variables plus at most one of them per dimension, in
    order (``A[b0 + i, b1 + j]``, ``Mean[b0 + i, 0]``).
Output guarantees
    No ``T.Parallel`` body touches a global buffer. Per nest and per global tensor it reads, a fragment
    ``<tensor>_tile`` (the accessed extent, the tensor's dtype; ``_tile1``... when other nests stage the
    tensor too) is allocated and filled by a ``tl.copy`` just before the nest; per tensor it stores, one is
    allocated before and copied out just after. A global index of any other form is a TTCompileError at
    the ``T.Parallel`` line. A value named from a global tensor the kernel does not write (``m_v =
    Mean[row]``), used only by the ``T.Parallel`` statements after it, is put into them first: one more
    global read, staged as a one-value tile. A loop whose body stores, once per step, one column (row) of a
    2-D global tensor at the loop's position, ``T[base + i, c + k]`` in a one-dimensional nest, and touches
    the tensor nowhere else (top-k's k-th result) stores into a fragment ``<tensor>_columns`` (``_rows``)
    instead, zeroed before the loop and copied out after it as one region.
Example
    before: for i in T.Parallel(32): Mean[bx * 32 + i, 0] = mean[i, 0]
    after:  Mean_tile = T.alloc_fragment((32, 1), "float32")
            for i in T.Parallel(32): Mean_tile[i, 0] = mean[i, 0]
            T.tl.copy(Mean_tile[0:32, 0:1], Mean[bx * 32:bx * 32 + 32, 0:1], loc)
Test
    ./bazelw test //compiler/tests/passes:passes_test --test_arg=-k --test_arg=test_stage_element_globals_tt
"""

from __future__ import annotations

import tvm
import tvm_ffi
from tvm import tirx

from .. import ops
from ..errors import TTCompileError
from ..ir_utils import (
    collect_vars,
    find_ops,
    is_global,
    parallel_loc,
    provably_equal,
    simplify,
    with_loop_body,
)


def _divides(index) -> bool:
    """An index computed with a division or a modulo (a gather's position arithmetic)."""
    found = []
    tvm_ffi.structural_walk(
        index, [(t, found.append) for t in (tirx.FloorDiv, tirx.FloorMod, tirx.Div, tirx.Mod)]
    )
    return bool(found)


def _nest(stmt: tirx.For):
    loop_vars, extents, body = [], [], stmt
    while isinstance(body, tirx.For):
        loop_vars.append(body.loop_var)
        extents.append(body.extent)
        body = body.body
    return loop_vars, extents


def _tile_dimensions(extents) -> list[int]:
    """The dimensions of a region of an N-D tensor its staging tile keeps: those the T.Parallel variables
    span, completed with the last ones to two (``Q[b, s0 + i, h, j]`` of a (B, S, H, D) tensor → (S, D));
    a region of a 2-D tensor keeps both."""
    rank = len(extents)
    spanned = [d for d in range(rank) if not (isinstance(extents[d], tirx.IntImm) and int(extents[d]) == 1)]
    for d in reversed(range(rank)):
        if len(spanned) >= 2:
            break
        if d not in spanned:
            spanned.append(d)
    return sorted(spanned)


def _inline_global_values(stmts: list, written: set[str]) -> list:
    """``stmts`` with each named value read from a global tensor the kernel does not write (``m_v =
    Mean[row]``, TileLang's LayerNorm backward, one row per loop iteration) put into the T.Parallel
    statements after it that use it, when only such statements do: there it is one more global read,
    staged like the others (a copy of one value, a row of the tensor, row_copies.py)."""
    out, rest = [], list(stmts)
    while rest:
        stmt = rest.pop(0)
        value = stmt.value if isinstance(stmt, tirx.Bind) else None
        if (
            isinstance(value, tvm.ir.TensorLoad)
            and is_global(value.source)
            and str(value.source.name) not in written
            and _used_only_in_nests(stmt.var, rest)
        ):
            rest = [_substitute(x, stmt.var, value) for x in rest]
        else:
            out.append(stmt)
    return out


def _substitute(stmt, var, value):
    return tvm_ffi.structural_map(stmt, (tvm.ir.Var, lambda v: value if v.same_as(var) else v))


def _used_only_in_nests(var, stmts: list) -> bool:
    """Whether ``var`` appears in ``stmts``, and only inside T.Parallel nests."""
    inside = [x for x in stmts if parallel_loc(x) and any(v.same_as(var) for v in collect_vars(x))]
    outside = [x for x in stmts if not parallel_loc(x) and any(v.same_as(var) for v in collect_vars(x))]
    return bool(inside) and not outside


def _uses(node, var) -> bool:
    return any(v.same_as(var) for v in collect_vars(node))


def _mentions(node, name: str) -> int:
    """How many loads, stores and copies of ``node`` name the buffer ``name``."""
    found = []
    tvm_ffi.structural_walk(
        node,
        [
            (tvm.ir.TensorLoad, lambda t: found.append(t) if str(t.source.name) == name else None),
            (tirx.BufferStore, lambda t: found.append(t) if str(t.buffer.name) == name else None),
            (tvm.ir.TensorRegion, lambda t: found.append(t) if str(t.source.name) == name else None),
        ],
    )
    return len(found)


def _column_store(store, i, k):
    """``(mins, spanned, along)`` when ``store`` (in a 1-D T.Parallel over ``i``) writes a 2-D global tensor
    at ``(base + i, c + k)`` or ``(c + k, base + i)``: the region's start, the dimension the nest spans and
    the one ``k`` moves along; None otherwise."""
    if not isinstance(store, tirx.BufferStore) or not is_global(store.buffer) or len(store.indices) != 2:
        return None
    mins = [
        simplify(
            tvm_ffi.structural_map(x, (tvm.ir.Var, lambda v: tirx.const(0, "int32") if v.same_as(i) else v))
        )
        for x in store.indices
    ]
    spanned = [
        d for d, (x, m) in enumerate(zip(store.indices, mins, strict=True)) if simplify(x - m).same_as(i)
    ]
    along = [d for d, m in enumerate(mins) if _uses(m, k)]
    if len(spanned) != 1 or along != [1 - spanned[0]] or _uses(simplify(mins[along[0]] - k), k):
        return None
    return mins, spanned[0], along[0]


def _gather_loop_columns(loop: tirx.For, taken: set[str]):
    """A loop whose body stores, once per iteration, one column (row) of a global tensor at the loop's
    position (top-k's ``for k in T.serial(topk): ... for i in T.Parallel(blk_m): topk_gates[bx * blk_m +
    i, k] = max_val[i]``) as statements: a fragment zeroed before the loop gathers the columns, and is
    copied out after it as one region of the tensor — a tile's column alone is narrower than a tile, and
    nothing else in the loop touches the tensor, so its stores may wait until the loop ends. ``loop``
    itself when it is not of that form."""
    extent = simplify(loop.extent)
    if parallel_loc(loop) or not isinstance(extent, tirx.IntImm):
        return loop
    k, n = loop.loop_var, int(extent.value)
    body = list(loop.body.seq) if isinstance(loop.body, tirx.SeqStmt) else [loop.body]
    before, after = [], []

    def gathered(nest: tirx.For):
        i = nest.loop_var
        if not isinstance(simplify(nest.extent), tirx.IntImm):  # a located error later, at the nest
            return nest
        stores = list(nest.body.seq) if isinstance(nest.body, tirx.SeqStmt) else [nest.body]
        out = []
        for store in stores:
            found = _column_store(store, i, k)
            name = str(store.buffer.name) if found else ""
            if not found or _mentions(loop.body, name) != 1:
                out.append(store)
                continue
            mins, spanned, along = found
            shape = [0, 0]
            shape[spanned], shape[along] = int(nest.extent), n
            tile_name = f"{name}_{'columns' if along == 1 else 'rows'}"
            while tile_name in taken:
                tile_name += "_"
            taken.add(tile_name)
            tile = tirx.decl_buffer(shape, store.buffer.ty.dtype, tile_name, scope="local.fragment")
            position = [None, None]
            position[spanned], position[along] = i, simplify(k - loop.min)
            out.append(tirx.BufferStore(tile, store.value, position))
            loc = parallel_loc(nest)
            whole = tirx.BufferRegion(tile, [tvm.ir.Range.from_min_extent(0, e) for e in shape])
            at_start = (tvm.ir.Var, lambda v: loop.min if v.same_as(k) else v)
            target = tirx.BufferRegion(
                store.buffer,
                [
                    tvm.ir.Range.from_min_extent(simplify(tvm_ffi.structural_map(m, at_start)), e)
                    for m, e in zip(mins, shape, strict=True)
                ],
            )
            before.extend(
                [
                    tirx.AllocBuffer(tile),
                    tirx.Evaluate(ops.call("tl.fill", whole, tirx.const(0.0, "float32"), loc)),
                ]
            )
            after.append(tirx.Evaluate(ops.call("tl.copy", whole, target, loc)))
        return with_loop_body(nest, tirx.SeqStmt(out) if len(out) > 1 else out[0])

    body = [gathered(s) if parallel_loc(s) and len(_nest(s)[0]) == 1 else s for s in body]
    if not after:
        return loop
    return tirx.SeqStmt(
        [*before, with_loop_body(loop, tirx.SeqStmt(body) if len(body) > 1 else body[0]), *after]
    )


class _Stager:
    def __init__(self, nest: tirx.For, taken: set[str]):
        self.nest, self.loc = nest, parallel_loc(nest)
        self.taken = taken  # staging buffer names given so far in the function: each nest has its own
        self.vars, self.extents = _nest(nest)
        self.tiles: dict[str, tuple] = {}  # tensor → (tile buffer, region mins, extents)
        self.loaded: list[str] = []
        self.stored: list[str] = []

    def _tile_for(self, buf, indices):
        """The staging buffer for ``buf`` and the tile indices replacing ``indices``."""
        zero = {v: tirx.const(0, "int32") for v in self.vars}
        mins, extents, tile_indices = [], [], []
        for idx in indices:
            base = simplify(tvm_ffi.structural_map(idx, (tvm.ir.Var, lambda v: zero.get(v, v))))
            offset = simplify(idx - base)
            hit = [k for k, v in enumerate(self.vars) if offset.same_as(v)]
            if hit:
                extents.append(self.extents[hit[0]])
                tile_indices.append(self.vars[hit[0]])
            elif isinstance(offset, tirx.IntImm) and offset.value == 0:
                extents.append(tirx.const(1, "int32"))
                tile_indices.append(tirx.const(0, "int32"))
            else:
                gather = any(_divides(i) for i in indices)
                raise TTCompileError.at(
                    self.loc,
                    f"{buf.name}[{', '.join(str(i) for i in indices)}]: an element-wise statement indexes a "
                    "global tensor by a start plus one T.Parallel variable per dimension on Tenstorrent"
                    + (
                        "; a gather by computed indices is not supported yet (a convolution's im2col gather "
                        "is: T.im2col(data, data_shared, by, k_iter, KH, S, D, P))"
                        if gather
                        else ""
                    ),
                )
            mins.append(base)
        name = str(buf.name)
        if name in self.tiles:
            tile, old_mins, _ = self.tiles[name]
            if not all(provably_equal(a, b) for a, b in zip(old_mins, mins, strict=True)):
                raise TTCompileError.at(
                    self.loc, f"this T.Parallel body reads {name} at two different places; use one region"
                )
        else:
            kept = _tile_dimensions(extents)
            tile_name = f"{name}_tile"
            while tile_name in self.taken:  # another nest stages the same tensor
                tile_name = f"{name}_tile{sum(1 for t in self.taken if t.startswith(f'{name}_tile'))}"
            self.taken.add(tile_name)
            tile = tirx.decl_buffer(
                [extents[d] for d in kept], buf.ty.dtype, tile_name, scope="local.fragment"
            )
            self.tiles[name] = (tile, mins, extents)
        return self.tiles[name][0], [tile_indices[d] for d in _tile_dimensions(extents)]

    def rewrite_body(self):
        def load(t):
            if not is_global(t.source):
                return t
            if str(t.source.name) not in self.loaded:
                self.loaded.append(str(t.source.name))
            tile, idx = self._tile_for(t.source, list(t.indices))
            return tirx.BufferLoad(tile, idx)

        def store(s):
            if not is_global(s.buffer):
                return s
            if str(s.buffer.name) not in self.stored:
                self.stored.append(str(s.buffer.name))
            tile, idx = self._tile_for(s.buffer, list(s.indices))
            return tirx.BufferStore(tile, s.value, idx)

        return tvm_ffi.structural_map(
            self.nest, [(tvm.ir.TensorLoad, load), (tirx.BufferStore, store)], order="post"
        )

    def _region(self, name, tensor_side: bool, globals_by_name):
        tile, mins, extents = self.tiles[name]
        if tensor_side:
            return tirx.BufferRegion(
                globals_by_name[name],
                [tvm.ir.Range.from_min_extent(m, e) for m, e in zip(mins, extents, strict=True)],
            )
        return tirx.BufferRegion(
            tile, [tvm.ir.Range.from_min_extent(tirx.const(0, "int32"), e) for e in tile.shape]
        )

    def staged(self, globals_by_name) -> list:
        nest = self.rewrite_body()
        if not self.tiles:
            return [self.nest]
        out = [tirx.AllocBuffer(tile) for tile, _, _ in self.tiles.values()]
        for name in self.loaded:
            if name in self.stored:
                raise TTCompileError.at(
                    self.loc,
                    f"this T.Parallel body both reads and writes the global tensor {name}; "
                    "stage it in a fragment",
                )
            out.append(
                tirx.Evaluate(
                    ops.call(
                        "tl.copy",
                        self._region(name, True, globals_by_name),
                        self._region(name, False, globals_by_name),
                        self.loc,
                    )
                )
            )
        out.append(nest)
        for name in self.stored:
            out.append(
                tirx.Evaluate(
                    ops.call(
                        "tl.copy",
                        self._region(name, False, globals_by_name),
                        self._region(name, True, globals_by_name),
                        self.loc,
                    )
                )
            )
        return out


def StageElementGlobalsTT() -> tvm.transform.Pass:  # noqa: N802
    def transform(func: tirx.PrimFunc, mod, ctx) -> tirx.PrimFunc:
        globals_by_name = {str(p.name): p for p in func.params if hasattr(p.ty, "shape")}
        taken: set[str] = set()

        def staged(stmt) -> list:
            return _Stager(stmt, taken).staged(globals_by_name) if parallel_loc(stmt) else [stmt]

        def as_stmt(stmts: list):
            return tirx.SeqStmt(stmts) if len(stmts) > 1 else stmts[0]

        written = {str(ops.fields(site.call).dst.source.name) for site in find_ops(func.body, ("tl.copy",))}
        tvm_ffi.structural_walk(func.body, (tirx.BufferStore, lambda st: written.add(str(st.buffer.name))))

        def block(s: tirx.SeqStmt):
            return as_stmt([x for stmt in _inline_global_values(list(s.seq), written) for x in staged(stmt)])

        # A nest that is the whole body of a loop, a launch or a branch is in no sequence: stage it there.
        def loop(f: tirx.For):
            if parallel_loc(f) or not parallel_loc(f.body):
                return f
            return with_loop_body(f, as_stmt(staged(f.body)))

        def attr(a: tirx.AttrStmt):
            return (
                a
                if not parallel_loc(a.body)
                else tirx.AttrStmt(a.node, a.attr_key, a.value, as_stmt(staged(a.body)))
            )

        def branch(b: tirx.IfThenElse):
            then, other = (None if x is None else as_stmt(staged(x)) for x in (b.then_case, b.else_case))
            return tirx.IfThenElse(b.condition, then, other)

        body = tvm_ffi.structural_map(
            func.body, (tirx.For, lambda f: _gather_loop_columns(f, taken)), order="post"
        )
        body = tvm_ffi.structural_map(
            body,
            [(tirx.SeqStmt, block), (tirx.For, loop), (tirx.AttrStmt, attr), (tirx.IfThenElse, branch)],
            order="post",
        )
        return func.with_body(as_stmt(staged(body)))

    return tirx.transform.prim_func_pass(transform, opt_level=0, name="StageElementGlobalsTT")
