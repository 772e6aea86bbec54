"""``tilelang.carver.template``: upstream's roller templates recommend GPU tilings; they import, and
constructing one is a TTCompileError that says so (``carver/gpu_only.py``)."""

from __future__ import annotations

from .gpu_only import module_getattr

__getattr__ = module_getattr(
    "template",
    frozenset(
        {
            "BaseTemplate",
            "MatmulTemplate",
            "GEMVTemplate",
            "ElementwiseTemplate",
            "GeneralReductionTemplate",
            "FlashAttentionTemplate",
            "ConvTemplate",
        }
    ),
)
