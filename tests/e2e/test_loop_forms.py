"""Loops beyond ``for k in T.Pipelined(n)``, on both simulated architectures against numpy:
- a loop that starts after 0 (``T.serial(1, n)``) runs from its start to its end, not for its trip count
  from the start;
- a loop whose start depends on the block and goes through negative values before the clamp
  (sliding-window attention: ``T.max(0, (bx * bM - W) // bN)``) is computed with TIR's signed floor
  division, not in wrapping unsigned words;
- a loop that repeats ``T.gemm`` on tiles loaded once before it keeps them (it is not a K loop);
- a loop whose trip count grows with one grid axis (causal attention's K/V loop) is partitioned
  ``balanced``: the blocks of that axis are handed out from both ends, and each lands where it belongs."""

import ml_dtypes
import numpy as np
import pytest
import tilelang_tt as tilelang
import tilelang_tt.language as T
from targets import one_target_each


def _f32(x):
    return np.asarray(x, np.float32)


def _assert_close(actual, expected, tolerance=1e-2):
    error = np.abs(_f32(actual) - _f32(expected)).max() / max(np.abs(_f32(expected)).max(), 1e-30)
    assert error < tolerance, f"max relative error {error:.3g}"


def sum_of_slices(first, last):
    @T.prim_func
    def main(A: T.Tensor((4, 64, 64), "float32"), B: T.Tensor((64, 64), "float32")):
        with T.Kernel(1, threads=128) as bx:
            total = T.alloc_fragment((64, 64), "float")
            piece = T.alloc_fragment((64, 64), "float")
            T.clear(total)
            for k in T.serial(first, last):
                T.copy(A[k, 0, 0], piece)
                for i, j in T.Parallel(64, 64):
                    total[i, j] += piece[i, j]
            T.copy(total, B[0, 0])

    return main


@pytest.mark.parametrize("target", ["wormhole"])
def test_a_loop_from_one_runs_to_its_end(target):
    kernel = tilelang.compile(sum_of_slices(1, 4), out_idx=[1], target=target)
    a = np.random.default_rng(0).standard_normal((4, 64, 64)).astype(np.float32)
    _assert_close(kernel(a), a[1:].sum(axis=0))


