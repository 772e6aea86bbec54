"""A · CheckTileBoundsTT — prove that every tile region starts inside its tensor.

TileLang gives out-of-range reads zeros and drops out-of-range writes, so a region may reach past a tensor's
end (K = 96 with block_K = 64, M = 275 with block_M = 64): the host pads each tensor's tile view with zeros
and LowerCBIntrinsics zero-fills (reads) or skips (writes) the tiles outside it. A region that starts at or
past the end for some loop values, or before the start, touches no element of its tensor — that is a bug in
the program, rejected here where shapes, block sizes and loop ranges are all static and the region can be
named on its DSL line. So is a region of an N-D tensor whose rows reach past its slice's padded rows
(ceil32(S) of a (B, H, S, D) tensor): those rows are the next leading index's.

Input expectations
    A PrimFunc whose buffers have static shapes (ApplyTTDefaults) and whose tile operators (``tl.copy``,
    ``tl.gemm``, ``tl.fill``) sit under ``blockIdx`` launch threads, loops with static ranges, named
    indices and conditionals; one inside any other statement is a TTCompileError (it could not be checked).
Output guarantees
    The function is unchanged. For every region of every tile operator and every dimension d,
    ``0 <= min_d < shape_d`` holds for all values of the enclosing launch-grid and loop variables, and on
    the rows of a tensor of 3 or more dimensions (the dimension stored next to the last, ``dim_order`` of
    AttachTensorAccessorTT: -2, or S of a (B, S, H, D) tensor tiled along S) ``min_d + extent_d <=
    ceil32(shape_d)``; regions are checked in the declared dimension order (a start that depends on an index
    table's value, ``tt.table_value``, is known at run time only: the reader zero-fills the tiles it finds
    outside the tensor);
    otherwise TTCompileError on the operator's DSL line naming the buffer, the dimension, the index range
    reached, the loop values that reach it and the buffer's size.
Example
    before: for k in T.serial(3): T.tl.copy(A[0:64, k * 64:k * 64 + 64], A_s[0:64, 0:64], loc)   # A: (64, 96)
    after:  TTCompileError: "this tile operation reads A[:, 128:192] when k = 2, which starts past the end of
            A's 96 columns (shape (64, 96)): none of it lies inside A; ..."  (with T.serial(2), k = 1 reads
            A[:, 64:128]: columns 96:128 read as zeros, accepted)
Test
    ./bazelw test //compiler/tests/passes:passes_test --test_arg=-k --test_arg=test_check_tile_bounds_tt
"""

from __future__ import annotations

import tvm
import tvm_ffi
from tvm import tirx

from .. import ops
from ..errors import TTCompileError
from ..ir_utils import collect_vars, has_narrow_int, op_name, padded_to_tile, region, storage_order

# What each tile operator does to its regions, in argument order (for the message).
_VERBS = {
    "tl.copy": ("reads", "writes"),
    "tl.gemm": ("reads", "reads", "accumulates into"),
    "tl.fill": ("fills",),
}


def _dimension_name(d: int, rank: int) -> str:
    return ("rows", "columns")[d] if rank == 2 else f"entries of dimension {d}"


def _loop_ends(start, extent, analyzer) -> tuple[int, int]:
    """The first and last values of a loop variable; a range that depends on outer variables
    (``T.Pipelined(T.max(0, bx - w), ...)``) gives its bounds over them."""
    if isinstance(start, int | tirx.IntImm) and isinstance(extent, int | tirx.IntImm):
        return int(start), int(start) + int(extent) - 1
    low = analyzer.const_int_bound(start).min_value
    high = analyzer.const_int_bound(analyzer.simplify(start + extent - 1)).max_value
    return int(low), int(high)


def _extreme(expr, ranges: dict, analyzer, largest: bool) -> tuple[int, str]:
    """The largest (smallest) value of ``expr`` over the loop ranges, and " when k = 1, bx = 3" naming the
    loop values that reach it (exact for affine indices, a bound without a witness otherwise)."""
    loop_vars = list({v: None for v in collect_vars(expr) if v in ranges})
    coefficients = tvm.sym.detect_linear_equation(expr, loop_vars) if loop_vars else []
    if loop_vars and len(coefficients) == len(loop_vars) + 1:
        value, witness = int(coefficients[-1]), []
        for var, coefficient in zip(loop_vars, coefficients, strict=False):
            low, high = _loop_ends(*ranges[var], analyzer)
            guarded = analyzer.const_int_bound(var)  # narrower under a guard (``if bx < 3:``)
            low, high = max(low, int(guarded.min_value)), min(high, int(guarded.max_value))
            at = high if (int(coefficient) > 0) == largest else low
            value += int(coefficient) * at
            witness.append(f"{var.name} = {at}")
        return value, " when " + ", ".join(witness)
    bound = analyzer.const_int_bound(expr)
    return int(bound.max_value if largest else bound.min_value), ""


def _as_selects(expr):
    """``expr`` with each ``T.if_then_else(c, a, b)`` a Select, which the analyzer bounds by its two values
    (a trip count chosen per grid point, as block-causal attention's ``num_steps``)."""

    def select(c):
        if isinstance(c.op, tvm.ir.Op) and op_name(c).endswith("if_then_else") and len(c.args) == 3:
            return tirx.Select(*c.args)
        return c

    return tvm_ffi.structural_map(expr, (tvm.ir.Call, select), order="post")


def _reads_table(expr) -> bool:
    found = []
    tvm_ffi.structural_walk(expr, (tvm.ir.Call, lambda c: found.append(ops.is_op(c, "tt.table_value"))))
    return any(found)


