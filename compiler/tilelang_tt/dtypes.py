"""TileLang's dtype objects: ``T.float16``, ``T.bfloat16``, ``T.float`` ... and ``T.dtype``.

A dtype is a ``str`` (a ``tvm.DataType``), so ``T.float16 == "float16"`` and every API that takes a dtype
string takes it; TileLang's C-style names are canonical aliases (``T.float`` is "float32", ``T.half`` is
"float16", ``T.int`` is "int32"). Called, it builds a value of that type, as in TileLang:

    T.float32(0)        # FloatImm 0.0            T.float32(x)   # cast of a PrimExpr
    n: T.int32          # in a signature: a scalar parameter (the parser calls T.int32())

``canonical(d)`` turns any accepted spelling (dtype object, string, TVMScript's ``DtypeConstructor``, numpy
or torch dtype, Python ``float``/``int``/``bool``) into the canonical string the compiler works with.

This module is also upstream's ``tilelang.dtypes`` (``tilelang.language.dtypes``): its dtype objects are
attributes (``dtypes.float16``), and so are its maps from Python, numpy and torch types to dtype strings
(``_TORCH_DTYPE_TO_STR`` imports torch when first read).
"""

from __future__ import annotations

import numpy as np
import tvm
import tvm.script.tirx as _T
from tvm import tirx

__all__ = ["dtype", "canonical", "DTYPE_NAMES"]

_ALIASES = {
    "float": "float32",
    "half": "float16",
    "double": "float64",
    "int": "int32",
    "long": "int64",
    "short": "int16",
    "uint": "uint32",
    "ulong": "uint64",
}
_PYTHON_TYPES = {float: "float32", int: "int32", bool: "bool"}


def canonical(value) -> str:
    """The canonical dtype string of any accepted spelling; TypeError naming the value otherwise."""
    if isinstance(value, type) and value in _PYTHON_TYPES:
        return _PYTHON_TYPES[value]
    if hasattr(value, "_dtype_str"):  # TVMScript's own T.float16 (DtypeConstructor)
        return str(value._dtype_str)
    if isinstance(value, str):
        return _ALIASES.get(str(value), str(value))
    if isinstance(value, np.dtype) or (isinstance(value, type) and issubclass(value, np.generic)):
        name = np.dtype(value).name
        return "bfloat16" if name == "bfloat16" else name
    if (
        type(value).__module__ == "torch" and type(value).__name__ == "dtype"
    ):  # torch.float16, untouched torch
        return str(value).removeprefix("torch.")
    raise TypeError(f"{value!r} is not a dtype (use T.float16, T.bfloat16, T.float32, ... or a dtype string)")


class dtype(tvm.DataType):  # noqa: N801 - TileLang's name
    """``T.dtype(x)``: a canonical dtype string that can also build values of its type."""

    def __new__(cls, value="float32"):
        return super().__new__(cls, canonical(value))

    def __call__(self, expr=None):
        """No argument: a fresh scalar Var (parameter annotations); a value: a constant or a cast."""
        name = str(self)
        if expr is None:
            constructor = getattr(_T, name, None)
            return constructor() if constructor is not None else tirx.Var("v", name)
        if isinstance(expr, str):
            expr = float(expr)
        if isinstance(expr, bool | int | float):
            return tirx.const(expr, name)
        return tirx.Cast(name, expr)

    @property
    def bits(self) -> int:
        return tvm.DataType(str(self)).bits

    @property
    def bytes(self) -> int:
        return (self.bits + 7) // 8

    def as_torch(self):
        """The torch dtype of this dtype (``torch.float16`` for ``T.float16``); imports torch, which the
        caller must have installed."""
        import torch

        found = getattr(torch, str(self), None)
        if not isinstance(found, torch.dtype):
            raise TypeError(f"{self} has no torch dtype")
        return found


DTYPE_NAMES = (
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float16",
    "bfloat16",
    "float32",
    "float64",
)
# T.<name> objects: every canonical name and every alias.
OBJECTS = {name: dtype(name) for name in DTYPE_NAMES} | {alias: dtype(alias) for alias in _ALIASES}

_PYTHON_DTYPE_TO_STR = dict(_PYTHON_TYPES)
_NUMPY_DTYPE_TO_STR = {getattr(np, n): n for n in DTYPE_NAMES if isinstance(getattr(np, n, None), type)}


def __getattr__(name: str):
    """Upstream's names of this module: a dtype object (``float16``), or the torch map (built on first use;
    the objects are not globals, which would hide the builtins ``float``, ``int`` and ``bool`` here)."""
    if name in OBJECTS:
        return OBJECTS[name]
    if name == "_TORCH_DTYPE_TO_STR":
        import torch

        found = {
            getattr(torch, n): n for n in DTYPE_NAMES if isinstance(getattr(torch, n, None), torch.dtype)
        }
        globals()[name] = found
        return found
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
