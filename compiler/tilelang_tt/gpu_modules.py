"""Upstream ``tilelang`` modules that exist for GPUs only: they import, so an example that imports them at
its top runs its other paths, and using a name from one is a TTCompileError at the user's line.

    from tilelang.contrib import nvcc           # imports
    nvcc.compile_cuda(source)                   # TTCompileError at this line: NVIDIA's compiler

``install()`` (run when the package is imported) adds a finder for ``tilelang_tt.<root>`` and every module
path under it, for the roots in ``GPU_MODULES``: each is a module whose attributes are ``GpuName``s.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
import types

from .errors import TTUnsupportedNameError, caller_location

__all__ = ["GPU_MODULES", "GpuName", "install"]

# root module under tilelang → what it is on a GPU (the reason it has no Tenstorrent counterpart)
GPU_MODULES = {
    "cuda": "CUDA intrinsics and MMA layouts for NVIDIA tensor cores",
    "rocm": "ROCm targets and matrix-core intrinsics for AMD GPUs",
    "contrib": "wrappers of GPU toolchains (nvcc, hipcc)",
    "engine": "hooks into the GPU code generator (CUDA post-processing callbacks)",
    "tools": "tools that analyse or draw GPU kernels (the roofline Analyzer, fragment-layout plots, iket)",
}
_PACKAGE = __name__.rsplit(".", 1)[0]


class GpuName:
    """``tilelang.<path>``: a GPU-only function, class or module. Calling it (or constructing it), or
    reading an attribute of it, is a TTCompileError located at the user's line: ``tilelang.<path>
    <reason>``. Comparing it (``plan is NoRasterization``) works as with any object."""

    def __init__(self, path: str, reason: str | None = None):
        self.path = path
        root = path.split(".")[0]
        self.reason = reason or f"is not available on Tenstorrent: tilelang.{root} holds {GPU_MODULES[root]}"

    def _error(self) -> TTUnsupportedNameError:
        # also an AttributeError: ``hasattr(name, "x")`` is False rather than an error
        return TTUnsupportedNameError(f"tilelang.{self.path} {self.reason}", *caller_location())

    def __call__(self, *args, **kwargs):
        raise self._error()

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        raise self._error()

    def __repr__(self) -> str:
        return f"<tilelang.{self.path}: GPU-only, not available on Tenstorrent>"


def _module(path: str) -> types.ModuleType:
    """The module ``tilelang_tt.<path>``: a package (so paths under it import) whose names are GpuNames."""
    module = types.ModuleType(f"{_PACKAGE}.{path}", f"tilelang.{path}: {GPU_MODULES[path.split('.')[0]]}")
    module.__path__ = []

    def __getattr__(name: str):
        if name.startswith("__"):
            raise AttributeError(f"module 'tilelang.{path}' has no attribute {name!r}")
        return GpuName(f"{path}.{name}")

    module.__getattr__ = __getattr__
    return module


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, fullname, path=None, target=None):
        parts = fullname.split(".")
        if parts[0] != _PACKAGE or len(parts) < 2 or parts[1] not in GPU_MODULES:
            return None
        return importlib.machinery.ModuleSpec(fullname, self, is_package=True)

    def create_module(self, spec):
        return _module(spec.name.split(".", 1)[1])

    def exec_module(self, module):
        pass


def install() -> None:
    """Adds the finder to ``sys.meta_path`` (once)."""
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.append(_Finder())
