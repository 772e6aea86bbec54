"""Device and Buffer: the simulated chip, its interleaved DRAM/L1 buffers with numpy in and out.

Example::

    device = runtime_mock.Device("blackhole")
    a = device.dram_buffer(np.ones((32, 32), np.float32), page_size=4096)
    out = device.dram_buffer(size=4096, page_size=4096)
    device.run(program)
    result = out.read(np.float32, (32, 32))
    device.counters()[(0, 0)].tiles_read
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import _runtime_mock
from .profile import RunProfile
from .program import Core, Program


def set_default_arch(arch: str) -> None:
    """The arch of devices created without one, including a host program's CreateDevice / create_unit_mesh."""
    _runtime_mock.set_default_arch(_runtime_mock.parse_arch(arch))


def wait_for_scrubber() -> None:
    """Returns once the memory of every destroyed device is zeroed: a background thread zeroes it after the
    device (a host program's, at the end of each call) is gone. Benchmarks call it between what they time,
    so that one measurement does not pay for the previous one's zeroing."""
    _runtime_mock.wait_for_scrubber()


def default_arch() -> str:
    return _runtime_mock.arch_spec(_runtime_mock.default_arch()).name


@dataclass(frozen=True)
class CoreCounters:
    """What one core did during the last run."""

    tiles_read: int
    tiles_written: int
    noc_bytes_read: int
    noc_bytes_written: int
    cb_waits: int


class Buffer:
    """An interleaved buffer: page i in bank i % banks. Freed when the Buffer is garbage-collected."""

    def __init__(self, device: Device, size: int, page_size: int, kind: _runtime_mock.BufferKind) -> None:
        allocate = (
            device._device.allocate_dram
            if kind == _runtime_mock.BufferKind.Dram
            else device._device.allocate_l1
        )
        self.device = device
        self.size = size
        self.page_size = page_size
        self.kind = kind
        self.address = allocate(size, page_size)

    def write(self, data: np.ndarray) -> None:
        """Writes the array's bytes (at most the buffer's size) to the start of the buffer."""
        array = np.ascontiguousarray(data)
        if array.nbytes > self.size:
            raise ValueError(f"{array.nbytes} bytes do not fit a buffer of {self.size} bytes")
        self.device._device.write_interleaved(
            self.kind, self.address, self.page_size, array.reshape(-1).view(np.uint8)
        )

    def read(self, dtype: np.dtype | type = np.uint8, shape: tuple[int, ...] | None = None) -> np.ndarray:
        """The buffer's contents as an array of dtype (the whole buffer unless shape says less)."""
        dtype = np.dtype(dtype)
        count = self.size // dtype.itemsize if shape is None else int(np.prod(shape))
        out = np.empty(count, dtype)
        if out.nbytes > self.size:
            raise ValueError(f"{out.nbytes} bytes requested from a buffer of {self.size} bytes")
        self.device._device.read_interleaved(self.kind, self.address, self.page_size, out.view(np.uint8))
        return out if shape is None else out.reshape(shape)

    def __del__(self) -> None:
        device = getattr(self, "device", None)
        if device is not None and hasattr(self, "address"):
            device._device.deallocate(self.kind, self.address)


class Device:
    """One simulated chip; arch is "wormhole" or "blackhole" (default: :func:`default_arch`)."""

    def __init__(self, arch: str | None = None) -> None:
        self._device = _runtime_mock.Device(
            _runtime_mock.parse_arch(arch) if arch else _runtime_mock.default_arch()
        )

    @property
    def arch(self) -> str:
        return self._device.spec.name

    @property
    def grid(self) -> Core:
        """(columns, rows) of the compute grid."""
        return (self._device.spec.grid_x, self._device.spec.grid_y)

    @property
    def spec(self) -> _runtime_mock.ArchSpec:
        return self._device.spec

    def dram_buffer(
        self, data: np.ndarray | None = None, *, page_size: int, size: int | None = None
    ) -> Buffer:
        """A DRAM buffer of `size` bytes (default: data's size), initialised from `data` if given."""
        return self._buffer(data, page_size, size, _runtime_mock.BufferKind.Dram)

    def l1_buffer(self, data: np.ndarray | None = None, *, page_size: int, size: int | None = None) -> Buffer:
        """An L1 buffer interleaved over the worker cores."""
        return self._buffer(data, page_size, size, _runtime_mock.BufferKind.L1)

    def worker_noc_coord(self, core: Core) -> Core:
        """NOC coordinates of a logical worker core (what kernels pass to get_noc_addr)."""
        noc = self._device.worker_noc_coord(_runtime_mock.LogicalCore(*core))
        return (noc.x, noc.y)

    def run(self, program: Program) -> None:
        """Runs the program to completion; raises DeviceError (or a subclass) on misuse."""
        self._device.run(program.spec())

    def last_run_profile(self) -> RunProfile | None:
        """The modelled timing of the last run if it was profiled (see runtime_mock.profiling), else None."""
        native = self._device.last_run_profile()
        return RunProfile(native) if native is not None else None

    def counters(self) -> dict[Core, CoreCounters]:
        """Per-core counters of the last run."""
        return {
            (c.core.x, c.core.y): CoreCounters(
                c.tiles_read, c.tiles_written, c.noc_bytes_read, c.noc_bytes_written, c.cb_waits
            )
            for c in self._device.last_run_counters()
        }

    def _buffer(
        self, data: np.ndarray | None, page_size: int, size: int | None, kind: _runtime_mock.BufferKind
    ) -> Buffer:
        if size is None:
            if data is None:
                raise ValueError("give the buffer's size or its initial data")
            size = np.asarray(data).nbytes
        buffer = Buffer(self, size, page_size, kind)
        if data is not None:
            buffer.write(data)
        return buffer
