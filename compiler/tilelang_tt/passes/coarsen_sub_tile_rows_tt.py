"""A005 · CoarsenSubTileRowsTT — grid points whose blocks are narrower than a tile share one core's tiles.

TileLang's norms and softmax launch one grid point per row (``T.Kernel(T.ceildiv(M, blk_m))`` with
``blk_m = 1``) and give each its own ``(blk_m, N)`` buffers. A Tenstorrent tile is 32 rows: one point per
core would waste 31 of every 32 rows and pay a kernel's overhead per row. Since the points of such a grid
compute their rows independently, ``32 / blk_m`` consecutive points become one: the grid axis ``bx`` that
walks the row blocks is divided by ``c = 32 / blk_m`` and every row buffer gets 32 rows, block point
``r`` of the new point owning rows ``r * blk_m ... r * blk_m + blk_m`` of it (``bx`` was ``bx * c + r``):
  * a copy between a global tensor and a row buffer whose rows start at ``bx * blk_m + e`` copies the 32
    rows at ``bx * 32 + e``; fills, copies between row buffers and reductions along a row cover 32 rows;
  * ``T.gemm(A, B, C)`` with ``A`` and ``C`` row buffers multiplies 32 rows by the same ``B``;
  * a ``T.Parallel`` nest over a row buffer's ``blk_m`` rows runs over the 32 (``i`` becomes ``i % blk_m``
    and ``r`` ``i // blk_m``), and with ``blk_m = 1`` a nest that does not loop over the rows gets a loop
    over ``r``.
Each point's rows are computed exactly as before (nothing is padded away); a last block past the tensor's
end reads zeros and its writes are dropped, as any edge block. Anything that would mix the rows of
different points (a reduction across rows, a ``B`` operand or a loop bound that depends on the point,
scalar code per point) is a TTCompileError at its line.

Input expectations
    A PrimFunc from the DSL: launch threads at the top, tile operators and ``T.Parallel`` nests.
Output guarantees
    Unchanged unless a copy between a global tensor and a tile buffer of ``b`` < 32 rows (32 % b == 0)
    starts at ``bx * b + e`` for a launch axis ``bx``; then that axis has ``ceildiv(extent, 32 / b)``
    points and every tile buffer of ``b`` rows has 32, as above.
Example
    before: with T.Kernel(M) as bx: x = T.alloc_fragment((1, N)); T.copy(A[bx, 0], x) ...
    after:  with T.Kernel(T.ceildiv(M, 32)) as bx: x = T.alloc_fragment((32, N)); T.copy(A[bx * 32, 0], x)
Test
    ./bazelw test //compiler/tests/passes:passes_test --test_arg=-k --test_arg=test_coarsen_sub_tile_rows_tt
"""

from __future__ import annotations

import tvm
import tvm_ffi
from tvm import tirx

from .. import ops
from ..errors import TTCompileError
from ..ir_utils import (
    buffer_scope,
    collect_vars,
    def_loc,
    is_global,
    parallel_loc,
    provably_equal,
    seq,
    simplify,
)
from ..target import TILE

_TILE_SCOPES = ("shared", "shared.dyn", "local.fragment", "local")


def _launches(func) -> tuple[list, tirx.Stmt]:
    launches, node = [], func.body
    while isinstance(node, tirx.AttrStmt) and node.attr_key == "thread_extent":
        launches.append(node)
        node = node.body
    return launches, node


def _uses(node, var) -> bool:
    return any(v.same_as(var) for v in collect_vars(node))


def _linear(expr, var):
    """(coefficient, rest) when ``expr`` is affine in ``var``, else None."""
    coefficients = tvm.sym.detect_linear_equation(expr, [var])
    if len(coefficients) != 2:
        return None
    return coefficients[0], coefficients[1]


def _tile_buffers(body) -> dict:
    """The tile buffers (shared, fragment, local) allocated in ``body``, by name."""
    found = {}

    def alloc(a):
        if buffer_scope(a.buffer) in _TILE_SCOPES:
            found.setdefault(str(a.buffer.name), a.buffer)

    tvm_ffi.structural_walk(body, (tirx.AllocBuffer, alloc))
    return found


