"""``@tilelang.jit`` on a function that builds a PrimFunc (TileLang's classic style): a kernel factory.

    @tilelang.jit(out_idx=[-1])
    def matmul(M, N, K, block_M, block_N, block_K, dtype="bfloat16"):
        @T.prim_func
        def main(A: T.Tensor((M, K), dtype), ...): ...
        return main

    kernel = matmul(1024, 1024, 1024, 128, 128, 32)     # a JITKernel, compiled once per argument tuple
    kernel = matmul.compile(1024, 1024, K=1024, block_M=128, block_N=128, block_K=32)   # the same kernel
    func = matmul.get_tir(1024, 1024, 1024, 128, 128, 32)                            # the PrimFunc

Arguments are bound to the function's signature (defaults applied) before they key the cache, so
positional and keyword spellings of one call share a kernel; they must be hashable once lists, tuples,
dicts and sets are frozen. The eager style (``eager.py``) builds on this class.
"""

from __future__ import annotations

import functools
import inspect
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from . import kernel_cache
from .errors import TTCompileError

if TYPE_CHECKING:
    from tvm import tirx

__all__ = ["KernelFactory", "freeze", "source_def_loc"]


def source_def_loc(func) -> str | None:
    """ "file:line:col" of a Python function's ``def`` line, read from its source (None when the source is
    not available). ``ir_utils.def_loc`` reads the same fact back from a parsed PrimFunc."""
    # getsourcelines follows __wrapped__ (a factory made with functools.update_wrapper) and getsourcefile does
    # not: both read the function it wraps.
    func = inspect.unwrap(func)
    try:
        lines, first = inspect.getsourcelines(func)
        path = inspect.getsourcefile(func)
    except (OSError, TypeError):
        return None
    offset = next((i for i, line in enumerate(lines) if line.lstrip().startswith("def ")), 0)
    return f"{path}:{first + offset}:{len(lines[offset]) - len(lines[offset].lstrip())}"


def freeze(value, what: str):
    """``value`` as a hashable cache-key part: containers become tuples; TypeError names ``what``."""
    if isinstance(value, list | tuple):
        return tuple(freeze(v, what) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, freeze(v, what)) for k, v in value.items()))
    if isinstance(value, set | frozenset):
        return frozenset(freeze(v, what) for v in value)
    try:
        hash(value)
    except TypeError:
        raise TypeError(
            f"{what} is a {type(value).__name__}, which cannot key the kernel cache; pass a hashable value"
        ) from None
    return (type(value).__name__, value)


