"""``tilelang.carver.arch``: the device queries of ``driver`` (``driver.get_num_sms()`` sizes persistent
kernels). Upstream's GPU architecture models (``CUDA``, ``CDNA``, ...) describe GPUs: they import, and
constructing one is a TTCompileError that says so (``carver/gpu_only.py``)."""

from __future__ import annotations

from ..gpu_only import module_getattr
from . import driver

__all__ = ["driver"]

__getattr__ = module_getattr(
    "arch",
    frozenset({"TileDevice", "CUDA", "CDNA", "RDNA", "CPU", "METAL", "get_arch", "auto_infer_current_arch"}),
)
