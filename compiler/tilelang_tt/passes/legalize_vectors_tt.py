"""A0 · LegalizeVectorsTT — give every 1-D buffer the 2-D shape its tiles have on Tenstorrent.

A tile is 32×32, so a vector lives in a tile as a column (one value per row: a row maximum ``m[i]`` of a
2-D tile ``S[i, j]``) or as a row (one value per column: a weight ``w[j]``). This pass decides which from
how the program uses each 1-D buffer and reshapes it: a column vector of length L becomes (L, 1), a row
vector (1, L); every index, region and parameter follows. After it, broadcasting is ordinary 2-D indexing
(``m[i, 0]`` against ``S[i, j]``) and every later pass sees 2-D buffers only.

Input expectations
    A PrimFunc from the DSL: ``tl.*`` tile ops, ``T.Parallel`` nests (loops annotated ``tl.loc``).
Output guarantees
    No 1-D buffer remains. How a vector's orientation is decided (constraints are unified across copies and
    element-wise statements, so ``m_prev[i] = m[i]`` shares ``m``'s orientation):
      * ``T.reduce_*(S, v, dim=1)`` → column (a value per row of S); ``dim=0`` → row;
      * in a 2-D ``T.Parallel(i, j)`` body, ``v[i]`` → column, ``v[j]`` → row;
      * a 1-D ``T.Parallel`` body, a ``T.copy`` or ``T.fill`` ties the vectors it touches together; a copy
        from a 2-D region one row (column) wide makes a row (column);
      * a vector read one element at a time into a named value (``m_v = Mean[row]``), where nothing
        else decides → column (each value a row of its tiles, which a copy can read alone);
      * nothing decides → row.
    A statement that uses a vector the other way than its class (the first statement to fix a class decides)
    reads and writes a copy of it in that orientation instead, made by ``tl.transpose`` before the statement
    when it reads the vector and transposed back after it when it writes it: a column of row maxima copied
    into a row of a tensor, or a row of column sums scaling the rows of a tile. One statement using a vector
    both ways is a TTCompileError; a copy between two vectors whose classes were fixed differently is such a
    statement (it writes a copy in the source's orientation, transposed back into the destination).
    ``tt.declared_shapes`` {tensor: shape} keeps the shape callers pass for reshaped parameters.
Example
    before: m = T.alloc_fragment((64,), "float32"); T.tl.reduce(S[0:64, 0:64], m[0:64], "max", 1, 1, l)
    after:  m = T.alloc_fragment((64, 1), "float32"); T.tl.reduce(S[0:64, 0:64], m[0:64, 0:1], "max", 1, 1, l)
Test
    ./bazelw test //compiler/tests/passes:passes_test --test_arg=-k --test_arg=test_legalize_vectors_tt
"""

from __future__ import annotations

import tvm
import tvm_ffi
from tvm import tirx
from tvm_ffi.structural import WalkResult

from .. import ops
from ..errors import TTCompileError
from ..ir_utils import collect_vars, get_attr, parallel_loc, seq, substitute_buffers

COLUMN, ROW = "column", "row"


class _Orientations:
    """Union-find over vector names, each class with at most one fixed orientation."""

    def __init__(self, names):
        self.parent = {n: n for n in names}
        self.fixed: dict[str, tuple[str, str]] = {}  # root → (orientation, loc that fixed it)
        self.crossings: dict[object, dict[str, str]] = {}  # statement → {vector: orientation it wants}

    def root(self, name):
        while self.parent[name] != name:
            self.parent[name] = self.parent[self.parent[name]]
            name = self.parent[name]
        return name

    def fix(self, name, orientation, loc, site=None):
        """Fix ``name``'s class to ``orientation``. A statement ``site`` that wants the other orientation of
        a class already fixed is recorded as a crossing (it will use a transposed copy); without a site, the
        contradiction is a TTCompileError."""
        r = self.root(name)
        if r in self.fixed and self.fixed[r][0] != orientation:
            if site is not None:
                self.crossings.setdefault(site, {})[name] = orientation
                return
            raise TTCompileError.at(
                loc,
                f"{name} is used here as a {orientation} vector but as a {self.fixed[r][0]} vector at "
                f"{self.fixed[r][1] or 'an earlier line'}; a 1-D buffer holds one or the other on "
                "Tenstorrent",
            )
        self.fixed.setdefault(r, (orientation, loc))

    def union(self, a, b, loc):
        ra, rb = self.root(a), self.root(b)
        if ra == rb:
            return
        self.parent[rb] = ra
        if rb in self.fixed:
            orientation, where = self.fixed.pop(rb)
            self.fix(ra, orientation, loc if ra in self.fixed else where)

    def of(self, name):
        return self.fixed.get(self.root(name), (ROW, ""))[0]