class KernelFactory:
    """A function returning a PrimFunc, with ``compile_fn`` (PrimFunc → JITKernel) applied once per
    distinct call."""

    def __init__(self, func: Callable, compile_fn: Callable):
        functools.update_wrapper(self, func)
        self.func = func
        self.compile_fn = compile_fn
        self.signature = inspect.signature(func)
        self._kernels: dict = {}
        self._lock = threading.Lock()

    def bind(self, args, kwargs) -> inspect.BoundArguments:
        """``args``/``kwargs`` matched to the function's parameters, defaults applied."""
        try:
            bound = self.signature.bind(*args, **kwargs)
        except TypeError as err:
            raise TypeError(f"{self.func.__name__}(): {err}") from None
        bound.apply_defaults()
        return bound

    def given(self, args, kwargs, with_defaults: bool) -> dict:
        """What a call gives, by name (and, ``with_defaults``, the defaults of what it leaves out). Unlike
        ``bind``, parameters neither given nor defaulted are simply absent (an autotuned block size, an
        eager factory's tensors in ``.compile``), and keywords of no parameter (an eager factory's
        ``T.const`` sizes) are kept."""
        parameters = self.signature.parameters
        try:
            bound = self.signature.bind_partial(*args, **{k: v for k, v in kwargs.items() if k in parameters})
        except TypeError as err:
            raise TypeError(f"{self.func.__name__}(): {err}") from None
        if with_defaults:
            bound.apply_defaults()
        return {**{k: v for k, v in kwargs.items() if k not in parameters}, **bound.arguments}

    def cache_key(self, args, kwargs) -> tuple:
        bound = self.bind(args, kwargs)
        return tuple(
            (name, freeze(value, f"argument {name} of {self.func.__name__}"))
            for name, value in bound.arguments.items()
        )

    def get_tir(self, *args, **kwargs) -> tirx.PrimFunc:
        """The PrimFunc the function builds for these arguments."""
        from tvm import tirx

        func = self.func(*args, **kwargs)
        if not isinstance(func, tirx.PrimFunc):
            raise TTCompileError.at(
                source_def_loc(self.func),
                f"{self.func.__name__}() returned {type(func).__name__}, not a T.prim_func: a tilelang.jit "
                f"factory returns the PrimFunc it builds (or writes the kernel body itself, eager style)",
            )
        return func

    def cached_kernel(self, key: tuple, build: Callable[[], tirx.PrimFunc], disk_key: str | None = None):
        """The kernel compiled for ``key``, compiling ``build()`` the first time (two threads may both
        compile it; both get the first one stored). ``disk_key``: the call's entry in the kernel cache,
        read before compiling and written after."""
        kernel = self._kernels.get(key)
        if kernel is None:
            kernel = kernel_cache.load(disk_key, build)
            if kernel is None:
                kernel = self.compile_fn(build())
                kernel_cache.store(disk_key, kernel)
            with self._lock:
                kernel = self._kernels.setdefault(key, kernel)
        return kernel

    def compile(self, *args, **kwargs):
        """The JITKernel for these arguments: from this process's kernels, else from the kernel cache
        (``kernel_cache.py``: no TVM needed), else compiled."""
        key = self.cache_key(args, kwargs)
        disk_key = None
        if key not in self._kernels:
            settings = getattr(self.compile_fn, "keywords", {})
            disk_key = kernel_cache.entry_key(self.func, self.bind(args, kwargs).arguments, settings)
        return self.cached_kernel(key, lambda: self.get_tir(*args, **kwargs), disk_key)

    def __call__(self, *args, **kwargs):
        return self.compile(*args, **kwargs)

    def get_kernel_source(self, *args, **kwargs) -> str:
        """The generated kernels' source of the kernel for these arguments (TileLang's spelling)."""
        return self.compile(*args, **kwargs).get_kernel_source()

    def par_compile(self, configs, num_workers: int | None = None, ignore_error: bool = False) -> list:
        """TileLang's ``par_compile``: the kernel for each config (keyword arguments as a dict, or
        positional ones as a tuple), compiled in worker processes (parallel_compile.py); with
        ``ignore_error``, None for a config that does not compile. Later calls with a config's arguments
        reuse its kernel."""
        from .parallel_compile import compile_all

        calls = []
        for config in configs:
            if not isinstance(config, dict | tuple):
                raise TypeError(
                    f"{self.func.__name__}.par_compile: a config is a dict or a tuple, not {config!r}"
                )
            calls.append(((), dict(config)) if isinstance(config, dict) else (tuple(config), {}))
        kernels = compile_all(
            lambda call: self.compile(*call[0], **call[1]),
            lambda call: self.get_tir(*call[0], **call[1]),
            calls,
            num_workers,
            ignore_error,
        )
        with self._lock:
            for (args, kwargs), kernel in zip(calls, kernels, strict=True):
                if kernel is not None:
                    self._kernels.setdefault(self.cache_key(args, kwargs), kernel)
        return kernels

    def __getstate__(self) -> dict:
        """The factory without its compiled kernels and lock: what the autotuner ships to a Ray task, which
        compiles (or loads from the kernel cache) what it needs."""
        return {name: value for name, value in self.__dict__.items() if name not in ("_kernels", "_lock")}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state, _kernels={}, _lock=threading.Lock())
