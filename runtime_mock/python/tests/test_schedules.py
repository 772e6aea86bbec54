"""Seeded schedules (RUNTIME_MOCK_SCHEDULE_SEED): a run's kernels interleave as a seed draws it, so one seed
replays one interleaving exactly and other seeds try others. A racy program (a core reads a word another
core writes, with no wait between them) gives both answers over a few seeds, each seed always the same
one; its correct twin (the reader waits on a semaphore the writer raises) gives one answer under all."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import runtime_mock

KERNELS = Path(__file__).absolute().parent / "kernels"
SEEDS = range(16)


@pytest.fixture(autouse=True)
def zeroed_l1_and_no_race_detection(monkeypatch):
    """Fresh L1 reads as zeros here (the racy read's early answer is 0), and the racy program runs to its
    end (race detection would stop it: test_races.py), whatever the environment says."""
    monkeypatch.setenv("RUNTIME_MOCK_L1_FILL", "zero")
    monkeypatch.setenv("RUNTIME_MOCK_RACE_DETECTION", "0")


def word_seen(wait: bool) -> int:
    """The word core (0, 0) reads from its L1 while core (1, 0) writes 42 there (after a semaphore wait
    when `wait`): 0, the fresh L1's, when it reads first."""
    device = runtime_mock.Device("wormhole")
    dst = device.dram_buffer(size=32, page_size=32)
    program = runtime_mock.Program()
    cores = [(0, 0), (1, 0)]
    kernel = program.add_kernel(
        KERNELS / "racy_flag.cpp", cores, "riscv_0", compile_args=runtime_mock.tensor_accessor_args("DRAM")
    )
    for index in (0, 1):
        program.add_circular_buffer(cores, index=index, data_format="UInt32", page_size=32, num_pages=1)
    program.add_semaphore(cores, initial_value=0)
    program.set_runtime_args(kernel, (0, 0), [0, int(wait), dst.address])
    program.set_runtime_args(kernel, (1, 0), [1, *device.worker_noc_coord((0, 0))])
    device.run(program)
    return int(dst.read(np.uint32)[0])


def _under_seed(seed: int, wait: bool) -> int:
    with runtime_mock.schedule_seed(seed):
        return word_seen(wait)


def test_a_seed_replays_its_interleaving_and_seeds_explore_others():
    seen = {seed: _under_seed(seed, wait=False) for seed in SEEDS}
    replayed = {seed: _under_seed(seed, wait=False) for seed in SEEDS}
    assert replayed == seen, "a seed gave a different interleaving the second time"
    assert set(seen.values()) == {0, 42}, f"the race shows one outcome over {len(SEEDS)} seeds: {seen}"


def _expect_42(wait: bool) -> None:
    seen = word_seen(wait)
    if seen != 42:
        raise AssertionError(f"core (0, 0) read {seen} before core (1, 0) wrote 42")


def test_the_first_failing_schedule_is_found_and_replays():
    seed, error = runtime_mock.first_failing_schedule(lambda: _expect_42(wait=False), len(SEEDS))
    assert "read 0 before" in str(error), error
    assert _under_seed(seed, wait=False) == 0, f"seed {seed} did not replay its failure"


def test_the_synchronised_twin_passes_every_schedule():
    assert runtime_mock.first_failing_schedule(lambda: _expect_42(wait=True), len(SEEDS)) is None


def test_a_seed_that_is_not_a_number_is_named(monkeypatch):
    monkeypatch.setenv("RUNTIME_MOCK_SCHEDULE_SEED", "-3")
    with pytest.raises(runtime_mock.ArgumentError, match=r"RUNTIME_MOCK_SCHEDULE_SEED='-3' is not a seed"):
        word_seen(wait=True)