def _vectors(func) -> dict[str, object]:
    found = {str(p.name): p for p in func.params if len(getattr(p.ty, "shape", [])) == 1}

    def alloc(a):
        if len(a.buffer.ty.shape) == 1:
            found[str(a.buffer.name)] = a.buffer

    tvm_ffi.structural_walk(func.body, (tirx.AllocBuffer, alloc))
    return found


def _accesses(stmt) -> list[tuple[object, list]]:
    """(buffer, indices) of every element load and store under ``stmt``."""
    found = []
    tvm_ffi.structural_walk(
        stmt,
        [
            (tirx.BufferStore, lambda s: found.append((s.buffer, list(s.indices)))),
            (tvm.ir.TensorLoad, lambda t: found.append((t.source, list(t.indices)))),
        ],
    )
    return found


def _constrain(func, vectors) -> _Orientations:
    uf = _Orientations(vectors)

    def parallel(nest: tirx.For):
        loc = parallel_loc(nest)
        loop_vars, body = [], nest
        while isinstance(body, tirx.For):
            loop_vars.append(body.loop_var)
            body = body.body
        names, along, wanted = [], None, {}
        for buf, indices in _accesses(body):
            name = str(buf.name)
            if name not in vectors:
                if len(loop_vars) == 1 and len(indices) >= 2:  # X[k, i] walks a row of X, X[i, k] a column
                    walks = [loop_vars[0].name in {v.name for v in collect_vars(x)} for x in indices[-2:]]
                    along = ROW if walks == [False, True] else COLUMN if walks == [True, False] else along
                continue
            names.append(name)
            if len(loop_vars) >= 2:
                used = {v.name for v in collect_vars(indices[0])}
                orientation = (
                    ROW if loop_vars[-1].name in used else COLUMN if loop_vars[-2].name in used else None
                )
                if orientation is not None and wanted.setdefault(name, orientation) != orientation:
                    raise TTCompileError.at(
                        loc,
                        f"{name} is used in this statement both as a row vector and as a column vector; a "
                        "1-D buffer holds one or the other on Tenstorrent (copy it into a second vector for "
                        "one of the uses)",
                    )
        for name, orientation in wanted.items():
            uf.fix(name, orientation, loc, nest)
        if len(loop_vars) == 1:
            for other in names[1:]:
                uf.union(names[0], other, loc)
            if along is not None:
                for name in dict.fromkeys(names):
                    uf.fix(name, along, loc, nest)

    def visit(stmt):
        if isinstance(stmt, tirx.For) and stmt.annotations and "tl.loc" in stmt.annotations:
            parallel(stmt)
            return WalkResult.SKIP  # the nest's inner loops are part of this statement
        return WalkResult.ADVANCE

    tvm_ffi.structural_walk(func.body, (tirx.For, visit), order="pre")
    named_reads = []  # vectors read one element at a time into a named value: ``m_v = Mean[row]``

    def named_read(b):
        if isinstance(b.value, tvm.ir.TensorLoad) and str(b.value.source.name) in vectors:
            named_reads.append(str(b.value.source.name))

    tvm_ffi.structural_walk(func.body, (tirx.Bind, named_read))
    for call_node in _tile_calls(func.body):
        loc = ops.loc_of(call_node)
        regions = [a for a in call_node.args if isinstance(a, tvm.ir.TensorRegion)]
        vec = [r for r in regions if str(r.source.name) in vectors]
        if ops.is_op(call_node, "tl.reduce") and len(regions) == 2 and regions[1] in vec:
            dim = ops.fields(call_node).dim
            uf.fix(str(regions[1].source.name), COLUMN if dim == 1 else ROW, loc, call_node)
        elif ops.is_op(call_node, "tl.copy") and vec:
            src, dst = (str(r.source.name) for r in vec) if len(vec) == 2 else (None, None)
            held = [uf.fixed.get(uf.root(n), (None,))[0] for n in (src, dst)] if src else []
            if src and None not in held and held[0] != held[1]:
                # a row copied into a column (Mamba's chunk scan): the copy writes a row and transposes it
                uf.crossings.setdefault(call_node, {})[dst] = held[0]
            elif src:
                uf.union(src, dst, loc)
            else:
                other = next(r for r in regions if r not in vec)
                extents = [
                    int(r.extent.value) if isinstance(r.extent, tirx.IntImm) else 0 for r in other.region
                ]
                if len(extents) >= 2 and extents[-1] == 1 and extents[-2] != 1:
                    uf.fix(str(vec[0].source.name), COLUMN, loc, call_node)
                elif len(extents) >= 2 and extents[-2] == 1:
                    uf.fix(str(vec[0].source.name), ROW, loc, call_node)
    for name in named_reads:  # where nothing else decides: a column, so that each value is a row of its
        if uf.root(name) not in uf.fixed:  # tiles, which a copy can read alone (row_copies.py)
            uf.fix(name, COLUMN, "")
    return uf


