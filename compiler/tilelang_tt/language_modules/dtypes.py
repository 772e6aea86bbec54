"""``tilelang.language.dtypes``: the dtype class, every dtype object (``float16``, ``bfloat16``, ...) and the
maps from Python, numpy and torch types to dtype strings, as upstream's module names them. Built from
``tilelang_tt.dtypes``; the torch map imports torch when first read (the compiler runs without it)."""

from __future__ import annotations

import numpy as np

from ..dtypes import DTYPE_NAMES, OBJECTS, dtype

__all__ = ["dtype", *OBJECTS]

globals().update(OBJECTS)

_PYTHON_DTYPE_TO_STR = {bool: "bool", int: "int32", float: "float32"}
_NUMPY_DTYPE_TO_STR = {
    getattr(np, name): name for name in DTYPE_NAMES if isinstance(getattr(np, name, None), type)
} | {np.bool_: "bool"}


def __getattr__(name: str):
    if name == "_TORCH_DTYPE_TO_STR":
        import torch

        found = {
            getattr(torch, n): n for n in DTYPE_NAMES if isinstance(getattr(torch, n, None), torch.dtype)
        }
        globals()[name] = found
        return found
    raise AttributeError(f"module 'tilelang.language.dtypes' has no attribute {name!r}")
