"""Happens-before race detection (RUNTIME_MOCK_RACE_DETECTION=1, runtime_mock/src/race_detector.hpp): two
kernels that access the same L1 bytes, one writing, with no CB hand-off or semaphore between them, are a
DataRaceError naming both kernels, cores and source lines, whichever runs first; their correct twins run
clean. Two SDK-style programs: a core reads a word another core writes into its L1 without waiting for the
writer's semaphore (racy_flag.cpp), and a producer writes a CB page again after pushing it, while the
consumer reads it (racy_cb_page.cpp)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from test_schedules import word_seen

import runtime_mock

KERNELS = Path(__file__).absolute().parent / "kernels"
SEEDS = range(8)


@pytest.fixture(autouse=True)
def race_detection(monkeypatch):
    monkeypatch.setenv("RUNTIME_MOCK_RACE_DETECTION", "1")
    monkeypatch.setenv("RUNTIME_MOCK_L1_FILL", "zero")


def line_of(kernel: str, text: str) -> str:
    """'<kernel path>:<line>' of the first line of `kernel` that contains `text`."""
    path = (KERNELS / kernel).resolve()
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if text in line:
            return f"{path}:{number}"
    raise AssertionError(f"no line with {text!r} in {path}")


def cb_page_seen(arch: str, racy: bool) -> int:
    """What the consumer of racy_cb_page.cpp read from the page (7: the producer's first write)."""
    device = runtime_mock.Device(arch)
    dst = device.dram_buffer(size=32, page_size=32)
    program = runtime_mock.Program()
    core = (0, 0)
    args = runtime_mock.tensor_accessor_args("DRAM")
    producer = program.add_kernel(KERNELS / "racy_cb_page.cpp", core, "riscv_0", compile_args=args)
    consumer = program.add_kernel(KERNELS / "racy_cb_page.cpp", core, "riscv_1", compile_args=args)
    for index in (0, 1):
        program.add_circular_buffer(core, index=index, data_format="UInt32", page_size=32, num_pages=1)
    program.set_runtime_args(producer, core, [0, int(racy)])
    program.set_runtime_args(consumer, core, [1, dst.address])
    device.run(program)
    return int(dst.read(np.uint32)[0])


@pytest.mark.parametrize("seed", SEEDS)
def test_reading_a_word_another_core_writes_without_waiting_is_a_race(seed):
    with runtime_mock.schedule_seed(seed), pytest.raises(runtime_mock.DataRaceError) as raised:
        word_seen(wait=False)
    message = str(raised.value)
    assert message.startswith("data race on core (0,0)'s L1 at 0x"), message
    assert "circular buffer 0, page 0" in message, message
    assert re.search(
        r"core \(1,0\) RISCV_0 \(BRISC\) \[.*racy_flag.cpp\]: noc_async_write at "
        + re.escape(line_of("racy_flag.cpp", "noc_async_write(word")),
        message,
    ), message
    assert (
        "core (0,0) RISCV_0 (BRISC)" in message and line_of("racy_flag.cpp", "const uint32_t seen") in message
    ), message
    assert "with nothing ordering the two" in message, message


@pytest.mark.parametrize("seed", SEEDS)
def test_reading_the_word_after_the_writers_semaphore_is_clean(seed):
    with runtime_mock.schedule_seed(seed):
        assert word_seen(wait=True) == 42


@pytest.mark.parametrize("arch", ["wormhole", "blackhole"])
def test_writing_a_pushed_cb_page_is_a_race_with_its_consumer(arch):
    with pytest.raises(runtime_mock.DataRaceError) as raised:
        cb_page_seen(arch, racy=True)
    message = str(raised.value)
    assert "circular buffer 0, page 0" in message, message
    assert line_of("racy_cb_page.cpp", "page[0] = 8;") in message, message
    assert line_of("racy_cb_page.cpp", "the consumer's read") in message, message
    assert "RISCV_0 (BRISC)" in message and "RISCV_1 (NCRISC)" in message, message


@pytest.mark.parametrize("arch", ["wormhole", "blackhole"])
def test_writing_the_page_after_reserving_it_again_is_clean(arch):
    assert cb_page_seen(arch, racy=False) == 7


def test_reading_a_cb_page_nothing_wrote_is_reported_at_the_reading_line():
    # racy_flag.cpp's reader without its writer: the word it reads in CB 0 was never written in this run.
    device = runtime_mock.Device("wormhole")
    dst = device.dram_buffer(size=32, page_size=32)
    program = runtime_mock.Program()
    kernel = program.add_kernel(
        KERNELS / "racy_flag.cpp", (0, 0), "riscv_0", compile_args=runtime_mock.tensor_accessor_args("DRAM")
    )
    for index in (0, 1):
        program.add_circular_buffer((0, 0), index=index, data_format="UInt32", page_size=32, num_pages=1)
    program.add_semaphore((0, 0), initial_value=0)
    program.set_runtime_args(kernel, (0, 0), [0, 0, dst.address])
    with pytest.raises(runtime_mock.DeviceError) as raised:
        device.run(program)
    message = str(raised.value)
    assert (
        f"access at {line_of('racy_flag.cpp', 'const uint32_t seen')} reads core (0,0)'s L1 at 0x" in message
    ), message
    assert "(4 bytes: circular buffer 0, page 0), which nothing wrote in this run" in message, message


def test_detection_is_off_unless_asked_for(monkeypatch):
    monkeypatch.delenv("RUNTIME_MOCK_RACE_DETECTION")
    assert cb_page_seen("wormhole", racy=True) in (7, 8), "the racy program runs to its end"


def test_a_setting_other_than_0_or_1_is_an_argument_error(monkeypatch):
    monkeypatch.setenv("RUNTIME_MOCK_RACE_DETECTION", "yes")
    with pytest.raises(
        runtime_mock.ArgumentError, match=r"RUNTIME_MOCK_RACE_DETECTION='yes' is neither 0 nor 1"
    ):
        cb_page_seen("wormhole", racy=False)
