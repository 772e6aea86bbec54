"""Kernel faults and resources under load, from Python.

A kernel that crashes (null dereference, division by zero, failed assert, stack overflow, illegal
instruction, a raw access or memcpy outside its core's L1, however far) raises
runtime_mock.KernelFaultError naming the signal or the access, core, RISC and kernel file:line, and the
next program in the same process runs. A kernel spinning outside the API is reported by the watchdog with
its line and its thread goes away; eight Python threads with a device each run at once on either arch.
"""

from __future__ import annotations

import faulthandler
import os
import re
import signal
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import runtime_mock

# Resolved like Program.add_kernel resolves kernel paths (out of Bazel's runfiles symlinks).
FAULTING = (Path(__file__).absolute().parent.parent.parent / "tests" / "kernels" / "faulting.cpp").resolve()
HOST_KERNELS = Path(__file__).absolute().parent / "kernels"
PAGE = 2048


def fault_line(name: str) -> str:
    """'faulting.cpp:<line>' of the line marked '// fault:<name>'."""
    for number, line in enumerate(FAULTING.read_text().splitlines(), start=1):
        if f"// fault:{name}" in line:
            return f"faulting.cpp:{number}"
    raise AssertionError(f"no marker fault:{name} in {FAULTING}")


def faulting_program(device: runtime_mock.Device, fault: str | None, core=(0, 0)) -> runtime_mock.Program:
    program = runtime_mock.Program()
    defines = {f"FAULT_{fault}": "1"} if fault else {}
    kernel = program.add_kernel(FAULTING, core, "riscv_1", defines=defines)
    program.add_circular_buffer(core, index=0, data_format="Float16_b", page_size=PAGE, num_pages=2)
    program.add_semaphore(core)
    # L1_OVERRUN: the bytes from the first CB (c_0) to the end of the core's L1.
    depth = 1 << 30 if fault == "STACK_OVERFLOW" else device.spec.l1_bytes - device.spec.l1_reserved_bytes
    program.set_runtime_args(kernel, core, [0, depth])
    return program


def run_fault(fault: str | None, arch: str = "wormhole") -> None:
    device = runtime_mock.Device(arch)
    device.run(faulting_program(device, fault))


def thread_count() -> int:
    return len(os.listdir("/proc/self/task"))


@pytest.mark.parametrize(
    "fault, expected",
    [
        ("NULL", r"SIGSEGV \(invalid memory access\) at address 0x0\b"),
        ("DIVIDE_BY_ZERO", r"SIGFPE \(arithmetic error"),
        ("ASSERT", r"SIGABRT \(abort, e.g. a failed assert"),
        ("STACK_OVERFLOW", r"SIGSEGV .*: stack overflow"),
        ("TRAP", r"SIGILL \(illegal instruction"),
        (
            "L1_OVERRUN",
            r"4-byte write at 0x[0-9a-f]+, outside this core's L1 \(0x[0-9a-f]+ to 0x[0-9a-f]+\): "
            r"0x100 bytes past the end of core \(0,0\)'s L1",
        ),
        (
            "L1_NEIGHBOUR",
            r"4-byte read at 0x[0-9a-f]+, outside this core's L1 .*: that is core \(\d+,0\)'s L1 at "
            r"offset 0x[0-9a-f]+ \(use the NOC to reach another core's L1\)",
        ),
        (
            "L1_MEMCPY",
            r"64-byte write at 0x[0-9a-f]+, outside this core's L1 .*: that is core \(\d+,0\)'s L1",
        ),
    ],
)
def test_kernel_fault_raises_kernel_fault_error_and_the_process_goes_on(fault, expected):
    with pytest.raises(runtime_mock.KernelFaultError) as raised:
        run_fault(fault)
    message = str(raised.value)
    assert isinstance(raised.value, runtime_mock.DeviceError)
    assert f"core (0,0) RISCV_1 (NCRISC) [{FAULTING}]: kernel fault" in message, message
    assert re.search(expected, message), message
    if fault != "STACK_OVERFLOW":  # it stops in a function's prologue
        assert f"kernel fault at {FAULTING.parent}/{fault_line(fault)}: " in message, message
    run_fault(None)


def test_fault_after_faulthandler_replaced_the_handler():
    run_fault(None)
    faulthandler.disable()
    faulthandler.enable()  # installs its own SIGSEGV handler over the simulator's
    with pytest.raises(runtime_mock.KernelFaultError, match="SIGSEGV"):
        run_fault("NULL")


def test_crash_outside_kernels_still_reaches_faulthandler():
    crash = (
        "import ctypes, sys, runtime_mock\n"
        f"sys.path.insert(0, {str(Path(__file__).parent)!r})\n"
        "from test_kernel_faults import run_fault\n"
        "run_fault(None)\n"
        "ctypes.string_at(0)\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    result = subprocess.run(
        [sys.executable, "-X", "faulthandler", "-c", crash], env=env, capture_output=True, text=True
    )
    assert result.returncode == -signal.SIGSEGV, result.stderr
    assert "Fatal Python error: Segmentation fault" in result.stderr, result.stderr


def test_watchdog_names_the_spinning_line_and_stops_the_thread(monkeypatch):
    monkeypatch.setenv("RUNTIME_MOCK_WATCHDOG_SECONDS", "1")
    device = runtime_mock.Device()
    device.run(faulting_program(device, None))  # kernel workers live across runs: the baseline has one
    threads = thread_count()
    with pytest.raises(runtime_mock.DeadlockError, match=r"no kernel made progress for 1 s") as raised:
        device.run(faulting_program(device, "SPIN"))
    assert f"running at {FAULTING.parent}/{fault_line('SPIN')}" in str(raised.value), raised.value
    assert thread_count() == threads
    device.run(faulting_program(device, None))


@pytest.mark.parametrize("arch", ["wormhole", "blackhole"])
def test_eight_threads_each_with_a_device_run_at_once(arch):
    with ThreadPoolExecutor(max_workers=8) as pool:
        for result in [pool.submit(run_fault, None, arch) for _ in range(8)]:
            result.result()


def test_host_program_kernel_fault_reaches_python():
    so = runtime_mock.build_host_program([HOST_KERNELS / "faulting_host.cpp"])
    with pytest.raises(runtime_mock.KernelFaultError, match=re.escape(fault_line("DIVIDE_BY_ZERO"))):
        runtime_mock.HostProgram(so).main([str(FAULTING), "DIVIDE_BY_ZERO"])
    assert runtime_mock.HostProgram(so).main([str(FAULTING), "NONE"]) == 0
