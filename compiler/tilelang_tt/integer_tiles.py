"""Integer tiles (top-k's indices, a mask's counts): what keeps them exact on the compute engines.

The matrix and vector engines compute on integer tiles as float32 (target.INTEGER_TILE_DTYPES), which holds
every integer up to 2^24 exactly; the SFPU's typecast turns the values into Int32 words on their way to an
integer tensor. So a statement may give an integer tile buffer only values that stay integers within that
range: constants, positions (the element's indices, loop and grid indices, and arithmetic of them the
compiler can bound), values of integer tile buffers (whose own values were checked when stored), their
selections, maxima, minima and comparisons, and floats cut to integers (``T.Cast("int32", x)``: toward zero,
as C casts, on the SFPU). Arithmetic on integer tile values (sums, products, quotients, a reduction's sum)
could leave the range unseen: it is a located TTCompileError, never a rounded number.
"""

from __future__ import annotations

import tvm
import tvm_ffi
from tvm import tirx

from .errors import TTCompileError
from .ir_utils import tensor_loads
from .target import INTEGER_TILE_DTYPES

EXACT_LIMIT = 1 << 24  # float32 holds every integer of at most this magnitude
_ARITHMETIC = (tirx.Add, tirx.Sub, tirx.Mul, tirx.Div, tirx.Mod, tirx.FloorDiv, tirx.FloorMod)


def is_integer_tile(dtype: str) -> bool:
    return str(dtype) in INTEGER_TILE_DTYPES


def check_store(name: str, value, analyzer: tvm.sym.Analyzer, loc: str) -> None:
    """TTCompileError at ``loc`` unless every value ``value`` gives integer tile buffer ``name`` is exact
    in float32 (module docstring); ``analyzer`` knows the ranges of the positions it may use."""

    def visit(e):
        if isinstance(e, tvm.ir.TensorLoad):
            return
        if not tensor_loads(e):  # constants and positions: bounded by the ranges of what they use
            if str(e.ty).startswith(("int", "uint")):
                bound = analyzer.const_int_bound(e)
                reach = max(bound.min_value, bound.max_value, key=abs)
                if abs(reach) > EXACT_LIMIT:
                    raise TTCompileError.at(
                        loc,
                        f"{name} is an integer tile buffer and {e} may reach {reach} here, beyond 2^24 in "
                        "magnitude; the Tenstorrent compute engines hold integer tiles as float32, exact "
                        "to 2^24",
                    )
            return
        if isinstance(e, _ARITHMETIC) and str(e.ty).startswith(("int", "uint")):
            raise TTCompileError.at(
                loc,
                f"{name} is an integer tile buffer and {e} is arithmetic on tile values; the Tenstorrent "
                "compute engines hold integer tiles as float32, so integer sums, products and quotients "
                "of tiles are not supported yet (selections, maxima, minima and comparisons are)",
            )
        for child in _children(e):
            visit(child)

    visit(value)


def _children(e) -> list:
    if isinstance(e, tirx.Cast):
        return [e.value]
    if isinstance(e, tirx.Select):
        return [e.condition, e.true_value, e.false_value]
    if isinstance(e, tvm.ir.Call):
        return [a for a in e.args if not isinstance(a, tvm.ir.StringImm)]
    return [getattr(e, f) for f in ("a", "b") if hasattr(e, f)]


def truncated(value):
    """``value`` with each float cast to an integer (``T.Cast("int32", x)``) made explicit as ``trunc``:
    the element-wise lowering computes in float32 and would otherwise keep the fraction."""

    def cut(c: tirx.Cast):
        if is_integer_tile(c.ty.dtype) and str(c.value.ty).startswith(("float", "bfloat")):
            return tirx.Cast(str(c.ty.dtype), tirx.trunc(c.value))
        return c

    return tvm_ffi.structural_map(value, (tirx.Cast, cut), order="post")


def check_fill(name: str, value, loc: str) -> None:
    """A fill of integer tile buffer ``name`` with a constant beyond 2^24 is a TTCompileError at ``loc``."""
    value = value.value if isinstance(value, tirx.IntImm | tirx.FloatImm) else value
    if isinstance(value, int | float) and abs(value) > EXACT_LIMIT:
        shown = int(value) if float(value).is_integer() else value
        raise TTCompileError.at(
            loc,
            f"T.fill({name}, {shown}): {name} is an integer tile buffer, which the Tenstorrent compute "
            "engines hold as float32, exact to 2^24",
        )


def check_gemm(names: list[str], dtypes: list[str], loc: str) -> None:
    """A ``T.gemm`` on integer tile buffers (its sums may pass 2^24) is a TTCompileError at ``loc``."""
    for name, dtype in zip(names, dtypes, strict=True):
        if is_integer_tile(dtype):
            raise TTCompileError.at(
                loc,
                f"T.gemm on {name}, an integer tile buffer: the Tenstorrent compute engines hold integer "
                "tiles as float32, exact to 2^24, which a product's sums may pass; integer GEMMs are not "
                "supported yet",
            )


def check_reduce(name: str, kind: str, loc: str) -> None:
    """A reduction of an integer tile buffer other than max and min (a sum may pass 2^24) is a
    TTCompileError at ``loc``."""
    if kind not in ("max", "min", "absmax"):
        raise TTCompileError.at(
            loc,
            f"T.reduce_{kind} of {name}, an integer tile buffer: the Tenstorrent compute engines hold "
            "integer tiles as float32, and only T.reduce_max and T.reduce_min of them are exact",
        )
