"""The device timing model as a TileLang user sees it: kernel.profile(), the profiler's do_bench (modelled
device time), and the Chrome trace of examples/gemm.py. The model is deterministic, so its outputs are
asserted exactly where the test says why; wall time is never asserted."""

import importlib.util
import json
import os

import numpy as np
import pytest
import tilelang_tt
from programs import gemm


def _example_gemm():
    path = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "gemm.py")
    spec = importlib.util.spec_from_file_location("example_gemm", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.matmul.get_tir()


@pytest.fixture(scope="module")
def gemm_profile():
    kernel = tilelang_tt.compile(_example_gemm(), out_idx=[-1])
    return kernel, kernel.profile()


def test_trace_of_the_gemm_example_is_a_valid_chrome_trace(gemm_profile, tmp_path):
    """Perfetto's UI opens Chrome trace-event JSON: one named track (pid, tid) per core x RISC, complete
    spans ("X") that never overlap on a track, and flows ("s"/"f") that pair up by id."""
    kernel, profile = gemm_profile
    path = tmp_path / "trace.json"
    profile.write_trace(str(path))
    events = json.loads(path.read_text())["traceEvents"]

    named = {(e["pid"], e["tid"]) for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
    spans = [e for e in events if e["ph"] == "X"]
    tracks = {(e["pid"], e["tid"]) for e in spans}
    assert tracks <= named, "every track with spans has a name"
    cores = len(kernel.plan["core_work"])
    riscs = {e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
    assert {"BRISC", "NCRISC", "TRISC"} <= riscs
    assert len({pid for pid, _ in tracks}) == cores, "one process per core that computes"
    assert len(spans) >= cores * 3, "each core's three RISCs have spans"

    by_track: dict = {}
    for e in spans:
        by_track.setdefault((e["pid"], e["tid"]), []).append((e["ts"], e["ts"] + e["dur"], e["name"]))
    for track, intervals in by_track.items():
        intervals.sort()
        for (s0, e0, n0), (s1, _, n1) in zip(intervals, intervals[1:], strict=False):
            assert s1 >= e0 - 1e-9, f"spans {n0} and {n1} overlap on track {track}"

    starts = {e["id"] for e in events if e["ph"] == "s"}
    ends = {e["id"] for e in events if e["ph"] == "f"}
    assert starts and starts == ends, "every flow from a CB push ends at the wait it releases"


def test_do_bench_is_the_modelled_device_time(gemm_profile):
    kernel, profile = gemm_profile
    profiler = kernel.get_profiler()
    first, second = profiler.do_bench(), profiler.do_bench()
    assert first == second == pytest.approx(profile.device_ms), "the model is deterministic"
    assert 0 < profile.device_ms < 1.0, "a 256x320x192 GEMM takes microseconds on the device"
    assert profile.tflops <= profile.peak_tflops


def test_a_profiled_call_computes_the_same_result():
    kernel = tilelang_tt.compile(gemm(M=128, N=128, K=128), out_idx=[-1])
    rng = np.random.default_rng(0)
    a = rng.standard_normal((128, 128)).astype(np.float32).astype(kernel.params[0]["dtype"])
    b = rng.standard_normal((128, 128)).astype(np.float32).astype(kernel.params[1]["dtype"])
    plain = kernel(a, b)
    c = np.zeros_like(plain)
    kernel.profile(a, b, c)
    assert np.array_equal(plain.view(np.uint16), c.view(np.uint16))


def test_lower_fidelity_runs_faster_when_compute_bound():
    """The matrix engine takes 16/32/64 cycles per tile at LoFi/HiFi2/HiFi4 (the arch data file)."""
    func = gemm(M=256, N=256, K=1024, bM=128, bN=128, bK=64)
    times = {
        f: tilelang_tt.compile(func, out_idx=[-1], math_fidelity=f, partition="block").profile().device_ms
        for f in ("LoFi", "HiFi2", "HiFi4")
    }
    assert times["LoFi"] < times["HiFi2"] < times["HiFi4"], times


def test_multicast_reads_less_dram_than_every_core_reading_its_own():
    func = gemm(M=512, N=512, K=512, bM=64, bN=64, bK=64)
    unicast = tilelang_tt.compile(func, out_idx=[-1], partition="row_major").profile()
    multicast = tilelang_tt.compile(func, out_idx=[-1], partition="block").profile()
    read = [sum(run.dram_bytes_read for run in p.session.runs) for p in (unicast, multicast)]
    # 8 x 8 blocks on 8 x 8 cores: each A row block was read by 8 cores, now by 1 (B likewise).
    assert read[1] * 8 == read[0], read