def _sub_tile_axis(launches, body, buffers) -> tuple | None:
    """(launch, rows per point) of the axis whose points own fewer than 32 rows of a global tensor."""
    for call in _calls(body, "tl.copy"):
        f = ops.fields(call)
        for glob, tile in ((f.src, f.dst), (f.dst, f.src)):
            if not is_global(glob.source) or str(tile.source.name) not in buffers:
                continue
            shape = list(tile.source.ty.shape)
            b = shape[0]
            if not isinstance(b, tirx.IntImm) or not 0 < int(b) < TILE or TILE % int(b):
                continue
            row = len(glob.region) - len(shape)
            if row < 0:
                continue
            start = glob.region[row].min
            for launch in launches:
                linear = _linear(start, launch.node.var)
                if linear is not None and isinstance(linear[0], tirx.IntImm) and int(linear[0]) == int(b):
                    return launch, int(b)
    return None


def _calls(body, name: str) -> list:
    found = []
    tvm_ffi.structural_walk(
        body,
        (
            tvm.ir.Call,
            lambda c: found.append(c) if ops.is_op(tirx.Evaluate(c), name) else None,
        ),
    )
    return found


class _Coarsen:
    def __init__(self, func, launch, rows: int, buffers: dict):
        self.loc = def_loc(func)
        self.var = launch.node.var
        self.b = rows
        self.c = TILE // rows
        self.point = tirx.Var("point", "int32")  # r: which of the c grid points a row belongs to
        # the row buffers: every tile buffer of ``rows`` leading rows is one per point
        self.new = {
            n: tirx.decl_buffer([TILE, *list(buf.ty.shape)[1:]], buf.ty.dtype, n, scope=buffer_scope(buf))
            for n, buf in buffers.items()
            if isinstance(buf.ty.shape[0], tirx.IntImm) and int(buf.ty.shape[0]) == rows
        }

    # -- expressions
    def index(self, node):
        """Grid index → coarse index; row-buffer accesses gain the point's row offset."""

        def var(v):
            return v * self.c + self.point if v.same_as(self.var) else v

        def load(t):
            name = str(t.source.name)
            if name not in self.new:
                return t
            indices = list(t.indices)
            return tirx.BufferLoad(self.new[name], [self.point * self.b + indices[0], *indices[1:]])

        node = tvm_ffi.structural_map(node, (tvm.ir.Var, var), order="post")
        return tvm_ffi.structural_map(node, (tvm.ir.TensorLoad, load), order="post")

    def store(self, s: tirx.BufferStore) -> tirx.BufferStore:
        value = self.index(s.value)
        indices = [self.index(i) for i in s.indices]
        name = str(s.buffer.name)
        if name in self.new:
            return tirx.BufferStore(self.new[name], value, [self.point * self.b + indices[0], *indices[1:]])
        return tirx.BufferStore(s.buffer, value, indices)

    def region(self, r, loc: str):
        """A tile region of a row buffer (all its rows) or a global region whose rows start at the point's."""
        name = str(r.source.name)
        ranges = [tvm.ir.Range.from_min_extent(self.index(x.min), self.index(x.extent)) for x in r.region]
        if name in self.new:
            first = ranges[0]
            if not (provably_equal(first.min, 0) and provably_equal(first.extent, self.b)):
                raise TTCompileError.at(
                    loc,
                    f"a slice of the {self.b} row(s) of {name} in a grid of blocks narrower than a tile is "
                    f"not supported on Tenstorrent yet; use all of its rows",
                )
            ranges[0] = tvm.ir.Range.from_min_extent(tirx.const(0, "int32"), tirx.const(TILE, "int32"))
            return tirx.BufferRegion(self.new[name], ranges)
        if not _uses(r.region, self.var):
            return tirx.BufferRegion(r.source, ranges)
        row = len(ranges) - 2 if len(ranges) >= 2 else 0
        linear = _linear(ranges[row].min, self.point)
        if (
            linear is None
            or not provably_equal(linear[0], self.b)
            or not provably_equal(ranges[row].extent, self.b)
            or any(
                _uses(x.min, self.point) or _uses(x.extent, self.point)
                for i, x in enumerate(ranges)
                if i != row
            )
        ):
            raise TTCompileError.at(
                loc,
                f"{name}[{', '.join(str(x.min) for x in r.region)}] in a grid of blocks of {self.b} row(s): "
                f"each point's region must be its {self.b} row(s) at {self.var.name} * {self.b} (plus a "
                f"constant) for consecutive points to share a tile",
            )
        ranges[row] = tvm.ir.Range.from_min_extent(simplify(linear[1]), tirx.const(TILE, "int32"))
        return tirx.BufferRegion(r.source, ranges)

    # -- statements
    def stmt(self, node):
        if isinstance(node, tirx.SeqStmt):
            return seq([self.stmt(s) for s in node.seq])
        if isinstance(node, tirx.AllocBuffer):
            name = str(node.buffer.name)
            return tirx.AllocBuffer(self.new[name]) if name in self.new else node
        if isinstance(node, tirx.AttrStmt):
            return tirx.AttrStmt(node.node, node.attr_key, self.index(node.value), self.stmt(node.body))
        if isinstance(node, tirx.For):
            loc = parallel_loc(node)
            if loc is not None:
                return self.parallel(node, str(loc))
            loop = tirx.For(
                node.loop_var,
                self.index(node.min),
                self.index(node.extent),
                node.kind,
                self.stmt(node.body),
                node.thread_binding,
                node.annotations,
            )
            if _uses(loop.min, self.point) or _uses(loop.extent, self.point):
                raise TTCompileError.at(
                    self._loc_in(node),
                    "a loop whose bounds depend on the block, in a grid of blocks narrower than a tile, is "
                    "not supported on Tenstorrent yet (consecutive blocks share one core's tiles)",
                )
            return loop
        if (
            isinstance(node, tirx.Evaluate)
            and isinstance(node.value, tvm.ir.Call)
            and isinstance(node.value.op, tvm.ir.Op)
        ):
            return tirx.Evaluate(self.tile_op(node.value))
        if isinstance(node, tirx.IfThenElse):
            condition = self.index(node.condition)
            if _uses(condition, self.point):
                raise TTCompileError.at(
                    self._loc_in(node),
                    "a branch on the block in a grid of blocks narrower "
                    "than a tile is not supported on Tenstorrent yet",
                )
            other = self.stmt(node.else_case) if node.else_case is not None else None
            return tirx.IfThenElse(condition, self.stmt(node.then_case), other)
        if isinstance(node, tirx.BufferStore | tirx.Bind):
            out = (
                self.store(node)
                if isinstance(node, tirx.BufferStore)
                else tirx.Bind(node.var, self.index(node.value))
            )
            if _uses(out, self.point):
                raise TTCompileError.at(
                    self.loc,
                    "scalar code that depends on the block, in a grid of blocks narrower than a tile, is not "
                    "supported on Tenstorrent yet; write it as a T.Parallel statement over the block's rows",
                )
            return out
        return node

    def _loc_in(self, node) -> str:
        locs = []
        tvm_ffi.structural_walk(
            node,
            (
                tvm.ir.Call,
                lambda c: locs.append(ops.loc_of(c)) if isinstance(c.op, tvm.ir.Op) else None,
            ),
        )
        return next((x for x in locs if x), self.loc)

    def tile_op(self, call):
        loc = ops.loc_of(call)
        name = str(call.op.name)
        args = [
            self.region(a, loc) if isinstance(a, tvm.ir.TensorRegion) else self.index(a) for a in call.args
        ]
        rewritten = ops.call(name, *args)
        touched = [str(a.source.name) for a in call.args if isinstance(a, tvm.ir.TensorRegion)]
        rows = [n for n in touched if n in self.new]
        if (
            name == "tl.reduce"
            and rows
            and int(ops.fields(call).dim) == 0
            and len(call.args[0].source.ty.shape) > 1
        ):
            raise TTCompileError.at(
                loc,
                "a reduction across the rows of blocks narrower than a tile would mix "
                "the blocks' rows; it is not supported on Tenstorrent",
            )
        if name == "tl.gemm" and str(call.args[1].source.name) in self.new:
            raise TTCompileError.at(
                loc,
                "T.gemm with a B operand of the block's own rows, in a grid of blocks "
                "narrower than a tile, is not supported on Tenstorrent yet",
            )
        if name not in ("tl.copy", "tl.fill", "tl.reduce", "tl.gemm") and rows:
            raise TTCompileError.at(
                loc,
                f"{name.split('.')[-1]} of blocks narrower than a tile is not supported on Tenstorrent yet",
            )
        return rewritten

    def parallel(self, nest: tirx.For, loc: str):
        """A ``T.Parallel`` nest: its statements re-indexed; when they depend on the point, the nest walks
        the 32 rows of the coarse block (its row loop widened, or a row loop added when blocks are 1 row)."""
        loops, body = [], nest
        while isinstance(body, tirx.For) and parallel_loc(body) is not None:
            loops.append(body)
            body = body.body
        body = self.element(body)
        if _uses(body, self.point):
            first = loops[0]
            if provably_equal(first.extent, self.b) and provably_equal(first.min, 0):
                rows = tirx.Var(first.loop_var.name, first.loop_var.ty.dtype)
                b = tirx.const(self.b, "int32")
                body = _substitute(
                    body,
                    {
                        first.loop_var: tirx.floormod(rows, b),
                        self.point: tirx.floordiv(rows, b),
                    },
                )
                loops[0] = tirx.For(
                    rows,
                    0,
                    TILE,
                    first.kind,
                    first.body,
                    first.thread_binding,
                    first.annotations,
                )
            elif self.b == 1:
                loops.insert(
                    0,
                    tirx.For(
                        self.point,
                        0,
                        self.c,
                        first.kind,
                        first.body,
                        first.thread_binding,
                        first.annotations,
                    ),
                )
            else:
                raise TTCompileError.at(
                    loc,
                    f"a T.Parallel nest that does not walk the {self.b} rows of its blocks, in a grid of "
                    f"blocks narrower than a tile, is not supported on Tenstorrent yet",
                )
        for lp in reversed(loops):
            body = tirx.For(
                lp.loop_var,
                lp.min,
                lp.extent,
                lp.kind,
                body,
                lp.thread_binding,
                lp.annotations,
            )
        return body

    def element(self, node):
        if isinstance(node, tirx.SeqStmt):
            return seq([self.element(s) for s in node.seq])
        if isinstance(node, tirx.BufferStore):
            return self.store(node)
        if isinstance(node, tirx.Bind):
            return tirx.Bind(node.var, self.index(node.value))
        if isinstance(node, tirx.Evaluate):
            return tirx.Evaluate(self.index(node.value))
        return self.stmt(node)


