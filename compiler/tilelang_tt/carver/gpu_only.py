"""Names of upstream's ``tilelang.carver`` that schedule for GPUs: they import, so a TileLang example that
imports them at the top runs its other paths, and using one is a TTCompileError at the user's line."""

from __future__ import annotations

from ..gpu_modules import GpuName

# what every carver name that is not the driver does
CARVER_REASON = (
    "schedules for GPUs (SM counts, tensor-core tilings, rasterization) and is not available on Tenstorrent "
    "yet; tune block sizes with tilelang.autotune or AutoTuner over the device timing model, and size "
    "persistent grids with tilelang.carver.arch.driver"
)


def module_getattr(module: str, names: frozenset[str]):
    """A module ``__getattr__`` giving a GpuName for each of ``names`` (``module`` is its path under
    carver), an AttributeError for any other name."""

    def __getattr__(name: str):
        if name not in names:
            raise AttributeError(f"module 'tilelang.carver.{module}' has no attribute {name!r}")
        return GpuName(f"carver.{module}.{name}", CARVER_REASON)

    return __getattr__
