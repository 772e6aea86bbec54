"""``tilelang.carver.arch.driver``: upstream's CUDA device queries, answered for the default Tenstorrent
target (``target.DEFAULT_TARGET``), the device a program runs on unless it names another.

A persistent kernel launches one program per streaming multiprocessor (``T.Kernel(driver.get_num_sms())``);
on Tenstorrent the unit is a Tensix core. Shared memory is a core's L1 less the firmware's reserved area,
the room circular buffers have. ``device_id`` is accepted for upstream's signatures: the simulator has one
kind of device per target.
"""

from __future__ import annotations

from ...target import DEFAULT_TARGET, get_target

_UNITS = {"bytes": 1, "kb": 1 << 10, "mb": 1 << 20}


def get_num_sms(device_id: int = 0) -> int:
    """The number of Tensix cores of the default target's compute grid (Wormhole n150: 64)."""
    return get_target(DEFAULT_TARGET).num_cores


def get_device_name(device_id: int = 0) -> str:
    """The default target's name, e.g. "wormhole"."""
    return get_target(DEFAULT_TARGET).name


def get_shared_memory_per_block(device_id: int = 0, format: str = "bytes") -> int:  # noqa: A002 -- upstream's name
    """A core's L1 that circular buffers may use, in ``format`` ("bytes", "kb" or "mb", rounded down)."""
    if format not in _UNITS:
        raise ValueError(f"format must be one of {', '.join(_UNITS)}, not {format!r}")
    return get_target(DEFAULT_TARGET).l1_cb_budget // _UNITS[format]


get_max_dynamic_shared_size_bytes = get_shared_memory_per_block
