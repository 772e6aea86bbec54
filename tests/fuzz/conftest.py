"""Options of the fuzz suite: ``--fuzz-seed``, ``--fuzz-scale`` (multiplies every count; CI runs 1),
``--fuzz-malformed``, ``--fuzz-valid`` and ``--fuzz-configs`` (distinct valid configurations, each one host
and kernel build: the valid programs' cost). Bazel: ``--test_arg=--fuzz-scale=10``."""

import dataclasses

import pytest


def pytest_addoption(parser):
    group = parser.getgroup("fuzz")
    group.addoption("--fuzz-seed", type=int, default=20261126, help="seed of every generator")
    group.addoption("--fuzz-scale", type=int, default=1, help="multiply every count by this")
    group.addoption("--fuzz-malformed", type=int, default=200, help="malformed programs per run")
    group.addoption("--fuzz-valid", type=int, default=200, help="valid programs per run")
    group.addoption("--fuzz-configs", type=int, default=12, help="distinct valid configurations")


@dataclasses.dataclass(frozen=True)
class FuzzOptions:
    seed: int
    malformed: int
    valid: int
    configs: int


@pytest.fixture(scope="session")
def fuzz(request) -> FuzzOptions:
    option = request.config.getoption
    scale = option("--fuzz-scale")
    return FuzzOptions(
        option("--fuzz-seed"),
        option("--fuzz-malformed") * scale,
        option("--fuzz-valid") * scale,
        option("--fuzz-configs") * scale,
    )
