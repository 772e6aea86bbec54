"""A GEMM written like TileLang's own examples runs after changing only its imports."""

import ml_dtypes
import numpy as np
import tilelang_tt as tilelang
import tilelang_tt.language as T


@tilelang.jit(out_idx=[-1])
def matmul(M, N, K, block_M, block_N, block_K, dtype="bfloat16", accum_dtype="float"):
    @T.prim_func
    def gemm_schedule(
        A: T.Tensor((M, K), dtype),
        B: T.Tensor((N, K), dtype),
        C: T.Tensor((M, N), dtype),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_N, block_K), dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            C_shared = T.alloc_shared((block_M, block_N), dtype)

            T.use_swizzle(panel_size=10, enable=True)

            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=3):
                T.copy(A[by * block_M, k * block_K], A_shared)
                T.copy(B[bx * block_N, k * block_K], B_shared)
                T.gemm(A_shared, B_shared, C_local, transpose_B=True)

            T.copy(C_local, C_shared)
            T.copy(C_shared, C[by * block_M, bx * block_N])

    return gemm_schedule


def test_tilelang_style_gemm_runs():
    M, N, K = 192, 128, 256
    kernel = matmul(M, N, K, 64, 64, 64)
    a = np.random.default_rng(1).standard_normal((M, K)).astype(ml_dtypes.bfloat16)
    b = np.random.default_rng(2).standard_normal((N, K)).astype(ml_dtypes.bfloat16)
    c = kernel(a, b)
    ref = a.astype(np.float32) @ b.astype(np.float32).T
    assert np.abs(c.astype(np.float32) - ref).max() / np.abs(ref).max() < 1e-2
    assert "matmul_tiles" in kernel.get_kernel_source()


def test_one_k_tile_per_step_multiplies_blocks_with_the_same_sums():
    """With block_K = 32 the transposed B tiles of a step are contiguous, so the compute kernel multiplies
    each 2x2-tile block with one transposing matmul_block instead of four matmul_tiles. Every output tile
    still sums over K in the same order, so the result equals the matmul_tiles kernel's bit for bit."""
    M, N, K = 192, 128, 256
    a = np.random.default_rng(3).standard_normal((M, K)).astype(ml_dtypes.bfloat16)
    b = np.random.default_rng(4).standard_normal((N, K)).astype(ml_dtypes.bfloat16)
    blocks, tiles = matmul(M, N, K, 64, 64, 32), matmul(M, N, K, 64, 64, 64)
    assert "matmul_block" in blocks.get_kernel_source() and "matmul_tiles" in tiles.get_kernel_source()
    c = blocks(a, b)
    ref = a.astype(np.float32) @ b.astype(np.float32).T
    assert np.abs(c.astype(np.float32) - ref).max() / np.abs(ref).max() < 1e-2
    np.testing.assert_array_equal(c.view(np.uint16), tiles(a, b).view(np.uint16))
