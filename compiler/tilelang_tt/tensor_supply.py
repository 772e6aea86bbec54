"""``tilelang.TensorSupplyType``: how a profiler makes the input arrays of a kernel it checks or times.

The distributions are TileLang's (tilelang/utils/tensor.py), drawn with numpy instead of torch and stored
in the parameter's dtype (``ml_dtypes.bfloat16`` for bfloat16):

    Auto     floats uniform in [-1, 1); integers in [-2, 3) ([0, 3) unsigned); bools 0/1
    Integer  integers in [-2, 3) ([0, 3) unsigned), also for float parameters
    Uniform  uniform in [-1, 1)
    Normal   normal with mean -1 and standard deviation 1 (TileLang's ``normal_(-1.0, 1.0)``)
    Randn    standard normal
    Zero     zeros;  One  ones
Integer parameters given a continuous distribution get its values truncated.

    make_tensor(TensorSupplyType.Auto, (64, 64), "bfloat16", np.random.default_rng(0))
"""

from __future__ import annotations

import enum

import numpy as np

from .arguments import NUMPY_DTYPES

__all__ = ["TensorSupplyType", "make_tensor"]


class TensorSupplyType(enum.Enum):
    Integer = 1
    Uniform = 2
    Normal = 3
    Randn = 4
    Zero = 5
    One = 6
    Auto = 7


def _numpy_dtype(dtype: str) -> np.dtype:
    return NUMPY_DTYPES[dtype] if dtype in NUMPY_DTYPES else np.dtype(dtype)


def _small_integers(shape, dtype: np.dtype, rng: np.random.Generator) -> np.ndarray:
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(dtype)
    low = 0 if dtype.kind == "u" else -2
    return rng.integers(low, 3, shape).astype(dtype)


def make_tensor(supply_type: TensorSupplyType, shape, dtype: str, rng: np.random.Generator) -> np.ndarray:
    """A C-contiguous array of a kernel parameter's ``shape`` and ``dtype``, drawn as ``supply_type`` says."""
    np_dtype = _numpy_dtype(str(dtype))
    shape = tuple(int(d) for d in shape)
    is_float = np_dtype.kind == "f" or np_dtype == NUMPY_DTYPES["bfloat16"]
    if supply_type is TensorSupplyType.Auto:
        supply_type = TensorSupplyType.Uniform if is_float else TensorSupplyType.Integer
    if supply_type is TensorSupplyType.Integer:
        return _small_integers(shape, np_dtype, rng)
    if supply_type is TensorSupplyType.Zero:
        return np.zeros(shape, np_dtype)
    if supply_type is TensorSupplyType.One:
        return np.ones(shape, np_dtype)
    if supply_type is TensorSupplyType.Uniform:
        values = rng.uniform(-1.0, 1.0, shape)
    elif supply_type is TensorSupplyType.Normal:
        values = rng.normal(-1.0, 1.0, shape)
    elif supply_type is TensorSupplyType.Randn:
        values = rng.standard_normal(shape)
    else:
        raise TypeError(f"tensor_supply_type must be a tilelang.TensorSupplyType, got {supply_type!r}")
    return values.astype(np.float32).astype(np_dtype)
