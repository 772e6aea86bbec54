"""The SDK-style programs of this directory under the timing model: profiling leaves their output
bit-identical, every wait resolves in modelled time, and the modelled times order as the programs'
data reuse says they should."""

from __future__ import annotations

import json
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

import runtime_mock

HERE = Path(__file__).absolute().parent
SIZE = 512  # M = K = N
MATMULS = {
    "matmul_tiles single core": ("matmul_tiles", {"MAX_CORES": 1}),
    "matmul_tiles multi core": ("matmul_tiles", {"MAX_CORES": 0}),
    "matmul_block_reuse": ("matmul_block_reuse", {"IN0_BLOCK_W": 2}),
    "matmul_mcast": ("matmul_mcast", {"IN0_BLOCK_W": 2}),
}


def run_matmul(name: str, profiled: bool) -> tuple[np.ndarray, runtime_mock.ProfilingSession | None]:
    program, extra = MATMULS[name]
    defines = {"SHAPE_M": SIZE, "SHAPE_K": SIZE, "SHAPE_N": SIZE, **extra}
    so = runtime_mock.build_host_program(
        [HERE / f"{program}.cpp"], defines={k: str(v) for k, v in defines.items()}
    )
    rng = np.random.default_rng(7)
    a, b = (rng.uniform(-0.5, 0.5, (SIZE, SIZE)).astype(ml_dtypes.bfloat16).view(np.uint16) for _ in range(2))
    out = np.zeros((SIZE, SIZE), np.uint16)
    if not profiled:
        runtime_mock.HostProgram(so).run(HERE / "kernels", [a, b, out])
        return out, None
    with runtime_mock.profiling() as session:
        runtime_mock.HostProgram(so).run(HERE / "kernels", [a, b, out])
    return out, session


@pytest.fixture(scope="module")
def profiles() -> dict[str, runtime_mock.ProfilingSession]:
    results = {}
    for name in MATMULS:
        plain, _ = run_matmul(name, profiled=False)
        out, session = run_matmul(name, profiled=True)
        np.testing.assert_array_equal(out, plain, err_msg=f"{name}: profiling changed the output")
        results[name] = session
    return results


@pytest.mark.parametrize("name", list(MATMULS))
def test_matmul_is_timed(profiles, name):
    session = profiles[name]
    assert len(session.runs) == 1
    run = session.runs[0]
    assert run.forced_waits == 0
    assert run.matmul_tiles == (SIZE // 32) ** 3
    assert run.dram_bytes_written == SIZE * SIZE * 2
    tflops = run.flops / run.seconds / 1e12
    assert 0 < tflops < runtime_mock.profile.peak_tflops(run.arch), tflops


def test_data_reuse_orders_the_matmuls(profiles):
    cycles = {name: session.cycles for name, session in profiles.items()}
    assert cycles["matmul_tiles single core"] > cycles["matmul_tiles multi core"], cycles
    assert cycles["matmul_tiles multi core"] > cycles["matmul_block_reuse"], cycles
    reads = {name: session.runs[0].dram_bytes_read for name, session in profiles.items()}
    assert reads["matmul_mcast"] < reads["matmul_block_reuse"], reads


def test_trace_of_the_multicast_matmul(profiles, tmp_path):
    session = profiles["matmul_mcast"]
    path = tmp_path / "matmul_mcast.json"
    runtime_mock.profile.write_chrome_trace(session, path)
    counts = runtime_mock.profile.check_chrome_trace(json.loads(path.read_text()))
    cores = len(session.runs[0].cores)
    # Each core: BRISC, NCRISC, TRISC and at least one NOC port; CB pushes and semaphore writes release waits.
    assert counts["tracks"] >= 4 * cores, counts
    assert counts["flows"] > cores and counts["spans"] > 10 * cores, counts
