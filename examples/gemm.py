"""GEMM in TileLang style: C = A @ B with bf16 tiles and fp32 accumulation.

    ./bazelw run //tools:compile -- examples/gemm.py --run        # compile, run on the mock device, check
    python examples/gemm.py        # the same from your own Python, with the wheel installed (see README)

The kernel stages the accumulator through shared memory (TileLang's C_shared idiom): the fragment lives in
DST / an L1 partials buffer, C_shared becomes the output circular buffer the writer drains.

``matmul`` is a ``@tilelang.jit`` factory: ``matmul(...)`` compiles once per distinct argument tuple and
stores the kernel in the kernel cache, so the next run of this file takes it from there without importing
TVM (tools/bench_start_up.py measures it).
"""

import numpy as np
import tilelang_tt as tilelang
import tilelang_tt.language as T


@tilelang.jit(out_idx=[-1])
def matmul(
    M=256,
    N=320,
    K=192,
    block_M=64,
    block_N=64,
    block_K=32,
    dtype="bfloat16",
    accum_dtype="float",
    num_stages=2,
):
    @T.prim_func
    def gemm(
        A: T.Tensor((M, K), dtype),
        B: T.Tensor((K, N), dtype),
        C: T.Tensor((M, N), dtype),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            C_shared = T.alloc_shared((block_M, block_N), dtype)

            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
                T.copy(A[by * block_M, k * block_K], A_shared)
                T.copy(B[k * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)

            T.copy(C_local, C_shared)
            T.copy(C_shared, C[by * block_M, bx * block_N])

    return gemm


def ref_program(A, B):
    return (A.astype(np.float32) @ B.astype(np.float32)).astype(A.dtype)


if __name__ == "__main__":
    kernel = matmul(256, 320, 192, 64, 64, 32)
    result = tilelang.check_against_reference(kernel, ref_program)
    print(f"gemm: {kernel.cores_used} cores, check: {result}")
    raise SystemExit(0 if result.passed else 1)
