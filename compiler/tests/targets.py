"""The targets the tests run programs on, and how a parametrized test spreads its cases over them.

Most lowerings read nothing of the target, so building every case for both would only double the build
time of the suite. A test whose cases differ in something else takes the targets in turn instead: both
are run, each on part of the cases. Tests about what does depend on the target (core grids, L1 limits,
multicast rectangles, calibration) still name both.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

TARGETS = ("wormhole", "blackhole")


def one_target_each(cases: Iterable, ids: Iterable[str] | None = None) -> list:
    """``cases`` (each a value, or a tuple of values, of the test's other parameters) each paired with one
    target, the targets taking turns in order: ``pytest.param(*case, target)``, with ``ids`` (default:
    pytest's own) suffixed by the target."""
    params = []
    for n, case in enumerate(cases):
        values = case if isinstance(case, tuple) else (case,)
        target = TARGETS[n % len(TARGETS)]
        params.append(pytest.param(*values, target))
    if ids is not None:
        params = [
            pytest.param(*p.values, id=f"{name}-{p.values[-1]}") for p, name in zip(params, ids, strict=True)
        ]
    return params
