"""Kernels called from many Python threads at once, on Wormhole and Blackhole mixed, all give the right
answer: each call's host program creates its device on the arch its kernel was compiled for."""

import concurrent.futures

import ml_dtypes
import numpy as np
import pytest
import tilelang_tt
from gemm_check import reference
from programs import gemm

BF16 = np.dtype(ml_dtypes.bfloat16)
THREADS = 16  # 8 calls per arch at once


@pytest.fixture(scope="module")
def kernels():
    return {
        target: tilelang_tt.compile(gemm(M=64, N=64, K=64, bM=32, bN=32, bK=32), out_idx=[-1], target=target)
        for target in ("wormhole", "blackhole")
    }


def test_calls_from_many_threads_on_both_archs(kernels):
    rng = np.random.default_rng(3)
    jobs = []
    for i in range(THREADS):
        a = rng.standard_normal((64, 64)).astype(np.float32).astype(BF16)
        b = rng.standard_normal((64, 64)).astype(np.float32).astype(BF16)
        jobs.append(("wormhole" if i % 2 == 0 else "blackhole", a, b))
    for target, a, b in jobs[:2]:  # build and JIT once before the rush
        kernels[target](a, b)
    with concurrent.futures.ThreadPoolExecutor(THREADS) as pool:
        results = list(pool.map(lambda job: kernels[job[0]](job[1], job[2]), jobs))
    for (target, a, b), c in zip(jobs, results, strict=True):
        ref = reference(a, b, trans_b=False)
        rel = float(np.abs(c.astype(np.float32) - ref).max() / np.abs(ref).max())
        assert rel < 1e-2, f"{target}: max rel err {rel:.3e}"
