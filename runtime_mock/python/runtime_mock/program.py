"""Program: kernels, circular buffers and semaphores of one launch on the mock device.

The Python counterpart of the SDK's CreateKernel / CreateCircularBuffer / CreateSemaphore /
SetRuntimeArgs. Cores are ``(x, y)`` tuples of the logical compute grid.

Example::

    program = runtime_mock.Program()
    cores = runtime_mock.core_range((0, 0), (1, 1))
    reader = program.add_kernel("reader.cpp", cores, "riscv_1", compile_args=[2, 2])
    program.add_circular_buffer(cores, index=0, data_format="Float16_b", page_size=2048, num_pages=2)
    for x, y in cores:
        program.set_runtime_args(reader, (x, y), [address, x + y])
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from . import _runtime_mock

Core = tuple[int, int]

_ROLES = {
    "riscv_0": _runtime_mock.KernelRole.DataMovement0,
    "riscv_1": _runtime_mock.KernelRole.DataMovement1,
    "compute": _runtime_mock.KernelRole.Compute,
}

_FIDELITY = {"LoFi": 0, "HiFi2": 2, "HiFi3": 3, "HiFi4": 4}


def core_range(start: Core, end: Core) -> list[Core]:
    """The cores of the inclusive rectangle start..end, row by row."""
    (x0, y0), (x1, y1) = start, end
    if x1 < x0 or y1 < y0:
        raise ValueError(f"core_range: start {start} is past end {end}")
    return [(x, y) for y in range(y0, y1 + 1) for x in range(x0, x1 + 1)]


def _cores(cores: Core | Iterable[Core]) -> list[Core]:
    if isinstance(cores, tuple) and len(cores) == 2 and all(isinstance(c, int) for c in cores):
        return [cores]
    result = [tuple(core) for core in cores]
    if not result:
        raise ValueError("no cores given")
    return result


def _logical(cores: Iterable[Core]) -> list[_runtime_mock.LogicalCore]:
    return [_runtime_mock.LogicalCore(x, y) for x, y in cores]


def tensor_accessor_args(memory: str) -> list[int]:
    """The compile-time words TensorAccessorArgs(buffer).append_to adds for an interleaved buffer in
    ``memory`` ("DRAM" or "L1"): one ArgConfig word (hostdevcommon/tensor_accessor/arg_config.hpp)."""
    return [_runtime_mock.TENSOR_ACCESSOR_DRAM if memory == "DRAM" else 0]


@dataclass(frozen=True)
class Kernel:
    """Handle of a kernel in a Program (the SDK's KernelHandle)."""

    index: int


@dataclass
class _KernelEntry:
    spec: _runtime_mock.KernelSpec
    cores: list[Core]
    runtime_args: dict[Core, list[int]] = field(default_factory=dict)
    common_runtime_args: list[int] = field(default_factory=list)


class Program:
    """Kernels, circular buffers and semaphores of one launch (see the module docstring)."""

    def __init__(self) -> None:
        self._kernels: list[_KernelEntry] = []
        self._circular_buffers: list[_runtime_mock.CircularBufferSpec] = []
        self._semaphores: list[_runtime_mock.SemaphoreSpec] = []

    def add_kernel(
        self,
        source: str | Path,
        cores: Core | Iterable[Core],
        role: str,
        *,
        compile_args: Sequence[int] = (),
        defines: Mapping[str, str] | None = None,
        named_compile_args: Mapping[str, int] | None = None,
        noc: int | None = None,
        math_fidelity: str = "HiFi4",
        fp32_dest_acc_en: bool = False,
        dst_full_sync_en: bool = False,
        math_approx_mode: bool = False,
    ) -> Kernel:
        """Adds a kernel; role is "riscv_0" (BRISC), "riscv_1" (NCRISC) or "compute".

        A data-movement kernel uses NOC 0 on riscv_0 and NOC 1 on riscv_1 unless `noc` says otherwise.
        """
        path = Path(source).resolve()
        if not path.is_file():
            raise FileNotFoundError(f"kernel source {source} not found (looked at {path})")
        if role not in _ROLES:
            raise ValueError(f"role must be one of {sorted(_ROLES)}, not {role!r}")
        spec = _runtime_mock.KernelSpec()
        spec.source_path = str(path)
        spec.role = _ROLES[role]
        spec.noc = (1 if role == "riscv_1" else 0) if noc is None else noc
        core_list = _cores(cores)
        spec.cores = _logical(core_list)
        spec.compile_args = list(compile_args)
        spec.defines = dict(defines or {})
        spec.named_compile_args = dict(named_compile_args or {})
        options = _runtime_mock.ComputeOptions()
        options.math_fidelity = _FIDELITY[math_fidelity]
        options.fp32_dest_acc_en = fp32_dest_acc_en
        options.dst_full_sync_en = dst_full_sync_en
        options.math_approx_mode = math_approx_mode
        spec.compute = options
        self._kernels.append(_KernelEntry(spec, core_list))
        return Kernel(len(self._kernels) - 1)

    def add_circular_buffer(
        self,
        cores: Core | Iterable[Core],
        index: int,
        data_format: str,
        page_size: int,
        num_pages: int,
    ) -> None:
        """A CB of num_pages pages of page_size bytes at the same L1 address on every core."""
        spec = _runtime_mock.CircularBufferSpec()
        spec.cores = _logical(_cores(cores))
        spec.total_size = page_size * num_pages
        spec.indices = [
            _runtime_mock.CircularBufferIndex(
                index, getattr(_runtime_mock.DataFormat, data_format), page_size
            )
        ]
        self._circular_buffers.append(spec)

    def add_semaphore(self, cores: Core | Iterable[Core], initial_value: int = 0) -> int:
        """A semaphore on the cores; returns its id (what kernels pass to get_semaphore)."""
        core_set = set(_cores(cores))
        taken = {s.id for s in self._semaphores if core_set & {(c.x, c.y) for c in s.cores}}
        semaphore_id = next(i for i in range(len(self._semaphores) + 1) if i not in taken)
        spec = _runtime_mock.SemaphoreSpec()
        spec.id = semaphore_id
        spec.cores = _logical(sorted(core_set))
        spec.initial_value = initial_value
        self._semaphores.append(spec)
        return semaphore_id

    def set_runtime_args(self, kernel: Kernel, core: Core, args: Sequence[int]) -> None:
        entry = self._kernels[kernel.index]
        if tuple(core) not in entry.cores:
            raise ValueError(f"kernel {entry.spec.source_path} does not run on core {core}")
        entry.runtime_args[tuple(core)] = [int(a) for a in args]

    def set_common_runtime_args(self, kernel: Kernel, args: Sequence[int]) -> None:
        self._kernels[kernel.index].common_runtime_args = [int(a) for a in args]

    def build_kernels(self, arch: str) -> None:
        """Builds (or finds in the kernel cache) every kernel as a run on an ``arch`` device would, so that
        the run starts without compiling; releases the GIL, so another thread can work meanwhile."""
        _runtime_mock.build_program_kernels(self.spec(), _runtime_mock.parse_arch(arch))

    def spec(self) -> _runtime_mock.ProgramSpec:
        """The program as the device runs it."""
        program = _runtime_mock.ProgramSpec()
        kernels = []
        for entry in self._kernels:
            spec = entry.spec
            spec.runtime_args = {
                _runtime_mock.LogicalCore(x, y): a for (x, y), a in entry.runtime_args.items()
            }
            spec.common_runtime_args = entry.common_runtime_args
            kernels.append(spec)
        program.kernels = kernels
        program.circular_buffers = self._circular_buffers
        program.semaphores = self._semaphores
        return program
