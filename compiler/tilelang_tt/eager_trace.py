"""What the prologue of an eager ``@tilelang.jit`` kernel declares while it runs: ``T.const`` (and
``T.dynamic``) shape constants and ``T.empty`` outputs (``eager.py`` runs the prologue and reads the trace).

The functions are part of the language (``T.const``, ``T.dynamic``, ``T.empty``); they live here, below both
``language.py`` and ``eager.py``, so that the language does not depend on the eager front door that is
built on it.
"""

from __future__ import annotations

import contextvars
import dataclasses
import inspect
import re

from .errors import TTCompileError


@dataclasses.dataclass
class Trace:
    """What one run of a prologue declared. ``const_values`` is None in the symbolic run."""

    const_values: dict[str, int] | None
    consts: dict[str, object] = dataclasses.field(default_factory=dict)  # name → Var or int
    tensors: dict[str, object] = dataclasses.field(default_factory=dict)  # parameter → T.Tensor annotation


@dataclasses.dataclass(frozen=True)
class Output:
    """``T.empty(shape, dtype)``: an output tensor the kernel allocates and returns."""

    shape: tuple
    dtype: object


TRACE: contextvars.ContextVar[Trace | None] = contextvars.ContextVar("tilelang_tt_eager_trace", default=None)


def _size_var(name: str, dtype: str):
    """A TVM variable for a ``T.const`` size (TVM is imported here: only an eager kernel's trace needs it)."""
    from tvm import tirx

    return tirx.Var(name, dtype)


def active(what: str) -> Trace:
    trace = TRACE.get()
    if trace is None:
        caller = inspect.stack()[2]
        raise TTCompileError(
            f"{what} declares part of an eager @tilelang.jit kernel; use it in the body of a function "
            f"decorated with @tilelang.jit, before its `with T.Kernel(...)`",
            caller.filename,
            caller.lineno,
            0,
        )
    return trace


def const(names: str, dtype: str = "int32"):
    """``M, N = T.const("M, N")``: shape constants (names split on commas or spaces); one name gives one
    value. Symbolic Vars while the kernel's tensor shapes are matched, the call's ints afterwards."""
    trace = active("T.const")
    values = []
    for name in [n for n in re.split(r"[,\s]+", names.strip()) if n]:
        if trace.const_values is None:
            trace.consts[name] = trace.consts.get(name) or _size_var(name, str(dtype))
        else:
            trace.consts[name] = trace.const_values[name]
        values.append(trace.consts[name])
    if not values:
        raise TTCompileError(f"T.const({names!r}) names no constant")
    return values[0] if len(values) == 1 else tuple(values)


def dynamic(name: str, dtype: str = "int32"):
    """``M = T.dynamic("m")``: a size the tensors of each call give (TileLang's dynamic dimension). A
    Tenstorrent kernel's block loops and tile counts are fixed at compile time, so in an eager kernel it is
    a ``T.const``: the kernel is compiled once per distinct size (and cached)."""
    caller = inspect.stack()[1]
    if TRACE.get() is None:
        raise TTCompileError(
            "T.dynamic sizes are bound per call in the body of an eager @tilelang.jit kernel (compiled once "
            "per distinct size); a PrimFunc with symbolic shapes is not supported on Tenstorrent yet",
            caller.filename,
            caller.lineno,
            0,
        )
    if not name.strip() or re.search(r"[,\s]", name.strip()):
        raise TTCompileError(
            f"T.dynamic({name!r}) names one size (T.const takes several)", caller.filename, caller.lineno, 0
        )
    return const(name, dtype)


def empty(*shape, dtype="float32"):
    """``C = T.empty((M, N), dtype)`` (also ``T.empty(M, N, dtype=...)``): an output of the kernel, which
    must be returned. Default dtype float32, as in TileLang."""
    active("T.empty")
    if shape and isinstance(shape[0], list | tuple):
        if len(shape) > 2:
            raise TypeError(f"T.empty(shape, dtype) takes at most 2 positional arguments, got {len(shape)}")
        shape, dtype = tuple(shape[0]), (shape[1] if len(shape) == 2 else dtype)
    return Output(tuple(shape), dtype)
