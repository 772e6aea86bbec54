"""The calibration programs of tools/calibration: each runs at a small size on both archs and passes its own
result check; under the timing model, each calibration figure is within its tolerance of the published one."""

from __future__ import annotations

import pytest
import tt_mock

from tools import calibrate

BENCHMARKS = {bench.name: bench for bench in calibrate.benchmarks()}
HAS_TIMING_MODEL = hasattr(tt_mock, "profiling")


@pytest.mark.parametrize("arch", calibrate.ARCHS)
@pytest.mark.parametrize("name", sorted(BENCHMARKS))
def test_program_checks_its_result(name, arch, capfd):
    bench = BENCHMARKS[name]
    status = calibrate.run_program(bench.program, {**bench.params, **bench.small_params}, arch)
    out = capfd.readouterr().out
    assert status == 0 and f"{bench.program}: pass" in out, out


@pytest.mark.parametrize("arch", calibrate.ARCHS)
def test_mcast_matmul_checks_its_result(arch, capfd):
    status = calibrate.run_program("matmul_mcast_2d", calibrate.SMALL_MATMUL, arch)
    out = capfd.readouterr().out
    assert status == 0 and "matmul_mcast_2d: pass" in out, out


def test_unknown_parameter_is_an_error_naming_it():
    with pytest.raises(RuntimeError, match="argument 'colour=red' is not name=value with a known name"):
        calibrate.run_program("sfpu_chain", {"colour": "red"}, "wormhole")


@pytest.mark.skipif(not HAS_TIMING_MODEL, reason="the timing model (issue 10) is not in this build")
@pytest.mark.parametrize("arch", calibrate.ARCHS)
@pytest.mark.parametrize(
    "name", sorted(n for n, b in BENCHMARKS.items() if b.published["wormhole"] is not None)
)
def test_figure_within_tolerance_of_published(name, arch):
    bench = BENCHMARKS[name]
    model, published = calibrate.measure(bench, arch), bench.published[arch]
    assert abs(model - published) <= bench.tolerance * published, (
        f"{name} on {arch}: model {model:.2f} {bench.unit}, published {published} ({bench.source})"
    )
