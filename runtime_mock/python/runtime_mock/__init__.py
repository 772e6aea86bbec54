"""runtime_mock: a CPU simulation of a Tenstorrent device, and SDK-style host programs running on it.

Example::

    import numpy as np
    import runtime_mock

    device = runtime_mock.Device()                       # wormhole unless set_default_arch() says otherwise
    buffer = device.dram_buffer(np.arange(2048, dtype=np.uint16), page_size=2048)
    assert (buffer.read(np.uint16) == np.arange(2048)).all()

    so = runtime_mock.build_host_program(["main.cpp"])   # an SDK host program with tilelang_tt_run()
    runtime_mock.HostProgram(so).run("kernels/", [a, b, c])

Timing: ``with runtime_mock.profiling() as session:`` models how long each run inside it takes on the device
(``session.runs``, ``runtime_mock.profile.summary(session)``, ``runtime_mock.profile.write_chrome_trace``).

Device-side failures raise :class:`DeviceError` or one of its subclasses; a kernel that crashes
(segfault, division by zero, failed assert, stack overflow, illegal instruction, a write past its core's
L1) raises :class:`KernelFaultError`, and the process stays usable.
"""

from __future__ import annotations

import os
import sys

from . import config

config.warn_of_former_variables()
config.export_include_dirs()

# Host programs and kernels resolve the runtime's symbols from this extension: load it globally.
_flags = sys.getdlopenflags()
sys.setdlopenflags(_flags | os.RTLD_GLOBAL)
try:
    from . import _runtime_mock  # noqa: F401 - loaded first, with RTLD_GLOBAL
finally:
    sys.setdlopenflags(_flags)

from . import profile  # noqa: E402
from ._runtime_mock import (  # noqa: E402
    ArgumentError,
    CircularBufferError,
    DataRaceError,
    DeadlockError,
    DeviceError,
    DstError,
    KernelBuildError,
    KernelFaultError,
    NocAccessError,
)
from .architecture import arch_facts  # noqa: E402
from .device import (  # noqa: E402
    Buffer,
    CoreCounters,
    Device,
    default_arch,
    set_default_arch,
    wait_for_scrubber,
)
from .host_program import HostProgram, build_host_program  # noqa: E402
from .profile import ProfilingSession, RunProfile, profiling  # noqa: E402
from .program import Kernel, Program, core_range, tensor_accessor_args  # noqa: E402
from .schedules import first_failing_schedule, schedule_seed  # noqa: E402

__all__ = [
    "ArgumentError",
    "arch_facts",
    "Buffer",
    "CircularBufferError",
    "CoreCounters",
    "DataRaceError",
    "DeadlockError",
    "Device",
    "DeviceError",
    "DstError",
    "HostProgram",
    "Kernel",
    "KernelBuildError",
    "KernelFaultError",
    "NocAccessError",
    "Program",
    "ProfilingSession",
    "RunProfile",
    "build_host_program",
    "core_range",
    "default_arch",
    "first_failing_schedule",
    "profile",
    "profiling",
    "schedule_seed",
    "set_default_arch",
    "wait_for_scrubber",
    "tensor_accessor_args",
]