def _tile_calls(stmt) -> list:
    found = []

    def visit(c):
        if isinstance(c.op, tvm.ir.Op) and str(c.op.name).startswith("tl."):
            found.append(c)

    tvm_ffi.structural_walk(stmt, (tvm.ir.Call, visit))
    return found


_DESTINATION = {"tl.copy": 1, "tl.reduce": 1, "tl.transpose": 1, "tl.fill": 0}  # region a tile op writes


def _reads_writes(stmt, buf) -> tuple[bool, bool]:
    """Whether the statement (a ``T.Parallel`` nest or a tile op's Evaluate) reads and writes ``buf``."""
    if isinstance(stmt, tirx.Evaluate):
        call = stmt.value
        regions = [a for a in call.args if isinstance(a, tvm.ir.TensorRegion)]
        mine = [i for i, r in enumerate(regions) if r.source.same_as(buf)]
        dst = _DESTINATION.get(str(call.op.name))
        writes = dst is None or dst in mine
        accumulates = ops.is_op(call, "tl.reduce") and not ops.fields(call).clear
        return dst is None or accumulates or any(i != dst for i in mine), writes
    loads, stores = [], []
    tvm_ffi.structural_walk(
        stmt,
        [
            (tirx.BufferStore, lambda b: stores.append(b) if b.buffer.same_as(buf) else None),
            (tvm.ir.TensorLoad, lambda t: loads.append(t) if t.source.same_as(buf) else None),
        ],
    )
    return bool(loads), bool(stores)


def _transpose(src, dst, loc: str) -> tirx.Evaluate:
    whole = [tvm.ir.Range.from_min_extent(tirx.const(0, "int32"), src.ty.shape[0])]
    return tirx.Evaluate(
        ops.call("tl.transpose", tirx.BufferRegion(src, whole), tirx.BufferRegion(dst, whole), loc)
    )


def _cross(func, vectors, uf):
    """Each statement that uses a vector in the orientation its class does not hold (a column of row maxima
    copied into a row of a tensor, ``lse[k, i]`` read into a vector that scales rows) gets a copy of the
    vector in that orientation: transposed from it before the statement when the statement reads it,
    transposed back after when it writes it. Returns the new body; the copies join ``vectors`` and ``uf``."""
    made: dict[str, int] = {}

    def crossed(stmt, key, loc):
        wanted = uf.crossings.get(key)
        if not wanted:
            return None
        before, after = [], []
        for name, orientation in wanted.items():
            buf = vectors[name]
            made[name] = made.get(name, 0) + 1
            copy = tirx.decl_buffer(
                buf.ty.shape, buf.ty.dtype, f"{name}_{orientation}{made[name]}", scope=buf.ty.storage_scope
            )
            vectors[str(copy.name)] = copy
            uf.parent[str(copy.name)] = str(copy.name)
            uf.fixed[str(copy.name)] = (orientation, loc)
            reads, writes = _reads_writes(stmt, buf)
            before.append(tirx.AllocBuffer(copy))
            if reads:
                before.append(_transpose(buf, copy, loc))
            if writes:
                after.append(_transpose(copy, buf, loc))
            stmt = substitute_buffers(stmt, {buf: copy})
        return seq([*before, stmt, *after])

    def on_for(nest, mutator):
        loc = parallel_loc(nest)
        if loc is not None:
            return crossed(nest, nest, loc) or nest
        return mutator.default_mutate(nest)

    def on_evaluate(ev, mutator):
        if isinstance(ev.value, tvm.ir.Call) and ev.value in uf.crossings:
            return crossed(ev, ev.value, ops.loc_of(ev.value)) or ev
        return ev

    return tvm_ffi.structural_mutate(func.body, [(tirx.For, on_for), (tirx.Evaluate, on_evaluate)])


