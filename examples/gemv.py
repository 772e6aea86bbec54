"""GEMV in TileLang style, three ways: TileLang's naive SIMT kernel (one thread per output), its SIMT
split-K kernel (a 2-D block of threads, each adding its partial sum into shared memory with
T.atomic_add) and its tiled kernel with a reducer, from examples/gemv/example_gemv.py with the imports
changed.

    ./bazelw run //tools:compile -- examples/gemv.py --run
    python examples/gemv.py

On Tenstorrent none runs per thread. The naive kernel's per-thread accumulator becomes a vector over the
block's threads and its inner loop a row sum (VectorizeThreadsTT, VectorizeElementLoopsTT). In the split-K
kernel the (tn, tk) threads fill a tile, each K step is one tile statement, and the atomic adds into
shared memory are a row sum over tk (SerializeSplitKTT, VectorizeThreadsTT). The tiled kernel's
`o_reducer[i] += a[i, j] * x[j]` becomes a tile of products and a row sum on the compute engine.
"""

import numpy as np
import tilelang_tt as tilelang
import tilelang_tt.language as T


@tilelang.jit
def naive_gemv(A, B, BLOCK_N: int, BLOCK_K: int, dtype: T.dtype = T.float16, accum_dtype: T.dtype = T.float):
    N, K = T.const("N, K")
    A: T.Tensor((K,), dtype)
    B: T.Tensor((N, K), dtype)
    C = T.empty((N,), dtype)

    with T.Kernel(T.ceildiv(N, BLOCK_N)) as bn:
        tn = T.get_thread_binding(0)  # tn = threadIdx.x
        A_shared = T.alloc_shared((BLOCK_K,), dtype)
        B_shared = T.alloc_shared((BLOCK_N, BLOCK_K), dtype)
        C_reg = T.alloc_local((1,), accum_dtype)
        T.clear(C_reg)
        for bk in T.serial(T.ceildiv(K, BLOCK_K)):
            for tk in T.serial(BLOCK_K):
                A_shared[tk] = A[bk * BLOCK_K + tk]
                B_shared[tn, tk] = B[bn * BLOCK_N + tn, bk * BLOCK_K + tk]
            for tk in T.serial(BLOCK_K):
                C_reg[0] += A_shared[tk].astype(accum_dtype) * B_shared[tn, tk].astype(accum_dtype)
        C[bn * BLOCK_N + tn] = C_reg[0]

    return C


@tilelang.jit
def naive_splitk_gemv(
    A, B, BLOCK_N: int, BLOCK_K: int, dtype: T.dtype = T.float16, accum_dtype: T.dtype = T.float
):
    N, K = T.const("N, K")
    A: T.Tensor((K,), dtype)
    B: T.Tensor((N, K), dtype)
    C = T.empty((N,), dtype)

    with T.Kernel(T.ceildiv(N, BLOCK_N), threads=(BLOCK_N, BLOCK_K)) as bn:
        tn = T.get_thread_binding(0)
        tk = T.get_thread_binding(1)
        A_local = T.alloc_local((1,), dtype)
        B_local = T.alloc_local((1,), dtype)
        C_accum = T.alloc_local((1,), accum_dtype)
        C_shared = T.alloc_shared((BLOCK_N,), accum_dtype)
        if tk == 0:
            C_shared[tn] = 0
        T.clear(C_accum)
        for bk in T.serial(T.ceildiv(K, BLOCK_K)):
            A_local[0] = A[bk * BLOCK_K + tk]
            B_local[0] = B[bn * BLOCK_N + tn, bk * BLOCK_K + tk]
            C_accum[0] += A_local[0].astype(accum_dtype) * B_local[0].astype(accum_dtype)
        T.atomic_add(C_shared[tn], C_accum[0])
        C[bn * BLOCK_N + tn] = C_shared[tn]

    return C


@tilelang.jit
def gemv_alloc_reducer(
    a,
    x,
    block_M=128,
    block_N=128,
    num_stages=2,
    threads=256,
    dtype: T.dtype = T.float16,
    accum_dtype: T.dtype = T.float,
):
    M, N = T.const("M, N")
    a: T.Tensor((M, N), dtype)
    x: T.Tensor((N,), dtype)
    o = T.empty((M,), dtype)
    with T.Kernel(T.ceildiv(M, block_M), threads=threads) as i0_m:
        o_reducer = T.alloc_reducer(block_M, accum_dtype, replication="all")
        T.clear(o_reducer)
        for i0_n in T.Pipelined(T.ceildiv(N, block_N), num_stages=num_stages):
            a_smem = T.alloc_shared((block_M, block_N), dtype)
            T.copy(a[i0_m * block_M, i0_n * block_N], a_smem)
            a_frag = T.alloc_fragment((block_M, block_N), dtype)
            T.copy(a_smem, a_frag)
            x_frag = T.alloc_fragment(block_N, dtype)
            T.copy(x[i0_n * block_N], x_frag)
            for i1_m, i1_n in T.Parallel(block_M, block_N):
                o_reducer[i1_m] += a_frag[i1_m, i1_n] * x_frag[i1_n]
        T.finalize_reducer(o_reducer)
        T.copy(o_reducer, o[i0_m * block_M])
    return o


def ref_program(A, B):
    """The naive kernel's reference: C = B @ A (B is N x K, A has K entries)."""
    return (B.astype(np.float32) @ A.astype(np.float32)).astype(A.dtype)


kernel = naive_gemv.compile(N=1024, K=1024, BLOCK_N=128, BLOCK_K=128)

if __name__ == "__main__":
    result = tilelang.check_against_reference(kernel, ref_program)
    print(f"naive GEMV 1024x1024: {kernel.cores_used} cores, check: {result}")
    split = naive_splitk_gemv.compile(N=1024, K=1024, BLOCK_N=32, BLOCK_K=32)
    split_result = tilelang.check_against_reference(split, ref_program)
    print(f"split-K SIMT GEMV 1024x1024: {split.cores_used} cores, check: {split_result}")
    tiled = gemv_alloc_reducer.compile(M=1024, N=1024)
    tiled_result = tilelang.check_against_reference(tiled, lambda a, x: ref_program(x, a))
    print(f"tiled GEMV 1024x1024: {tiled.cores_used} cores, check: {tiled_result}")
    if not (result.passed and split_result.passed and tiled_result.passed):
        raise SystemExit(1)
