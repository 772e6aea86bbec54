"""A000 · InlineRegionIndicesTT — a named index in a tile region is replaced by what it names.

TileLang programs name their block offsets (``row, col = by * block_M, bx * block_N`` then
``T.copy(A[row, k * block_K], A_s)``). Every later pass reads a region's start as an expression of the grid
and loop indices (is it a multiple of 32? which grid axis walks the output?), so a region whose start is a
name would be a dead end. Regions take the named expression instead; the names stay for the statements
that use them otherwise.

Input expectations
    A PrimFunc from the DSL.
Output guarantees
    In every tile region (``tl.copy``, ``T.gemm``, ... operands), a variable bound by a ``Bind`` to an
    integer expression of indices (no load of a buffer, no call) is replaced by that expression, names of
    names included. Nothing else changes.
Example
    before: row: T.let[T.int32] = by * 32
            T.tl.copy(A[row:row + 32, 0:32], a[0:32, 0:32], loc)
    after:  row: T.let[T.int32] = by * 32
            T.tl.copy(A[by * 32:by * 32 + 32, 0:32], a[0:32, 0:32], loc)
Test
    ./bazelw test //compiler/tests/passes:passes_test --test_arg=-k --test_arg=test_inline_region_indices_tt
"""

from __future__ import annotations

import tvm
import tvm_ffi
from tvm import tirx


def _index_names(body) -> dict:
    """Variable → the integer index expression a ``Bind`` gives it (those that load nothing, call nothing)."""
    names = {}

    def record(bind: tirx.Bind) -> None:
        dtype = str(getattr(bind.var.ty, "dtype", ""))
        found = []
        tvm_ffi.structural_walk(bind.value, [(tvm.ir.TensorLoad, found.append), (tvm.ir.Call, found.append)])
        if dtype.startswith(("int", "uint")) and not found:
            names[bind.var] = bind.value

    tvm_ffi.structural_walk(body, (tirx.Bind, record))
    return names


def InlineRegionIndicesTT() -> tvm.transform.Pass:  # noqa: N802
    def transform(func: tirx.PrimFunc, mod, ctx) -> tirx.PrimFunc:
        names = _index_names(func.body)
        if not names:
            return func

        def named(var):
            value = names.get(var)
            # a name of names: its value has names of its own
            return var if value is None else tvm_ffi.structural_map(value, (tvm.ir.Var, named))

        def region(r):
            return tvm_ffi.structural_map(r, (tvm.ir.Var, named))

        return func.with_body(tvm_ffi.structural_map(func.body, (tvm.ir.TensorRegion, region)))

    return tirx.transform.prim_func_pass(transform, opt_level=0, name="InlineRegionIndicesTT")
