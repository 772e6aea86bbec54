"""RMSNorm in TileLang style (examples/norm/rms_norm.py; imports changed, and the tensors' dtype a parameter
that defaults to upstream's float32, the fragments staying float32): each block of rows squares,
sums over the row, takes ``rsqrt(mean + eps)`` and scales the row by it.

    ./bazelw run //tools:compile -- examples/rms_norm.py --run
    python examples/rms_norm.py

It runs, as upstream does, with ``blk_m=1``: one row per grid point. A Tenstorrent tile holds 32 rows, so
32 consecutive grid points share one core's tiles (CoarsenSubTileRowsTT), each row computed on its own.
"""

import numpy as np
import tilelang_tt as tilelang
import tilelang_tt.language as T


@tilelang.jit(pass_configs={"tl.disable_tma_lower": True})
def rms_norm(A, blk_m, dtype: T.dtype = T.float):
    M, N = T.const("M, N")
    accum_dtype = T.float

    A: T.Tensor((M, N), dtype)
    B = T.empty((M, N), dtype)

    with T.Kernel(T.ceildiv(M, blk_m), threads=128) as bx:
        A_local = T.alloc_fragment((blk_m, N), accum_dtype)
        A_pow_local = T.alloc_fragment((blk_m, N), accum_dtype)
        A_powsum = T.alloc_fragment((blk_m,), accum_dtype)

        T.copy(A[bx * blk_m : (bx + 1) * blk_m, :], A_local)
        for i, j in T.Parallel(blk_m, N):
            A_pow_local[i, j] = A_local[i, j] * A_local[i, j]
        T.reduce_sum(A_pow_local, A_powsum, dim=1)
        for i in T.Parallel(blk_m):
            A_powsum[i] = T.rsqrt(A_powsum[i] / N + 1e-12)
        for i, j in T.Parallel(blk_m, N):
            A_local[i, j] *= A_powsum[i]
        T.copy(A_local, B[bx * blk_m : (bx + 1) * blk_m, :])

    return B


def ref_program(x):
    return x / np.sqrt((x.astype(np.float64) ** 2).mean(-1, keepdims=True) + 1e-12)


kernel = rms_norm.compile(M=256, N=512, blk_m=1)

if __name__ == "__main__":
    result = tilelang.check_against_reference(kernel, ref_program)
    print(f"RMSNorm: {kernel.cores_used} cores, check: {result}")
    raise SystemExit(0 if result.passed else 1)
