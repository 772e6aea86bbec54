"""``tilelang.carver.arch``: the device queries of ``driver`` (``driver.get_num_sms()`` sizes persistent
kernels). Upstream's GPU architecture models (``CUDA``, ``CDNA``, ...) describe GPUs, and the carver's
templates and rasterizations schedule for them; importing them is an ImportError that says so."""

from __future__ import annotations

from . import driver

__all__ = ["driver"]


def __getattr__(name: str):
    if name.startswith("__"):
        raise AttributeError(name)
    raise ImportError(
        f"tilelang.carver.arch.{name} models a GPU and is not available on Tenstorrent; only "
        f"tilelang.carver.arch.driver's device queries are (driver.get_num_sms() gives the Tensix core count)"
    )
