"""Block-float storage dtypes ("bfloat8_b", "bfloat4_b") in numpy: what a tensor's values become when the host
stores them in one, for references and tolerances.

A block-float tile shares one exponent among each 16 consecutive values of a row (a row of a 16x16 face),
and each value keeps a sign and a magnitude of 7 (bfloat8_b) or 3 (bfloat4_b) bits that includes its leading
one: the largest value of a group keeps 6 (2) fraction bits, smaller ones lose bits to the shared exponent.
``quantize`` rounds as the SDK's host library does when it packs a tensor (``pack_as_bfp8_tiles``: the
float32 mantissa shifted to the shared exponent and rounded to nearest even, saturating; zeros and
subnormals become 0) — the C++ of the same rule is runtime_mock/kernel_abi/block_float.h, which the device's
packer uses with its own rounding (tt-llk's golden model).

    >>> quantize(np.array([[1.0, 1.0078125] + [0.0] * 14], np.float32), "bfloat8_b")[0, :2]
    array([1., 1.], dtype=float32)
"""

from __future__ import annotations

import numpy as np

from .target import BLOCK_FLOAT_DTYPES

__all__ = ["quantize", "MAGNITUDE_BITS", "GROUP"]

MAGNITUDE_BITS = {"bfloat8_b": 7, "bfloat4_b": 3}
GROUP = 16  # values sharing an exponent: a face row


def quantize(values, dtype: str) -> np.ndarray:
    """``values`` (any real array whose last dimension is a multiple of 16) as stored in block-float
    ``dtype`` and read back: a float32 array of the same shape."""
    if dtype not in BLOCK_FLOAT_DTYPES:
        raise ValueError(
            f"{dtype!r} is not a block-float dtype; choose one of {', '.join(BLOCK_FLOAT_DTYPES)}"
        )
    x = np.ascontiguousarray(values, dtype=np.float32)
    if x.ndim == 0 or x.shape[-1] % GROUP:
        raise ValueError(
            f"a block-float tensor's last dimension is a multiple of {GROUP}; got shape {x.shape}"
        )
    bits = MAGNITUDE_BITS[dtype]
    words = x.view(np.uint32).reshape(-1, GROUP).astype(np.int64)
    exponents = (words >> 23) & 0xFF
    shared = exponents.max(axis=1, keepdims=True)
    shift = np.minimum(shared - exponents, 40)
    mantissa = ((words & 0x7FFFFF) | 0x800000) >> shift
    drop = 24 - bits
    rest, magnitude = mantissa & ((1 << drop) - 1), mantissa >> drop
    tie = 1 << (drop - 1)
    magnitude = magnitude + ((rest > tie) | ((rest == tie) & (magnitude & 1 == 1)))
    magnitude = np.where(exponents == 0, 0, np.minimum(magnitude, (1 << bits) - 1))
    value = np.ldexp(magnitude.astype(np.float64), (shared - 127 - (bits - 1)).astype(np.int32))
    value = np.where(value < np.finfo(np.float32).tiny, 0.0, value)
    value = np.where(words >> 31 == 1, -value, value)
    return value.astype(np.float32).reshape(x.shape)
