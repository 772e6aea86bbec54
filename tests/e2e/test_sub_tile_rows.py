"""Grids whose blocks are narrower than a tile, as TileLang's norms and softmax launch them (one row per
grid point, ``blk_m = 1``), on both simulated architectures against numpy, at a row count that is not a
multiple of 32: 32 consecutive grid points share one core's tiles (CoarsenSubTileRowsTT), every row
exact. The programs are our examples (TileLang's rms_norm, layernorm and online_softmax with imports
changed) and upstream's split RMSNorm kernel, which walks its column blocks backwards. RMSNorm runs on both
architectures; the other programs coarsen the same way (CoarsenSubTileRowsTT does not read the target) and
each run on one of them, alternating (their families run at whole-tile blocks on Wormhole as the examples'
tests and on Blackhole in test_tile_programs)."""

import importlib.util
import os

import ml_dtypes
import numpy as np
import pytest
import tilelang_tt as tilelang
import tilelang_tt.language as T
from targets import one_target_each

M = 100  # rows: three full tiles and a ragged one
EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "examples")


def _example(name: str):
    spec = importlib.util.spec_from_file_location(name, os.path.join(EXAMPLES, f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def examples():
    return {name: _example(name) for name in ("rms_norm", "layer_norm", "softmax")}


@tilelang.jit(pass_configs={"tl.disable_tma_lower": True})
def rms_norm_splitk(A, blk_m, blk_k):
    """tile-ai/tilelang examples/norm/rms_norm.py's rms_norm_splitk, imports changed."""
    M, N = T.const("M, N")
    dtype = T.float
    A: T.Tensor((M, N), dtype)
    B = T.empty((M, N), dtype)
    with T.Kernel(T.ceildiv(M, blk_m), threads=128) as bx:
        A_shared = T.alloc_shared((blk_m, blk_k), dtype)
        A_local = T.alloc_fragment((blk_m, blk_k), dtype)
        A_powsum = T.alloc_fragment((blk_m,), dtype)
        num_k_step = T.ceildiv(N, blk_k)
        T.clear(A_local)
        for k in T.Serial(num_k_step):
            T.copy(A[bx * blk_m, k * blk_k], A_shared)
            for i, j in T.Parallel(blk_m, blk_k):
                A_local[i, j] += A_shared[i, j] * A_shared[i, j]
        T.reduce_sum(A_local, A_powsum, dim=1)
        for i in T.Parallel(blk_m):
            A_powsum[i] = T.rsqrt(A_powsum[i] / N + 1e-12)
        for k in T.Serial(num_k_step):
            T.copy(A[bx * blk_m, (num_k_step - 1 - k) * blk_k], A_shared)
            for i, j in T.Parallel(blk_m, blk_k):
                A_shared[i, j] *= A_powsum[i]
            T.copy(A_shared, B[bx * blk_m, (num_k_step - 1 - k) * blk_k])
    return B


def _on(target, kernel):
    """``kernel`` compiled for ``target`` (an eager kernel's outputs come with its function)."""
    return tilelang.compile(kernel.func, out_idx=list(kernel.options.out_idx) or None, target=target)


def _rms_reference(x):
    return x / np.sqrt((x * x).mean(-1, keepdims=True) + 1e-12)


def _assert_close(actual, expected, tolerance):
    error = np.abs(np.asarray(actual, np.float32) - expected).max()
    assert error < tolerance, f"max error {error:.3g} (values up to {np.abs(expected).max():.3g})"


@pytest.mark.parametrize("blk_m, target", one_target_each([1, 2]))
def test_rms_norm_one_row_per_grid_point(examples, target, blk_m):
    x = np.random.default_rng(blk_m).standard_normal((M, 256)).astype(np.float32)
    kernel = _on(target, examples["rms_norm"].rms_norm.compile(M=M, N=256, blk_m=blk_m))
    _assert_close(kernel(x), _rms_reference(x), 1e-4)
    assert kernel.cores_used == 4, f"{M} rows are 4 tiles of rows, one core each; used {kernel.cores_used}"


@pytest.mark.parametrize("target", ["blackhole"])
def test_rms_norm_split_over_columns_walked_backwards(target):
    x = np.random.default_rng(3).standard_normal((M, 256)).astype(np.float32)
    kernel = _on(target, rms_norm_splitk.compile(M=M, N=256, blk_m=1, blk_k=128))
    _assert_close(kernel(x), _rms_reference(x), 1e-4)


@pytest.mark.parametrize("target", ["wormhole"])
def test_layer_norm_with_mean_and_rstd_per_row(examples, target):
    D = 256
    rng = np.random.default_rng(4)
    x, gamma, beta = (rng.standard_normal(shape).astype(ml_dtypes.bfloat16) for shape in ((M, D), (D,), (D,)))
    func = examples["layer_norm"]._layernorm_fwd.get_tir(M, D, blk_m=1)
    kernel = tilelang.compile(func, out_idx=[-3, -2, -1], target=target)
    y, mean, rstd = kernel(x, gamma, beta)
    xf = x.astype(np.float32)
    mean_ref = xf.mean(-1)
    rstd_ref = 1 / np.sqrt((xf * xf).mean(-1) - mean_ref**2 + 1e-5)
    y_ref = (xf - mean_ref[:, None]) * rstd_ref[:, None] * gamma.astype(np.float32) + beta.astype(np.float32)
    _assert_close(mean, mean_ref, 1e-5)
    _assert_close(rstd, rstd_ref, 1e-3)
    _assert_close(y, y_ref, 5e-2)


@pytest.mark.parametrize("target", ["blackhole"])
def test_online_softmax_one_row_per_grid_point(examples, target):
    x = np.random.default_rng(5).standard_normal((M, 1024)).astype(np.float16)
    kernel = _on(target, examples["softmax"].softmax_kernel.compile(x, BLOCK_M=1, BLOCK_N=512))
    xf = x.astype(np.float32)
    e = np.exp(xf - xf.max(-1, keepdims=True))
    _assert_close(kernel(x), e / e.sum(-1, keepdims=True), 1e-3)
