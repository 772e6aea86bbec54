"""Keep ``import tvm`` and ``import tvm_ffi`` from importing torch.

Both packages try ``import torch`` while they initialise (tvm_ffi to register DLPack exchange with torch
tensors, tvm.relax for its torch-backed Python modules). The compiler never hands a torch tensor to TVM —
torch tensors reach the device as numpy views (``torch_interop``) — yet a torch install would add most of a
second to every ``import tilelang_tt.language``. So while either package initialises, and only when the
program has not imported torch itself, ``import torch`` fails as if torch were absent; afterwards torch
imports normally. A program that imported torch first is left alone.

    install()    # before anything imports TVM (tilelang_tt/__init__.py)
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys

__all__ = ["install"]


class _HideTorchWhileLoading(importlib.abc.Loader):
    """A package's own loader, run with torch hidden."""

    def __init__(self, loader):
        self._loader = loader

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module) -> None:
        hidden = "torch" not in sys.modules
        if hidden:
            sys.modules["torch"] = None  # `import torch` raises ImportError
        try:
            self._loader.exec_module(module)
        finally:
            if hidden and sys.modules.get("torch", False) is None:
                del sys.modules["torch"]

    def __getattr__(self, name):  # resource readers, get_filename, ...
        return getattr(self._loader, name)


_PACKAGES = ("tvm", "tvm_ffi")


class _TvmFinder(importlib.abc.MetaPathFinder):
    """Finds tvm and tvm_ffi as the other finders do, with their loaders wrapped; then steps aside."""

    def __init__(self):
        self.pending = {name for name in _PACKAGES if name not in sys.modules}

    def find_spec(self, fullname, path, target=None):
        if fullname not in self.pending:
            return None
        self.pending.discard(fullname)
        if not self.pending:
            sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is not None and spec.loader is not None and "torch" not in sys.modules:
            spec.loader = _HideTorchWhileLoading(spec.loader)
        return spec


def install() -> None:
    finder = _TvmFinder()
    if finder.pending and not any(isinstance(f, _TvmFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, finder)