def _substitute(node, mapping: dict):
    """``node`` with variables replaced and every buffer index simplified."""

    def var(v):
        return next((e for k, e in mapping.items() if k.same_as(v)), v)

    def load(t):
        return tirx.BufferLoad(t.source, [simplify(i) for i in t.indices])

    def store(s):
        return tirx.BufferStore(s.buffer, s.value, [simplify(i) for i in s.indices])

    node = tvm_ffi.structural_map(node, (tvm.ir.Var, var), order="post")
    return tvm_ffi.structural_map(node, [(tvm.ir.TensorLoad, load), (tirx.BufferStore, store)], order="post")


def CoarsenSubTileRowsTT() -> tvm.transform.Pass:  # noqa: N802
    def transform(func: tirx.PrimFunc, mod, ctx) -> tirx.PrimFunc:
        launches, body = _launches(func)
        buffers = _tile_buffers(body)
        found = _sub_tile_axis(launches, body, buffers)
        if found is None:
            return func
        launch, rows = found
        coarsen = _Coarsen(func, launch, rows, buffers)
        if not isinstance(launch.value, tirx.IntImm):
            raise TTCompileError.at(
                coarsen.loc,
                "a grid of blocks narrower than a tile needs a static extent",
            )
        out = _substitute(coarsen.stmt(body), {})
        if _uses(out, coarsen.point):
            raise TTCompileError.at(
                coarsen.loc,
                f"this kernel's blocks are {rows} row(s), narrower than a tile, and it uses its block index "
                f"in a way that would mix the rows of consecutive blocks; that is not supported on "
                f"Tenstorrent yet",
            )
        extent = tirx.const(-(-int(launch.value) // coarsen.c), "int32")
        for lp in reversed(launches):
            if lp.same_as(launch):
                node = lp.node
                axis = tirx.IterVar(tvm.ir.Range(0, extent), node.var, node.iter_type, node.thread_tag)
                out = tirx.AttrStmt(axis, lp.attr_key, extent, out)
            else:
                out = tirx.AttrStmt(lp.node, lp.attr_key, lp.value, out)
        return func.with_body(out)

    return tirx.transform.prim_func_pass(transform, opt_level=0, name="CoarsenSubTileRowsTT")
