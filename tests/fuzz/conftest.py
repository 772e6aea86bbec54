"""Options of the fuzz suite: ``--fuzz-seed``, ``--fuzz-scale`` (multiplies every count; CI runs 1),
``--fuzz-malformed``, ``--fuzz-valid`` and ``--fuzz-configs`` (distinct valid configurations, each one host
and kernel build: the valid programs' cost), ``--fuzz-tile-programs`` and
``--fuzz-malformed-tile-programs`` (the row-wise tile programs of ``tile_fuzz_programs.py``; each valid one
is a build). Bazel: ``--test_arg=--fuzz-scale=10``."""

import dataclasses

import pytest


def pytest_addoption(parser):
    group = parser.getgroup("fuzz")
    group.addoption("--fuzz-seed", type=int, default=20261126, help="seed of every generator")
    group.addoption("--fuzz-scale", type=int, default=1, help="multiply every count by this")
    group.addoption("--fuzz-malformed", type=int, default=200, help="malformed programs per run")
    group.addoption("--fuzz-valid", type=int, default=200, help="valid programs per run")
    group.addoption("--fuzz-configs", type=int, default=12, help="distinct valid configurations")
    group.addoption("--fuzz-tile-programs", type=int, default=6, help="valid tile programs (each a build)")
    group.addoption("--fuzz-malformed-tile-programs", type=int, default=40, help="malformed tile programs")


@dataclasses.dataclass(frozen=True)
class FuzzOptions:
    seed: int
    malformed: int
    valid: int
    configs: int
    tile_programs: int
    malformed_tile_programs: int


@pytest.fixture(scope="session")
def fuzz(request) -> FuzzOptions:
    option = request.config.getoption
    scale = option("--fuzz-scale")
    return FuzzOptions(
        option("--fuzz-seed"),
        option("--fuzz-malformed") * scale,
        option("--fuzz-valid") * scale,
        option("--fuzz-configs") * scale,
        option("--fuzz-tile-programs") * scale,
        option("--fuzz-malformed-tile-programs") * scale,
    )
