"""Names of upstream's ``tilelang.carver`` that schedule for GPUs: they import, so a TileLang example that
imports them at the top runs its other paths, and using one is a TTCompileError at the user's line."""

from __future__ import annotations

from ..errors import TTCompileError, caller_location


class GpuOnly:
    """``tilelang.carver.<path>``: a GPU architecture model, template or rasterization plan. Calling it (or
    constructing it) is a TTCompileError located at the call; comparing it (``plan is NoRasterization``)
    works as with any object."""

    def __init__(self, path: str):
        self.path = path

    def __call__(self, *args, **kwargs):
        raise TTCompileError(
            f"tilelang.carver.{self.path} schedules for GPUs (SM counts, tensor-core tilings, "
            f"rasterization) and is not available on Tenstorrent yet; tune block sizes with "
            f"tilelang.autotune or AutoTuner over the device timing model, and size persistent grids with "
            f"tilelang.carver.arch.driver",
            *caller_location(),
        )

    def __repr__(self) -> str:
        return f"<tilelang.carver.{self.path}: GPU-only, not available on Tenstorrent>"


def module_getattr(module: str, names: frozenset[str]):
    """A module ``__getattr__`` giving a GpuOnly for each of ``names`` (``module`` is its path under
    carver), an AttributeError for any other name."""

    def __getattr__(name: str):
        if name not in names:
            raise AttributeError(f"module 'tilelang.carver.{module}' has no attribute {name!r}")
        return GpuOnly(f"{module}.{name}")

    return __getattr__
