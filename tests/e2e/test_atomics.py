"""T.atomic_add as TileLang's 2026 programs write it, on both simulated architectures against numpy:
a whole tile added at a region start (``T.atomic_add(C[by * bM, bx * bN], C_local)``, TileLang's
example_tilelang_gemm_splitk_vectorize_atomicadd.py) and from a grid with two axes that select no output
element (a GEMV split over K and over a batch of matrices)."""

import numpy as np
import pytest
import tilelang_tt as tilelang
import tilelang_tt.language as T
from programs import heads_added_per_group, scaled_and_column_sums


def matmul(
    M, N, K, block_M, block_N, block_K, split_k, dtype=T.float16, accum_dtype=T.float32, out_dtype=T.float32
):
    """TileLang's examples/gemm_splitk/example_tilelang_gemm_splitk_vectorize_atomicadd.py, imports
    changed."""
    splitK = K // split_k

    @T.prim_func
    def main(
        A: T.Tensor((M, K), dtype),
        B: T.Tensor((K, N), dtype),
        C: T.Tensor((M, N), out_dtype),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), split_k, threads=128) as (bx, by, bz):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)

            T.clear(C_local)
            for ko in T.Pipelined(T.ceildiv(splitK, block_K), num_stages=0):
                T.copy(A[by * block_M, bz * splitK + ko * block_K], A_shared)
                T.copy(B[bz * splitK + ko * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)

            T.atomic_add(C[by * block_M, bx * block_N], C_local)

    return main


@pytest.mark.parametrize("target", ["wormhole"])
def test_split_k_gemm_adding_whole_tiles(target):
    kernel = tilelang.compile(matmul(128, 128, 256, 64, 64, 32, 4), target=target)
    rng = np.random.default_rng(0)
    a = rng.standard_normal((128, 256)).astype(np.float16)
    b = rng.standard_normal((256, 128)).astype(np.float16)
    c = rng.standard_normal((128, 128)).astype(np.float32)
    expected = c + a.astype(np.float32) @ b.astype(np.float32)
    kernel(a, b, c)
    error = np.abs(c - expected).max() / np.abs(expected).max()
    assert error < 1e-2, f"C += A @ B by whole-tile atomic adds: max relative error {error:.3g}"


def batched_split_gemv(batch, N, K, block_N, block_K):
    """y[n] += sum over the batch b and the K slices k of (W[b] @ x[b])[n]: the grid's second and third
    axes (K slice, batch) select no element of y, so every one of their points adds into the same block."""

    @T.prim_func
    def main(
        W: T.Tensor((batch, N, K), "float32"),
        X: T.Tensor((batch, 32, K), "float32"),
        Y: T.Tensor((N, 32), "float32"),
    ):
        with T.Kernel(N // block_N, K // block_K, batch, threads=128) as (bx, bk, bb):
            W_s = T.alloc_shared((block_N, block_K), "float32")
            X_s = T.alloc_shared((32, block_K), "float32")
            acc = T.alloc_fragment((block_N, 32), "float32")
            T.clear(acc)
            T.copy(W[bb, bx * block_N, bk * block_K], W_s)
            T.copy(X[bb, 0, bk * block_K], X_s)
            T.gemm(W_s, X_s, acc, transpose_B=True)
            T.atomic_add(Y[bx * block_N : (bx + 1) * block_N, :], acc)

    return main


@pytest.mark.parametrize("target", ["blackhole"])
def test_atomic_adds_from_two_grid_axes_that_select_no_output(target):
    batch, N, K = 3, 128, 128
    kernel = tilelang.compile(batched_split_gemv(batch, N, K, 64, 64), target=target)
    rng = np.random.default_rng(1)
    w = rng.standard_normal((batch, N, K)).astype(np.float32)
    x = rng.standard_normal((batch, 32, K)).astype(np.float32)
    y = np.zeros((N, 32), np.float32)
    kernel(w, x, y)
    expected = np.einsum("bnk,bjk->nj", w, x)
    error = np.abs(y - expected).max() / np.abs(expected).max()
    assert error < 1e-2, f"max relative error {error:.3g}"


@pytest.mark.parametrize("target", ["wormhole"])
def test_atomic_adds_along_an_axis_another_output_uses_take_turns(target):
    """The four blocks' adds into S take turns on one core (the axis is serialised although B uses it):
    every block's sums arrive. Before, each core read S, added its share and wrote it back at once, and
    the sums of all but one were lost — a wrong answer, not an error."""
    kernel = tilelang.compile(scaled_and_column_sums, out_idx=[1], target=target)
    a = np.random.default_rng(10).standard_normal((128, 64)).astype(np.float32)
    s = np.ones(64, np.float32)
    b = kernel(a, s)
    np.testing.assert_array_equal(b, 2 * a)
    np.testing.assert_allclose(s, 1 + a.sum(0, dtype=np.float64), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("target", ["blackhole"])
def test_heads_adding_into_their_groups_block_take_turns(target):
    """The head axis keeps one grid point per group; a group's two heads add their blocks in turn."""
    kernel = tilelang.compile(heads_added_per_group, target=target)
    rng = np.random.default_rng(2)
    x = rng.standard_normal((4, 64, 64)).astype(np.float32)
    y = rng.standard_normal((2, 64, 64)).astype(np.float32)
    expected = y + x.reshape(2, 2, 64, 64).sum(1)
    kernel(x, y)
    np.testing.assert_allclose(y, expected, rtol=1e-6, atol=1e-6)


def atomic_extreme_program(kind, K, M, N, block_M, block_N, dtype=T.float32):
    """TileLang's testing/python/language/test_tilelang_language_atomic.py atomic_max_program /
    atomic_min_program, imports changed: every slice of A's first axis is one grid point, and each keeps
    the larger (smaller) of its elements and B's."""
    extreme = T.atomic_max if kind == "max" else T.atomic_min

    @T.prim_func
    def atomic_extreme(A: T.Tensor((K, M, N), dtype), B: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(M, block_M), T.ceildiv(N, block_N), K, threads=32) as (bx, by, bz):
            A_shared = T.alloc_shared((block_M, block_N), dtype)

            T.copy(A[bz, bx * block_M : (bx + 1) * block_M, by * block_N : (by + 1) * block_N], A_shared)

            for i, j in T.Parallel(block_M, block_N):
                extreme(B[bx * block_M + i, by * block_N + j], A_shared[i, j])

    return atomic_extreme


@pytest.mark.parametrize("target, kind", [("wormhole", "max"), ("blackhole", "min")])
def test_atomic_max_and_min_from_every_slice(target, kind):
    kernel = tilelang.compile(atomic_extreme_program(kind, 4, 64, 96, 32, 32), target=target)
    rng = np.random.default_rng(3)
    a = rng.standard_normal((4, 64, 96)).astype(np.float32)
    b = rng.standard_normal((64, 96)).astype(np.float32)  # the starting values take part
    combine = np.maximum if kind == "max" else np.minimum
    expected = combine(b, combine.reduce(a, axis=0))
    kernel(a, b)
    np.testing.assert_array_equal(b, expected, err_msg=f"T.atomic_{kind} of 4 slices into B")


@T.prim_func
def row_maxima_of_a_tile(A: T.Tensor((128, 64), "float32"), M: T.Tensor((32, 64), "float32")):
    # Four row blocks keep the elementwise max of their rows' tiles in M: a whole tile at a region start.
    with T.Kernel(4, threads=128) as bx:
        A_s = T.alloc_shared((32, 64), "float32")
        T.copy(A[bx * 32, 0], A_s)
        T.atomic_max(M[0, 0], A_s)


def test_a_whole_tile_atomic_max():
    kernel = tilelang.compile(row_maxima_of_a_tile)
    a = np.random.default_rng(4).standard_normal((128, 64)).astype(np.float32)
    m = np.full((32, 64), -np.inf, np.float32)
    kernel(a, m)
    np.testing.assert_array_equal(m, a.reshape(4, 32, 64).max(0))