def sliding_window_attention_scores(seq, dim, block_M, block_N, window):
    """Each row block of Q accumulates (Q K^T) V over the key blocks of its window, which starts
    ``window`` rows before the block (TileLang's sliding-window attention loop bounds, softmax left out)."""

    @T.prim_func
    def main(
        Q: T.Tensor((seq, dim), "bfloat16"),
        K: T.Tensor((seq, dim), "bfloat16"),
        V: T.Tensor((seq, dim), "bfloat16"),
        O: T.Tensor((seq, dim), "float32"),
    ):
        with T.Kernel(seq // block_M, threads=128) as bx:
            Q_s = T.alloc_shared((block_M, dim), "bfloat16")
            K_s = T.alloc_shared((block_N, dim), "bfloat16")
            V_s = T.alloc_shared((block_N, dim), "bfloat16")
            P_s = T.alloc_shared((block_M, block_N), "bfloat16")
            scores = T.alloc_fragment((block_M, block_N), "float")
            acc_o = T.alloc_fragment((block_M, dim), "float")
            T.copy(Q[bx * block_M, 0], Q_s)
            T.clear(acc_o)
            start = T.max(0, (bx * block_M - window) // block_N)
            for k in T.Pipelined(start, T.ceildiv((bx + 1) * block_M, block_N), num_stages=1):
                T.copy(K[k * block_N, 0], K_s)
                T.copy(V[k * block_N, 0], V_s)
                T.clear(scores)
                T.gemm(Q_s, K_s, scores, transpose_B=True)
                T.copy(scores, P_s)
                T.gemm(P_s, V_s, acc_o)
            T.copy(acc_o, O[bx * block_M, 0])

    return main


def _sliding_window_reference(q, k, v, block_M, block_N, window):
    out = np.zeros(q.shape, np.float32)
    for bx in range(q.shape[0] // block_M):
        rows = slice(bx * block_M, (bx + 1) * block_M)
        first = max(0, (bx * block_M - window) // block_N)
        for kb in range(first, -(-((bx + 1) * block_M) // block_N)):
            keys = slice(kb * block_N, (kb + 1) * block_N)
            p = (_f32(q[rows]) @ _f32(k[keys]).T).astype(ml_dtypes.bfloat16)
            out[rows] += _f32(p) @ _f32(v[keys])
    return out


@pytest.mark.parametrize("target", ["blackhole"])
def test_a_loop_whose_start_depends_on_the_block_through_negative_values(target):
    seq, dim, block, window = 256, 64, 64, 128
    kernel = tilelang.compile(
        sliding_window_attention_scores(seq, dim, block, block, window), out_idx=[3], target=target
    )
    rng = np.random.default_rng(1)
    q, k, v = ((0.3 * rng.standard_normal((seq, dim))).astype(ml_dtypes.bfloat16) for _ in range(3))
    _assert_close(kernel(q, k, v), _sliding_window_reference(q, k, v, block, block, window))


@T.prim_func
def repeated_products(
    A: T.Tensor((64, 64), "bfloat16"), B: T.Tensor((64, 64), "bfloat16"), C: T.Tensor((64, 64), "float32")
):
    with T.Kernel(1, 1, threads=128) as (bx, by):
        A_s = T.alloc_shared((64, 64), "bfloat16")
        B_s = T.alloc_shared((64, 64), "bfloat16")
        C_f = T.alloc_fragment((64, 64), "float")
        T.copy(A[0, 0], A_s)
        T.copy(B[0, 0], B_s)
        T.clear(C_f)
        for _ in T.serial(3):
            T.gemm(A_s, B_s, C_f)
        T.copy(C_f, C[0, 0])


@pytest.mark.parametrize("target", ["wormhole"])
def test_a_loop_repeating_a_gemm_on_tiles_loaded_once_keeps_them(target):
    kernel = tilelang.compile(repeated_products, out_idx=[2], target=target)
    rng = np.random.default_rng(2)
    a, b = (rng.standard_normal((64, 64)).astype(ml_dtypes.bfloat16) for _ in range(2))
    _assert_close(kernel(a, b), 3 * (_f32(a) @ _f32(b)))


GRID = (6, 5, 6)  # 180 blocks on 64 cores: runs of two and three blocks per core


def growing_sums(axis):
    """Block (bx, by, bz) of B is A's block added up (index along ``axis``) + 1 times, one read per pass:
    the trip count grows with that grid axis."""
    gx, gy, gz = GRID

    @T.prim_func
    def main(A: T.Tensor((gz, gy * 32, gx * 32), "float32"), B: T.Tensor((gz, gy * 32, gx * 32), "float32")):
        with T.Kernel(gx, gy, gz, threads=128) as (bx, by, bz):
            piece = T.alloc_fragment((32, 32), "float")
            total = T.alloc_fragment((32, 32), "float")
            T.clear(total)
            for _ in T.serial((bx, by, bz)[axis] + 1):
                T.copy(A[bz, by * 32, bx * 32], piece)
                for i, j in T.Parallel(32, 32):
                    total[i, j] += piece[i, j]
            T.copy(total, B[bz, by * 32, bx * 32])

    return main


@pytest.mark.parametrize("axis, target", one_target_each([0, 1, 2], ids=["x", "y", "z"]))
def test_a_loop_growing_with_a_grid_axis_is_balanced_and_each_block_lands_in_place(target, axis):
    kernel = tilelang.compile(growing_sums(axis), out_idx=[1], target=target)
    assert kernel.plan["work_partition"]["tile_order"] == "balanced", kernel.plan["work_partition"]
    assert kernel.plan["work_partition"]["balanced_axis"] == f"blockIdx.{'xyz'[axis]}"
    gx, gy, gz = GRID
    a = np.random.default_rng(3).standard_normal((gz, gy * 32, gx * 32)).astype(np.float32)
    z, row, col = np.indices(a.shape)
    times = (col // 32, row // 32, z)[axis] + 1  # each element's block index along the axis, plus one
    _assert_close(kernel(a), times * a, tolerance=1e-6)
