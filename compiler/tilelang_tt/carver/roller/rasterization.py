"""``tilelang.carver.roller.rasterization``: upstream's block rasterization plans for GPUs; they import
(TileLang's autotuned GEMM compares a hint's plan with ``NoRasterization``), and constructing one is a
TTCompileError that says so (``carver/gpu_only.py``)."""

from __future__ import annotations

from ..gpu_only import module_getattr

__getattr__ = module_getattr(
    "roller.rasterization",
    frozenset({"Rasterization", "NoRasterization", "Rasterization2DRow", "Rasterization2DColumn"}),
)
