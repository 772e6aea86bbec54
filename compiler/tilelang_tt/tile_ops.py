"""The compute-kernel tile operations the tile-program schedule may emit, as data.

Adding an element-wise function or a binary operator is adding a row here: the API call(s) it becomes and
the header that declares them. ScheduleTileComputeTT reads these tables; codegen reads ``HEADERS`` to
include exactly the headers a compute kernel uses.
"""

from __future__ import annotations

import dataclasses
import math

# FPU binary ops over two CB tiles, by how the second operand is broadcast: (call, its init).
FPU_BINARY = {
    op: {
        "none": (f"{op}_tiles", f"{op}_init"),
        "row": (f"{op}_tiles_bcast_rows", f"{op}_bcast_rows_init"),
        "col": (f"{op}_tiles_bcast_cols", f"{op}_bcast_cols_init"),
        "scalar": (f"{op}_tiles_bcast_scalar", f"{op}_bcast_scalar_init"),
    }
    for op in ("add", "sub", "mul")
}

# SFPU binary ops DST[odst] = DST[a] op DST[b]; each call has an ``<name>_init()``.
SFPU_BINARY = {
    "add": "add_binary_tile",
    "sub": "sub_binary_tile",
    "mul": "mul_binary_tile",
    "div": "div_binary_tile",
    "max": "binary_max_tile",
    "min": "binary_min_tile",
}


@dataclasses.dataclass(frozen=True)
class SfpuStep:
    """One SFPU call on a DST slot: ``init(); call(slot, *args)``. An int argument is passed as it is, a
    float one as its float32 bits (the SDK's scalar parameters)."""

    call: str
    init: str
    args: tuple = ()


def _fn(call: str, *args, init: str | None = None) -> SfpuStep:
    return SfpuStep(call, init or f"{call}_init", args)


def _scalar(call: str, c: float) -> SfpuStep:
    """``call(slot, bits(c))`` of the binop_with_scalar family: ``DST op= c``."""
    return SfpuStep(call, "binop_with_scalar_tile_init", (float(c),))


_ROUNDING = "rounding_op_tile_init"  # the one init of the rounding header's calls

# Unary functions: TIR op name (``T.<name>``) → the steps applied in place to the argument's slot.
SFPU_UNARY = {
    "exp": [_fn("exp_tile")],
    "exp2": [_fn("exp2_tile")],
    "exp10": [_scalar("mul_unary_tile", math.log(10.0)), _fn("exp_tile")],
    "log": [_fn("log_tile")],
    "log2": [_fn("log_tile"), _scalar("mul_unary_tile", 1.0 / math.log(2.0))],
    "log10": [_fn("log_tile"), _scalar("mul_unary_tile", 1.0 / math.log(10.0))],
    "log1p": [_fn("log1p_tile")],
    "sqrt": [_fn("sqrt_tile")],
    "rsqrt": [_fn("rsqrt_tile")],
    "tanh": [_fn("tanh_tile")],
    "sigmoid": [_fn("sigmoid_tile")],
    "fabs": [_fn("abs_tile")],
    "abs": [_fn("abs_tile")],
    "erf": [_fn("erf_tile")],
    **{f: [_fn(f"{f}_tile")] for f in ("sin", "cos", "tan", "asin", "acos", "atan")},
    **{f: [_fn(f"{f}_tile")] for f in ("sinh", "cosh", "asinh", "acosh", "atanh")},
    "floor": [_fn("floor_tile", init=_ROUNDING)],
    "ceil": [_fn("ceil_tile", init=_ROUNDING)],
    "trunc": [_fn("trunc_tile", init=_ROUNDING)],
    "round": [_fn("round_tile", 0, init=_ROUNDING)],  # to nearest, halves to even: decimals 0
    "nearbyint": [_fn("round_tile", 0, init=_ROUNDING)],
    "isnan": [_fn("isnan_tile")],  # a 1.0 / 0.0 mask; T.isinf and T.isfinite are comparisons and isnan
}

# With tl.tt.approximate_exp: the SDK's fast approximation of e^x, exp_tile<true> (within 3.2%); 2^x is
# e^(x·ln2), the product in fp32 (the SDK's own exp2_tile multiplies so too).
_EXP_APPROXIMATE = SfpuStep("exp_tile<true>", "exp_tile_init<true>")
SFPU_UNARY_APPROXIMATE = {
    "exp": [_EXP_APPROXIMATE],
    "exp2": [_scalar("mul_unary_tile", math.log(2.0)), _EXP_APPROXIMATE],
}

# A float32 value in DST as the Int32 word an integer tensor's tile holds (toward zero; the compiler keeps
# integer tiles exact, so nothing is cut off).
_TYPECAST = "<(uint32_t)DataFormat::Float32, (uint32_t)DataFormat::Int32>"
TO_INT32 = SfpuStep(f"typecast_tile{_TYPECAST}", f"typecast_tile_init{_TYPECAST}")


def power(exponent: float) -> list[SfpuStep]:
    """``T.pow(x, c)`` for a constant ``c``: the SFPU's power (a negative base takes an integer power's
    sign; a non-integer power of one is NaN, as C's ``powf``)."""
    return [_fn("power_tile", float(exponent))]


# Binary ops with one constant operand, by (op, constant is the left operand): c → steps as above.
def _div(c, constant_first):
    if constant_first:
        return [_fn("recip_tile")] + ([_scalar("mul_unary_tile", c)] if c != 1.0 else [])
    return [_scalar("mul_unary_tile", 1.0 / c)]


