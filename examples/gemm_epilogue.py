"""GEMM with a fused epilogue in TileLang style: D = GELU(A @ B + bias) + residual, in one kernel.

    ./bazelw run //tools:compile -- examples/gemm_epilogue.py --run
    python examples/gemm_epilogue.py

The epilogue is ordinary TileLang: a ``T.Parallel`` body over the accumulator after the reduction loop.
``bias`` is a 1-D tensor broadcast over the rows (a row vector tile: ``unary_bcast<ROW>``), GELU is written
out with ``T.tanh`` as model code writes it, and the residual is a second tile read in the same body.
"""

import numpy as np
import tilelang_tt as tilelang
import tilelang_tt.language as T


@tilelang.jit(out_idx=[-1])
def matmul_bias_gelu(M, N, K, block_M, block_N, block_K, dtype=T.bfloat16, accum_dtype=T.float32):
    @T.prim_func
    def main(
        A: T.Tensor((M, K), dtype),
        B: T.Tensor((K, N), dtype),
        Bias: T.Tensor((N,), dtype),
        Residual: T.Tensor((M, N), dtype),
        D: T.Tensor((M, N), dtype),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            Bias_shared = T.alloc_shared((block_N,), dtype)
            R_shared = T.alloc_shared((block_M, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)

            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):
                T.copy(A[by * block_M, k * block_K], A_shared)
                T.copy(B[k * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)

            T.copy(Bias[bx * block_N], Bias_shared)
            T.copy(Residual[by * block_M, bx * block_N], R_shared)
            for i, j in T.Parallel(block_M, block_N):
                x = C_local[i, j] + Bias_shared[j]
                C_local[i, j] = (
                    0.5 * x * (1 + T.tanh(0.7978845608 * (x + 0.044715 * x * x * x))) + R_shared[i, j]
                )
            T.copy(C_local, D[by * block_M, bx * block_N])

    return main


def ref_program(A, B, bias, residual):
    x = A.astype(np.float32) @ B.astype(np.float32) + bias.astype(np.float32)
    gelu = 0.5 * x * (1 + np.tanh(0.7978845608 * (x + 0.044715 * x**3)))
    return (gelu + residual.astype(np.float32)).astype(A.dtype)


kernel = matmul_bias_gelu(256, 256, 128, 64, 64, 32)

if __name__ == "__main__":
    result = tilelang.check_against_reference(kernel, ref_program)
    print(f"gemm + bias + GELU + residual: {kernel.cores_used} cores, check: {result}")
    raise SystemExit(0 if result.passed else 1)