def _check_region(reg, verb: str, loc: str, ranges: dict, analyzer) -> None:
    rank = len(reg.extents)
    row = storage_order(reg.buffer)[-2]  # the dimension stored as the tile view's rows
    for d, (start, extent) in enumerate(zip(reg.mins, reg.extents, strict=True)):
        size = reg.shape[d]
        # Rows of an N-D tensor end at its slice's padded rows; other dimensions only need a start inside.
        end = padded_to_tile(size) if rank > 2 and d == row else None
        if _reads_table(start):
            continue  # a value of an index table (a page number): the reader zero-fills tiles outside
        if (
            analyzer.can_prove(start >= 0)
            and analyzer.can_prove(start < size)
            and (end is None or analyzer.can_prove(start + extent <= end))
        ):
            continue
        first, first_when = _extreme(start, ranges, analyzer, largest=False)
        last, last_when = _extreme(start, ranges, analyzer, largest=True)
        if first >= 0 and last < size and (end is None or last + extent <= end):
            continue  # the interval bound proves what the rewrite-based prover could not
        if max(abs(first), abs(last)) >= 2**31 - 1:
            raise TTCompileError.at(
                loc,
                f"cannot bound the index {start} of {reg.name}'s {_dimension_name(d, rank)}: tile regions "
                f"must be affine in the launch-grid and loop variables, with static ranges",
            )
        lo, when = (first, first_when) if first < 0 else (last, last_when)
        where = ", ".join(f"{lo}:{lo + extent}" if i == d else ":" for i in range(rank))
        what = f"this tile operation {verb} {reg.name}[{where}]{when}"
        shape = f"(shape {tuple(reg.shape)})"
        if first < 0:
            problem = f"before the start of {reg.name}'s {size} {_dimension_name(d, rank)} {shape}"
        elif last >= size:
            problem = (
                f"which starts past the end of {reg.name}'s {size} {_dimension_name(d, rank)} {shape}: "
                f"none of it lies inside {reg.name}; a tile region may reach past a tensor's end (reads "
                f"there give zeros, writes are dropped) but must start inside it"
            )
        else:
            piece = ", ".join(":" if i in (d, rank - 1) else "i" for i in range(rank))
            problem = (
                f"past row {end} of one {reg.name}[{piece}] slice {shape}: each slice is padded only to "
                f"whole tiles ({size} → {end} rows) and the rows after it are the next slice's; choose a "
                f"block size whose last block ends by row {end}"
            )
        raise TTCompileError.at(loc, f"{what}, {problem}")


def _canonical_guard(analyzer, condition):
    """``condition`` in the canonical form the prover takes, or None when TVM's simplifier cannot take it
    (``has_narrow_int``: a block mask's ``mask[k] != 0`` of an int8 tensor). Without the guard the regions
    under it are checked without its help."""
    return None if has_narrow_int(condition) else analyzer.simplify(condition)


def _nested_tile_ops(node) -> list[str]:
    """Locations of the tile operations anywhere under ``node``."""
    found = []
    tvm_ffi.structural_walk(
        node,
        (
            tvm.ir.Call,
            lambda c: found.append(ops.loc_of(c))
            if isinstance(c.op, tvm.ir.Op) and op_name(c) in _VERBS
            else None,
        ),
    )
    return found


def CheckTileBoundsTT() -> tvm.transform.Pass:  # noqa: N802
    def transform(func: tirx.PrimFunc, mod, ctx) -> tirx.PrimFunc:
        analyzer = tvm.sym.Analyzer()
        ranges: dict = {}

        def bind(var, start, extent):
            start, extent = _as_selects(start), _as_selects(extent)
            ranges[var] = (start, extent)
            analyzer.bind(var, tvm.ir.Range.from_min_extent(start, extent))

        def visit(node):
            if isinstance(node, tirx.SeqStmt):
                for s in node.seq:
                    visit(s)
            elif isinstance(node, tirx.For):
                bind(node.loop_var, node.min, node.extent)
                visit(node.body)
            elif isinstance(node, tirx.AttrStmt):
                if node.attr_key == "thread_extent":
                    bind(node.node.var, 0, node.value)
                visit(node.body)
            elif isinstance(node, tirx.Bind):  # a named index: its bound is its value's
                analyzer.bind(node.var, _as_selects(node.value))
            elif isinstance(node, tirx.IfThenElse):
                # A guard bounds what its branches reach (``if by * block_N < N:`` around a persistent
                # kernel's tile): the prover works under it, simplified to the canonical form the
                # regions' starts take.
                for case, condition in (
                    (node.then_case, node.condition),
                    (node.else_case, tirx.Not(node.condition)),
                ):
                    if case is None:
                        continue
                    guard = _canonical_guard(analyzer, condition)
                    if guard is None:
                        visit(case)
                        continue
                    with analyzer.constraint_scope(guard):
                        visit(case)
            elif isinstance(node, tirx.Evaluate) and isinstance(node.value, tvm.ir.Call):
                call = node.value
                name = op_name(call) if isinstance(call.op, tvm.ir.Op) else ""
                if name in _VERBS:
                    loc = ops.loc_of(call)
                    regions = [a for a in call.args if isinstance(a, tvm.ir.TensorRegion)]
                    for arg, verb in zip(regions, _VERBS[name], strict=False):
                        _check_region(region(arg, loc, tile_view=False), verb, loc, ranges, analyzer)
            else:
                # A statement this walk does not model (a while loop, a let...): a tile operation inside
                # it could not be proved in bounds, so it is not accepted unchecked.
                hidden = _nested_tile_ops(node)
                if hidden:
                    raise TTCompileError.at(
                        hidden[0],
                        f"cannot check the tile regions of an operation inside a {type(node).__name__}; "
                        f"put tile operations in serial or parallel loops with static ranges",
                    )

        visit(func.body)
        return func

    return tirx.transform.prim_func_pass(transform, opt_level=0, name="CheckTileBoundsTT")
