"""Kernels called from many Python threads at once, on Wormhole and Blackhole mixed, all give the right
answer: each call's host program creates its device on the arch its kernel was compiled for (the
Blackhole program uses 13 columns of cores, which a Wormhole device does not have)."""

import concurrent.futures

import ml_dtypes
import numpy as np
import pytest
import tilelang_tt
from gemm_check import reference
from programs import gemm

BF16 = np.dtype(ml_dtypes.bfloat16)
THREADS = 16  # 8 calls per arch at once


SHAPES = {"wormhole": (64, 64, 64), "blackhole": (64, 416, 64)}  # (M, N, K); 416 = 13 blocks of 32


@pytest.fixture(scope="module")
def kernels():
    compiled = {}
    for target, (m, n, k) in SHAPES.items():
        func = gemm(M=m, N=n, K=k, bM=32, bN=32, bK=32)
        compiled[target] = tilelang_tt.compile(func, out_idx=[-1], target=target, partition="block")
    assert max(r["x1"] for r in compiled["blackhole"].plan["core_ranges"]) >= 8  # beyond Wormhole's grid
    return compiled


def test_calls_from_many_threads_on_both_archs(kernels):
    rng = np.random.default_rng(3)
    jobs = []
    for i in range(THREADS):
        target = "wormhole" if i % 2 == 0 else "blackhole"
        m, n, k = SHAPES[target]
        a = rng.standard_normal((m, k)).astype(np.float32).astype(BF16)
        b = rng.standard_normal((k, n)).astype(np.float32).astype(BF16)
        jobs.append((target, a, b))
    for target, a, b in jobs[:2]:  # build and JIT once before the rush
        kernels[target](a, b)
    with concurrent.futures.ThreadPoolExecutor(THREADS) as pool:
        results = list(pool.map(lambda job: kernels[job[0]](job[1], job[2]), jobs))
    for (target, a, b), c in zip(jobs, results, strict=True):
        ref = reference(a, b, trans_b=False)
        rel = float(np.abs(c.astype(np.float32) - ref).max() / np.abs(ref).max())
        assert rel < 1e-2, f"{target}: max rel err {rel:.3e}"
