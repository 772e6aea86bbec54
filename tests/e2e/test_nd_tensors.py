"""N-D tensors and 3-D launch grids: batched GEMM over (B, M, K) @ (B, K, N) with ``bz`` on the batch, and
per-(batch, head) GEMMs over (B, H, S, D) and (B, S, H, D) tensors — written as TileLang's examples write
them — match numpy on both simulated archs."""

import ml_dtypes
import numpy as np
import pytest
import tilelang_tt as tilelang
import tilelang_tt.language as T
from programs import batched_gemm
from tilelang_tt.errors import TTCompileError

BF16 = np.dtype(ml_dtypes.bfloat16)


def head_scores(batch, heads, seq_len, dim, block_M, block_N, dtype=T.bfloat16, accum_dtype=T.float):
    """S = Q @ Kᵀ per (batch, head) block of rows: (B, H, S, D) tensors, grid (S/bN, S/bM, B*H)."""

    @T.prim_func
    def scores(
        Q: T.Tensor((batch, heads, seq_len, dim), dtype),
        K: T.Tensor((batch, heads, seq_len, dim), dtype),
        S: T.Tensor((batch, heads, seq_len, seq_len), dtype),
    ):
        with T.Kernel(T.ceildiv(seq_len, block_N), T.ceildiv(seq_len, block_M), batch * heads) as (
            bx,
            by,
            bz,
        ):
            Q_shared = T.alloc_shared((block_M, dim), dtype)
            K_shared = T.alloc_shared((block_N, dim), dtype)
            S_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            T.copy(Q[bz // heads, bz % heads, by * block_M : (by + 1) * block_M, :], Q_shared)
            T.copy(K[bz // heads, bz % heads, bx * block_N : (bx + 1) * block_N, :], K_shared)
            T.gemm(Q_shared, K_shared, S_local, transpose_B=True, clear_accum=True)
            T.copy(S_local, S[bz // heads, bz % heads, by * block_M, bx * block_N])

    return scores


def _random(rng, shape):
    return rng.standard_normal(shape).astype(np.float32).astype(BF16)


def _assert_close(got, ref):
    got = got.astype(np.float32)
    rel = float(np.abs(got - ref).max() / np.abs(ref).max())
    pcc = float(np.corrcoef(got.ravel(), ref.ravel())[0, 1])
    print(f"max rel err {rel:.3e}, PCC {pcc:.6f}")
    assert rel < 1e-2 and pcc >= 0.999, f"max rel err {rel:.3e}, PCC {pcc:.6f}"


@pytest.mark.parametrize("target, partition", [("wormhole", "row_major"), ("blackhole", "block")])
def test_batched_gemm_with_a_3d_grid(target, partition):
    kernel = tilelang.compile(batched_gemm(3, 64, 96, 128, 32, 32, 64), out_idx=[-1], target=target,
                              partition=partition)  # fmt: skip
    rng = np.random.default_rng(5)
    a, b = _random(rng, (3, 64, 128)), _random(rng, (3, 128, 96))
    _assert_close(kernel(a, b), a.astype(np.float32) @ b.astype(np.float32))


def test_per_head_scores_on_bhsd_tensors():
    kernel = tilelang.compile(head_scores(2, 2, 64, 64, 32, 64), out_idx=[-1], partition="column_major")
    rng = np.random.default_rng(6)
    q, k = _random(rng, (2, 2, 64, 64)), _random(rng, (2, 2, 64, 64))
    _assert_close(kernel(q, k), q.astype(np.float32) @ np.swapaxes(k.astype(np.float32), -1, -2))


def bshd_projection(batch, seq_len, heads, dim, block_M, dtype=T.bfloat16, accum_dtype=T.float):
    """Out[b, s, h, :] = Q[b, s, h, :] @ W per (batch, head) block of sequence rows: (B, S, H, D) tensors
    whose tiles span S with the head fixed (stored as (B, H, S, D)), grid (S/bM, H, B)."""

    @T.prim_func
    def project(
        Q: T.Tensor((batch, seq_len, heads, dim), dtype),
        W: T.Tensor((dim, dim), dtype),
        Out: T.Tensor((batch, seq_len, heads, dim), dtype),
    ):
        with T.Kernel(T.ceildiv(seq_len, block_M), heads, batch) as (bx, by, bz):
            Q_shared = T.alloc_shared((block_M, dim), dtype)
            W_shared = T.alloc_shared((dim, dim), dtype)
            O_local = T.alloc_fragment((block_M, dim), accum_dtype)
            T.copy(Q[bz, bx * block_M : (bx + 1) * block_M, by, :], Q_shared)
            T.copy(W, W_shared)
            T.gemm(Q_shared, W_shared, O_local, clear_accum=True)
            T.copy(O_local, Out[bz, bx * block_M : (bx + 1) * block_M, by, :])

    return project


@pytest.mark.parametrize("target, seq_len", [("wormhole", 128), ("blackhole", 100)])
def test_per_head_projection_on_bshd_tensors(target, seq_len):
    # seq_len 100: each (b, h) slice of the stored (B, H, S, D) view is padded to 128 rows.
    kernel = tilelang.compile(bshd_projection(2, seq_len, 3, 64, 64), out_idx=[-1], target=target)
    rng = np.random.default_rng(7)
    q, w = _random(rng, (2, seq_len, 3, 64)), _random(rng, (64, 64))
    _assert_close(kernel(q, w), q.astype(np.float32) @ w.astype(np.float32))


@T.prim_func
def two_row_dimensions(Q: T.Tensor((1, 64, 64, 64), "bfloat16"), O: T.Tensor((1, 64, 64, 64), "bfloat16")):
    with T.Kernel(1, 1, 1) as (bx, by, bz):
        Q_shared = T.alloc_shared((64, 64), "bfloat16")
        T.copy(Q[0, 0:64, 0, :], Q_shared)
        T.copy(Q[0, 0, 0:64, :], Q_shared)
        T.copy(Q_shared, O[0, 0:64, 0, :])


def test_tiles_of_one_tensor_along_two_dimensions_are_a_located_error():
    with pytest.raises(TTCompileError, match=r"this tile region of Q spans its dimension 2, but the one at"):
        tilelang.compile(two_row_dimensions)
