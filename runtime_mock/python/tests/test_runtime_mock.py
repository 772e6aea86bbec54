"""The runtime_mock package: numpy round trips, programs, typed errors, host programs."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

import runtime_mock

KERNELS = Path(__file__).absolute().parent / "kernels"
PAGE = 2048


@pytest.mark.parametrize("arch", ["wormhole", "blackhole"])
def test_dram_round_trip_keeps_every_byte(arch):
    device = runtime_mock.Device(arch)
    data = np.random.default_rng(0).integers(0, 2**16, size=(3, 32, 32), dtype=np.uint16)
    buffer = device.dram_buffer(data, page_size=PAGE)
    np.testing.assert_array_equal(buffer.read(np.uint16, data.shape), data)


def test_l1_round_trip_and_partial_read():
    device = runtime_mock.Device()
    data = np.arange(8 * 1024, dtype=np.float32)
    buffer = device.l1_buffer(data, page_size=4096)
    np.testing.assert_array_equal(buffer.read(np.float32), data)
    np.testing.assert_array_equal(buffer.read(np.float32, (16,)), data[:16])


def test_arch_facts():
    assert runtime_mock.Device("wormhole").grid == (8, 8)
    blackhole = runtime_mock.Device("blackhole")
    assert blackhole.arch == "blackhole"
    assert blackhole.grid == (13, 10)


def _copy_program(device, src, dst, num_pages):
    program = runtime_mock.Program()
    kernel = program.add_kernel(KERNELS / "dram_copy.cpp", (0, 0), "riscv_0", compile_args=[2, 2])
    program.add_circular_buffer((0, 0), index=0, data_format="Float16_b", page_size=PAGE, num_pages=2)
    program.set_runtime_args(kernel, (0, 0), [src.address, dst.address, num_pages, PAGE])
    return program


def test_program_copies_pages_and_counts_them():
    device = runtime_mock.Device()
    data = np.random.default_rng(1).integers(0, 2**16, size=5 * 1024, dtype=np.uint16)
    src = device.dram_buffer(data, page_size=PAGE)
    dst = device.dram_buffer(size=data.nbytes, page_size=PAGE)
    device.run(_copy_program(device, src, dst, 5))
    np.testing.assert_array_equal(dst.read(np.uint16), data)
    counters = device.counters()[(0, 0)]
    assert counters.tiles_read == 5, counters
    assert counters.noc_bytes_read == 5 * PAGE, counters


def test_kernels_load_the_builds_precompiled_standard_headers(tmp_path, monkeypatch):
    """The JIT force-includes runtime_mock/pch/kernel_std.hpp, which the build precompiles with the kernels'
    flags (src/kernel_build_flags.hpp); g++ silently parses the header's text instead when the two drift
    apart, so this builds a kernel through a compiler that reports each precompiled header it loads (-H
    marks one with "!")."""
    header = os.environ.get("RUNTIME_MOCK_KERNEL_PCH")
    assert header, "RUNTIME_MOCK_KERNEL_PCH is not set: no kernel_std.hpp.gch beside runtime_mock/pch/"
    log = tmp_path / "compiler.log"
    reporting = tmp_path / "reporting-g++"
    reporting.write_text(f'#!/bin/sh\nexec g++ -H "$@" 2>>"{log}"\n')
    reporting.chmod(0o755)
    monkeypatch.setenv("RUNTIME_MOCK_CXX", str(reporting))
    monkeypatch.setenv("RUNTIME_MOCK_CACHE_DIR", str(tmp_path / "kernels"))
    device = runtime_mock.Device()
    data = np.arange(2 * 1024, dtype=np.uint16)
    src = device.dram_buffer(data, page_size=PAGE)
    dst = device.dram_buffer(size=data.nbytes, page_size=PAGE)
    device.run(_copy_program(device, src, dst, 2))
    np.testing.assert_array_equal(dst.read(np.uint16), data)
    loaded = [line for line in log.read_text().splitlines() if ".gch" in line]
    assert f"! {header}.gch" in loaded, f"the kernel build did not load {header}.gch: {loaded}"


def _unfilled_page(device) -> np.ndarray:
    """What a kernel that pushes a CB page it never filled writes out, as float32."""
    dst = device.dram_buffer(size=PAGE, page_size=PAGE)
    program = runtime_mock.Program()
    kernel = program.add_kernel(KERNELS / "unfilled_cb_page.cpp", (0, 0), "riscv_0", compile_args=[2])
    program.add_circular_buffer((0, 0), index=0, data_format="Float32", page_size=PAGE, num_pages=1)
    program.set_runtime_args(kernel, (0, 0), [dst.address, PAGE])
    device.run(program)
    return dst.read(np.float32)


def test_never_written_l1_holds_zeros_or_poison(monkeypatch):
    """RUNTIME_MOCK_L1_FILL=poison fills a new device's L1 above the reserved area with 0xff bytes (NaN in
    every float format), so an L1 buffer the host never wrote reads as NaN; by default it reads as zeros,
    and a never-filled CB page goes out as zeros (race detection, which reports that read, is off here)."""
    monkeypatch.setenv("RUNTIME_MOCK_RACE_DETECTION", "0")
    for fill, expected in (("zero", 0.0), ("poison", np.nan)):
        monkeypatch.setenv("RUNTIME_MOCK_L1_FILL", fill)
        values = runtime_mock.Device().l1_buffer(size=2 * PAGE, page_size=PAGE).read(np.float32)
        np.testing.assert_array_equal(values, np.full_like(values, expected), err_msg=f"{fill}: unwritten L1")
    monkeypatch.setenv("RUNTIME_MOCK_L1_FILL", "zero")
    assert (_unfilled_page(runtime_mock.Device()) == 0).all()


def _line_of(kernel: str, text: str) -> int:
    lines = (KERNELS / kernel).read_text().splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


def test_a_never_written_page_sent_over_the_noc_is_reported_at_its_line(monkeypatch):
    """Under the poison fill, a NOC write whose whole source still holds it reads L1 nothing wrote."""
    monkeypatch.setenv("RUNTIME_MOCK_L1_FILL", "poison")
    with pytest.raises(runtime_mock.DeviceError) as err:
        _unfilled_page(runtime_mock.Device())
    line = _line_of("unfilled_cb_page.cpp", "noc_async_write_page(")
    assert f"unfilled_cb_page.cpp:{line}" in str(err.value), err.value
    assert "that nothing wrote in this program: every byte still holds the" in str(err.value), err.value


def test_a_never_written_tile_unpacked_by_compute_is_reported_at_its_line(monkeypatch):
    monkeypatch.setenv("RUNTIME_MOCK_L1_FILL", "poison")
    program = runtime_mock.Program()
    program.add_kernel(KERNELS / "unfilled_tile_unpack.cpp", (0, 0), "compute")
    for index in (0, 16):
        program.add_circular_buffer((0, 0), index=index, data_format="Float16_b", page_size=PAGE, num_pages=1)
    with pytest.raises(runtime_mock.DeviceError) as err:
        runtime_mock.Device().run(program)
    line = _line_of("unfilled_tile_unpack.cpp", "copy_tile(")
    assert f"unfilled_tile_unpack.cpp:{line}" in str(err.value), err.value
    assert "reads page 0 of circular buffer 0" in str(err.value) and "nothing wrote" in str(err.value), (
        err.value
    )


def test_an_unknown_l1_fill_is_named(monkeypatch):
    monkeypatch.setenv("RUNTIME_MOCK_L1_FILL", "nan")
    expected = "RUNTIME_MOCK_L1_FILL='nan' is neither zero nor poison"
    with pytest.raises(runtime_mock.ArgumentError, match=expected):
        runtime_mock.Device()


def test_deadlock_raises_deadlock_error():
    device = runtime_mock.Device()
    program = runtime_mock.Program()
    program.add_kernel(KERNELS / "wait_forever.cpp", (0, 0), "riscv_1")
    program.add_circular_buffer((0, 0), index=0, data_format="Float16_b", page_size=PAGE, num_pages=1)
    with pytest.raises(runtime_mock.DeadlockError, match="cb_wait_front"):
        device.run(program)


def test_compile_error_raises_kernel_build_error():
    program = runtime_mock.Program()
    program.add_kernel(KERNELS / "bad_syntax.cpp", (0, 0), "riscv_0")
    with pytest.raises(runtime_mock.KernelBuildError, match="bad_syntax.cpp"):
        runtime_mock.Device().run(program)


def test_missing_runtime_arg_raises_argument_error():
    program = runtime_mock.Program()
    kernel = program.add_kernel(KERNELS / "read_missing_arg.cpp", (0, 0), "riscv_0")
    program.set_runtime_args(kernel, (0, 0), [1, 2])
    with pytest.raises(runtime_mock.ArgumentError):
        runtime_mock.Device().run(program)


def test_every_device_error_is_a_device_error():
    for error in (
        runtime_mock.DeadlockError,
        runtime_mock.CircularBufferError,
        runtime_mock.NocAccessError,
        runtime_mock.DstError,
        runtime_mock.ArgumentError,
        runtime_mock.KernelBuildError,
    ):
        assert issubclass(error, runtime_mock.DeviceError)
    assert issubclass(runtime_mock.DeviceError, RuntimeError)


@pytest.fixture(scope="module")
def copy_host():
    so = runtime_mock.build_host_program([KERNELS / "copy_host.cpp"], defines={"COPY_ELEMENTS": "4096"})
    return runtime_mock.HostProgram(so)


def test_host_program_run_writes_outputs_in_place(copy_host):
    source = np.random.default_rng(2).integers(0, 2**16, size=4096, dtype=np.uint16)
    result = np.zeros_like(source)
    copy_host.run(KERNELS, [source, result])
    np.testing.assert_array_equal(result, source)


def test_host_program_main_returns_its_exit_status(copy_host, capfd):
    assert copy_host.main([str(KERNELS)]) == 0
    assert "copy_host: exact" in capfd.readouterr().out


def test_host_program_exception_reaches_python(copy_host):
    with pytest.raises(RuntimeError, match="usage"):
        copy_host.main([])


def test_host_program_kernel_path_error_names_the_places_tried(copy_host, tmp_path):
    with pytest.raises(RuntimeError, match=r"dram_copy.cpp' not found. Tried"):
        copy_host.run(tmp_path, [np.zeros(4096, np.uint16), np.zeros(4096, np.uint16)])


def test_circular_buffer_of_a_format_the_device_does_not_model_is_refused():
    so = runtime_mock.build_host_program(
        [KERNELS / "copy_host.cpp"], defines={"COPY_ELEMENTS": "4096", "COPY_CB_FORMAT": "Lf8"}
    )
    with pytest.raises(RuntimeError, match="Data format Lf8 is not supported by the mock device"):
        runtime_mock.HostProgram(so).main([str(KERNELS)])


def test_build_host_program_is_cached():
    first = runtime_mock.build_host_program([KERNELS / "copy_host.cpp"], defines={"COPY_ELEMENTS": "4096"})
    second = runtime_mock.build_host_program([KERNELS / "copy_host.cpp"], defines={"COPY_ELEMENTS": "4096"})
    assert first == second


def test_the_builds_precompiled_header_is_valid_for_host_program_flags(tmp_path):
    """The build precompiles the host programs' header (//runtime_mock:pch) with the flags
    build_host_program uses; g++ silently reads the header's text instead when the two drift apart, so this
    asks g++ (-H marks a precompiled header it loads with "!")."""
    from runtime_mock import config, host_flags, host_program

    header = config.host_precompiled_header()
    assert header is not None, "no host_program.hpp.gch beside runtime_mock/pch/host_program.hpp"
    source = tmp_path / "main.cpp"
    source.write_text("int main() { return 0; }\n")
    command = host_program._compile_command([source], [], {}, host_flags.PRECOMPILED_STD)
    assert "-include" in command and command[command.index("-include") + 1] == str(header), command
    checked = subprocess.run(
        [*command, "-fsyntax-only", "-H", "-Winvalid-pch"], capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stderr
    assert f"! {header}.gch" in checked.stderr, (
        f"g++ did not load {header}.gch (flags differ from the ones it was built with?):\n"
        + "\n".join(line for line in checked.stderr.splitlines() if "pch" in line or line.startswith("!"))
    )


def test_default_arch_reaches_host_programs(copy_host, capfd):
    runtime_mock.set_default_arch("blackhole")
    try:
        assert runtime_mock.default_arch() == "blackhole"
        assert runtime_mock.Device().grid == (13, 10)
        assert copy_host.main([str(KERNELS)]) == 0
    finally:
        runtime_mock.set_default_arch("wormhole")


def test_a_variable_under_the_former_prefix_is_named_with_its_new_name(monkeypatch):
    monkeypatch.setenv("TT_METAL_MOCK_WATCHDOG_SECONDS", "3")
    with pytest.warns(
        UserWarning, match="TT_METAL_MOCK_WATCHDOG_SECONDS is no longer read.*RUNTIME_MOCK_WATCHDOG_SECONDS"
    ):
        runtime_mock.config.warn_of_former_variables()