def _reshape(vector, orientation):
    length = vector.ty.shape[0]
    shape = [length, 1] if orientation == COLUMN else [1, length]
    return tirx.decl_buffer(shape, vector.ty.dtype, str(vector.name), scope=vector.ty.storage_scope)


def _index(orientation, index):
    zero = tirx.const(0, "int32")
    return [index, zero] if orientation == COLUMN else [zero, index]


def _rewrite(func, vectors, uf):
    new = {name: _reshape(buf, uf.of(name)) for name, buf in vectors.items()}

    def lookup(buf):
        name = str(buf.name)
        return (new[name], uf.of(name)) if name in vectors and vectors[name].same_as(buf) else (None, None)

    def store(s):
        buf, orientation = lookup(s.buffer)
        return s if buf is None else tirx.BufferStore(buf, s.value, _index(orientation, s.indices[0]))

    def load(t):
        buf, orientation = lookup(t.source)
        return t if buf is None else tirx.BufferLoad(buf, _index(orientation, t.indices[0]))

    def region(r):
        buf, orientation = lookup(r.source)
        if buf is None:
            return r
        whole = tvm.ir.Range.from_min_extent(tirx.const(0, "int32"), tirx.const(1, "int32"))
        ranges = [r.region[0], whole] if orientation == COLUMN else [whole, r.region[0]]
        return tirx.BufferRegion(buf, ranges)

    def alloc(a):
        buf, _ = lookup(a.buffer)
        return a if buf is None else tirx.AllocBuffer(buf, a.annotations)

    def reduce_of_a_vector(ev):
        """``T.reduce_max(v, out)`` of a whole vector: its one dimension is the tile dimension it lies
        along, 1 for a row (1, L), 0 for a column (L, 1)."""
        if not ops.is_op(ev, "tl.reduce"):
            return ev
        src = ops.fields(ev.value).src
        orientation = next((uf.of(name) for name, b in new.items() if b.same_as(src.source)), None)
        if orientation is None:
            return ev
        args = list(ev.value.args)
        args[3] = tirx.const(1 if orientation == ROW else 0, "int32")
        return tirx.Evaluate(tvm.ir.Call(ev.value.op, args, ret_ty=ev.value.ty))

    body = tvm_ffi.structural_map(
        func.body,
        [
            (tirx.BufferStore, store),
            (tvm.ir.TensorLoad, load),
            (tvm.ir.TensorRegion, region),
            (tirx.AllocBuffer, alloc),
            (tirx.Evaluate, reduce_of_a_vector),
        ],
        order="post",
    )
    params = [p if lookup(p)[0] is None else lookup(p)[0] for p in func.params]
    declared = {
        name: [int(buf.ty.shape[0])]
        for name, buf in vectors.items()
        if any(p.same_as(buf) for p in func.params)
    }
    declared.update(get_attr(func, "tt.declared_shapes", {}))  # a view's caller shape (ResolveTensorViewsTT)
    out = tirx.PrimFunc(params, body, func.ret_type, func.attrs)
    return out.with_attr("tt.declared_shapes", declared) if declared else out


def LegalizeVectorsTT() -> tvm.transform.Pass:  # noqa: N802
    def transform(func: tirx.PrimFunc, mod, ctx) -> tirx.PrimFunc:
        vectors = _vectors(func)
        if not vectors:
            return func
        uf = _constrain(func, vectors)
        if uf.crossings:
            func = func.with_body(_cross(func, vectors, uf))
        return _rewrite(func, vectors, uf)

    return tirx.transform.prim_func_pass(transform, opt_level=0, name="LegalizeVectorsTT")