SCALAR_BINARY = {
    ("add", False): lambda c: [_scalar("add_unary_tile", c)],
    ("add", True): lambda c: [_scalar("add_unary_tile", c)],
    ("sub", False): lambda c: [_scalar("sub_unary_tile", c)],
    ("sub", True): lambda c: [_scalar("rsub_unary_tile", c)],
    ("mul", False): lambda c: [_scalar("mul_unary_tile", c)],
    ("mul", True): lambda c: [_scalar("mul_unary_tile", c)],
    ("div", False): lambda c: _div(c, False),
    ("div", True): lambda c: _div(c, True),
}


# Comparisons into a 1.0 / 0.0 mask: against zero after a subtraction, or against a constant (float bits).
COMPARE_ZERO = {
    "GT": "gtz_tile",
    "GE": "gez_tile",
    "LT": "ltz_tile",
    "LE": "lez_tile",
    "EQ": "eqz_tile",
    "NE": "nez_tile",
}
COMPARE_SCALAR = {
    "GT": "unary_gt_tile",
    "GE": "unary_ge_tile",
    "LT": "unary_lt_tile",
    "LE": "unary_le_tile",
    "EQ": "unary_eq_tile",
    "NE": "unary_ne_tile",
}
# a < c read from the constant's side: c < a is a > c.
MIRRORED = {"GT": "LT", "GE": "LE", "LT": "GT", "LE": "GE", "EQ": "EQ", "NE": "NE"}


@dataclasses.dataclass(frozen=True)
class ReduceSpec:
    pool: str  # the reduce_tile PoolType
    combine: str  # SFPU_BINARY op merging with the old value (clear=False)
    identity: float  # the value that leaves the result unchanged (what padding is masked to)
    negate: bool = False  # min = -max(-x)
    prepare: str | None = None  # element-wise function applied to the source first


REDUCE = {
    "sum": ReduceSpec("SUM", "add", 0.0),
    "max": ReduceSpec("MAX", "max", float("-inf")),
    "min": ReduceSpec("MAX", "min", float("inf"), negate=True, prepare="negative"),  # min(x) = -max(-x)
    "abssum": ReduceSpec("SUM", "add", 0.0, prepare="abs"),
    "absmax": ReduceSpec("MAX", "max", 0.0, prepare="abs"),
}

_EXACT = {
    "api/compute/eltwise_binary.h": [name for op in ("add", "sub", "mul") for name in FPU_BINARY[op]["none"]],
    "api/compute/bcast.h": [
        name
        for op in ("add", "sub", "mul")
        for kind in ("row", "col", "scalar")
        for name in FPU_BINARY[op][kind]
    ]
    + ["unary_bcast_init", "unary_bcast"],
    "api/compute/eltwise_binary_sfpu.h": [
        n + s
        for n in ("add_binary_tile", "sub_binary_tile", "mul_binary_tile", "div_binary_tile")
        for s in ("", "_init")
    ],
    "api/compute/binary_max_min.h": [
        n + s for n in ("binary_max_tile", "binary_min_tile") for s in ("", "_init")
    ],
    "api/compute/eltwise_unary/binop_with_scalar.h": [
        "binop_with_scalar_tile_init",
        "add_unary_tile",
        "sub_unary_tile",
        "mul_unary_tile",
        "rsub_unary_tile",
        "div_unary_tile",
    ],
    "api/compute/eltwise_unary/fill.h": ["fill_tile", "fill_tile_init"],
    "api/compute/eltwise_unary/exp.h": ["exp_tile", "exp_tile_init"],
    "api/compute/eltwise_unary/sqrt.h": ["sqrt_tile", "sqrt_tile_init"],
    "api/compute/eltwise_unary/rsqrt.h": ["rsqrt_tile", "rsqrt_tile_init"],
    "api/compute/eltwise_unary/recip.h": ["recip_tile", "recip_tile_init"],
    "api/compute/eltwise_unary/relu.h": ["relu_tile", "relu_tile_init"],
    "api/compute/eltwise_unary/negative.h": ["negative_tile", "negative_tile_init"],
    "api/compute/eltwise_unary/trigonometry.h": [
        f"{f}_tile{s}"
        for f in ("sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh")
        for s in ("", "_init")
    ],
    "api/compute/eltwise_unary/rounding.h": [
        _ROUNDING,
        "floor_tile",
        "ceil_tile",
        "trunc_tile",
        "round_tile",
    ],
    "api/compute/eltwise_unary/erf_erfc.h": ["erf_tile", "erf_tile_init"],
    "api/compute/eltwise_unary/typecast.h": ["typecast_tile", "typecast_tile_init"],
    "api/compute/eltwise_unary/log1p.h": ["log1p_tile", "log1p_tile_init"],
    "api/compute/eltwise_unary/isinf_isnan.h": ["isnan_tile", "isnan_tile_init"],
    "api/compute/compute_kernel_api.h": [
        "exp2_tile",
        "exp2_tile_init",
        "log_tile",
        "log_tile_init",
        "tanh_tile",
        "tanh_tile_init",
        "sigmoid_tile",
        "sigmoid_tile_init",
        "abs_tile",
        "abs_tile_init",
        "power_tile",
        "power_tile_init",
    ],
    "api/compute/reduce.h": ["reduce_init", "reduce_tile", "reduce_uninit"],
    "api/compute/eltwise_unary/comp.h": [
        n + s for n in list(COMPARE_ZERO.values()) + list(COMPARE_SCALAR.values()) for s in ("", "_init")
    ],
    "api/compute/eltwise_unary/where.h": ["where_tile", "where_tile_init"],
    "api/compute/compute_kernel_hw_startup.h": ["compute_kernel_hw_startup"],
    "api/compute/pack.h": ["pack_tile"],
    "api/compute/tilize.h": ["tilize_init", "tilize_block", "tilize_uninit"],
}
# Header of each call (template arguments stripped: ``reduce_tile<...>`` → ``reduce_tile``).
HEADERS = {call: header for header, calls in _EXACT.items() for call in calls}
