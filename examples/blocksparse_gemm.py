"""Block-sparse GEMM in TileLang style: C = A @ B over the K blocks a bool block mask keeps.

    ./bazelw run //tools:compile -- examples/blocksparse_gemm.py --run   # compile, run, check

The body is TileLang's examples/blocksparse_gemm/example_blocksparse_gemm.py. BlockMask is an index table: the
reader copies it into L1 once per core and fetches only the A and B tiles of the blocks it keeps; the compute
kernel reads the same copy (read_tile_value) and multiplies only those blocks.
"""

import numpy as np
import tilelang_tt as tilelang
import tilelang_tt.language as T


def blocksparse_matmul(
    M, N, K, block_M, block_N, block_K, num_stages=2, dtype="float16", accum_dtype="float"
):
    block_mask_shape = (M // block_M, N // block_N, K // block_K)

    @T.prim_func
    def main(
        A: T.Tensor((M, K), dtype),
        B: T.Tensor((K, N), dtype),
        BlockMask: T.Tensor(block_mask_shape, "bool"),
        C: T.Tensor((M, N), dtype),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            C_shared = T.alloc_shared((block_M, block_N), dtype)

            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
                if BlockMask[by, bx, k]:
                    T.copy(A[by * block_M, k * block_K], A_shared)
                    T.copy(B[k * block_K, bx * block_N], B_shared)
                    T.gemm(A_shared, B_shared, C_local)

            T.copy(C_local, C_shared)
            T.copy(C_shared, C[by * block_M, bx * block_N])

    return main


BLOCKS = (64, 64, 32)
blocksparse_gemm = blocksparse_matmul(256, 256, 256, *BLOCKS)


def ref_program(A, B, BlockMask):
    block_M, block_N, block_K = BLOCKS
    C = np.zeros((A.shape[0], B.shape[1]), np.float32)
    for i, j, k in zip(*np.nonzero(BlockMask), strict=True):
        rows, cols = slice(i * block_M, (i + 1) * block_M), slice(j * block_N, (j + 1) * block_N)
        depth = slice(k * block_K, (k + 1) * block_K)
        C[rows, cols] += A[rows, depth].astype(np.float32) @ B[depth, cols].astype(np.float32)
    return C.astype(A.dtype)


if __name__ == "__main__":
    kernel = tilelang.compile(blocksparse_gemm)
    result = tilelang.check_against_reference(kernel, ref_program)
    print(f"blocksparse_gemm: {kernel.cores_used} cores, check: {result}")
    raise SystemExit(0 if result.passed else 1)
