"""Seeded schedules: a run's kernels interleave as a seed draws it (``RUNTIME_MOCK_SCHEDULE_SEED``), so one
seed replays one interleaving exactly and other seeds try others; a flaky failure becomes a seed to replay.

    with runtime_mock.schedule_seed(7):
        device.run(program)                      # the interleaving of seed 7, every time

    failure = runtime_mock.first_failing_schedule(lambda: check(device), 20)
    if failure:                                  # (seed, the exception it raised)
        print(f"seed {failure[0]} fails: {failure[1]}")

Under a seed, every run's kernels share one lane (an OS thread), which picks the ready kernel to run next
from a generator seeded with it, and after each call another kernel can observe (a NOC transfer or barrier,
a semaphore update, a CB wake-up) lets another kernel run first with even odds. Kernels that interleave
only at those calls and at their waits see every order the seeds draw; a kernel's plain L1 loads and stores
between two such calls run without a switch, as on one RISC.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator

SCHEDULE_SEED_VARIABLE = "RUNTIME_MOCK_SCHEDULE_SEED"


@contextlib.contextmanager
def schedule_seed(seed: int) -> Iterator[None]:
    """Runs inside the block (in this process) interleave their kernels as ``seed`` draws it."""
    if not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise ValueError(f"a schedule seed is an integer from 0 to 2**64 - 1, got {seed!r}")
    before = os.environ.get(SCHEDULE_SEED_VARIABLE)
    os.environ[SCHEDULE_SEED_VARIABLE] = str(seed)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(SCHEDULE_SEED_VARIABLE, None)
        else:
            os.environ[SCHEDULE_SEED_VARIABLE] = before


def first_failing_schedule(
    run: Callable[[], object], schedules: int, first_seed: int = 0
) -> tuple[int, Exception] | None:
    """Calls ``run`` under the seeds first_seed, first_seed + 1, ... (``schedules`` of them) and returns the
    first seed whose call raised, with what it raised; None when every schedule passed."""
    for seed in range(first_seed, first_seed + schedules):
        with schedule_seed(seed):
            try:
                run()
            except Exception as error:  # noqa: BLE001 - any failure of the run is the finding
                return seed, error
    return None
