"""LayerNorm forward in TileLang style (examples/norm/layernorm.py, imports changed): normalised rows
scaled by ``gamma`` and shifted by ``beta``, with the per-row mean and reciprocal standard deviation
as two more outputs.

    ./bazelw run //tools:compile -- examples/layer_norm.py --run
    python examples/layer_norm.py

``gamma`` and ``beta`` are 1-D tensors read as row vectors (broadcast down a tile's rows), ``Mean`` and
``Rstd`` are 1-D outputs written as column vectors (one value per row of a tile). Its block is
upstream's ``blk_m=1``, one row per grid point; 32 consecutive points share one core's 32-row tiles
(CoarsenSubTileRowsTT).
"""

import numpy as np
import tilelang_tt as tilelang
import tilelang_tt.language as T


@tilelang.jit(out_idx=[-3, -2, -1])
def _layernorm_fwd(N, D, eps=1e-5, blk_m=1, threads=256, in_dtype="bfloat16", out_dtype="bfloat16"):
    accum_dtype = "float"

    @T.prim_func
    def main(
        X: T.Tensor((N, D), in_dtype),
        gamma: T.Tensor((D,), in_dtype),
        beta: T.Tensor((D,), in_dtype),
        Y: T.Tensor((N, D), out_dtype),
        Mean: T.Tensor((N,), accum_dtype),
        Rstd: T.Tensor((N,), accum_dtype),
    ):
        with T.Kernel(T.ceildiv(N, blk_m), threads=threads) as bx:
            X_smem = T.alloc_shared((blk_m, D), in_dtype)
            G_smem = T.alloc_shared((D,), in_dtype)
            B_smem = T.alloc_shared((D,), in_dtype)
            X_local = T.alloc_fragment((blk_m, D), accum_dtype)
            X_sq_local = T.alloc_fragment((blk_m, D), accum_dtype)
            sum_row = T.alloc_fragment((blk_m,), accum_dtype)
            sumsq_row = T.alloc_fragment((blk_m,), accum_dtype)
            mean_row = T.alloc_fragment((blk_m,), accum_dtype)
            rstd_row = T.alloc_fragment((blk_m,), accum_dtype)

            T.copy(X[bx * blk_m, 0], X_smem)
            T.copy(gamma, G_smem)
            T.copy(beta, B_smem)

            for i, j in T.Parallel(blk_m, D):
                X_local[i, j] = T.Cast(accum_dtype, X_smem[i, j])
            for i, j in T.Parallel(blk_m, D):
                X_sq_local[i, j] = X_local[i, j] * X_local[i, j]

            T.reduce_sum(X_local, sum_row, dim=1)
            T.reduce_sum(X_sq_local, sumsq_row, dim=1)

            inv_D = T.float32(1.0) / T.Cast(accum_dtype, D)
            for i in T.Parallel(blk_m):
                mean_row[i] = sum_row[i] * inv_D
                rstd_row[i] = T.rsqrt(
                    sumsq_row[i] * inv_D - mean_row[i] * mean_row[i] + T.Cast(accum_dtype, eps)
                )
                Mean[bx * blk_m + i] = mean_row[i]
                Rstd[bx * blk_m + i] = rstd_row[i]

            for i, j in T.Parallel(blk_m, D):
                norm = (X_local[i, j] - mean_row[i]) * rstd_row[i]
                X_smem[i, j] = T.Cast(
                    out_dtype,
                    norm * T.Cast(accum_dtype, G_smem[j]) + T.Cast(accum_dtype, B_smem[j]),
                )

            T.copy(X_smem, Y[bx * blk_m, 0])

    return main


def ref_program(x, gamma, beta, eps=1e-5):
    x32 = x.astype(np.float32)
    mean = x32.mean(axis=1)
    rstd = 1.0 / np.sqrt(x32.var(axis=1) + eps)
    y = (x32 - mean[:, None]) * rstd[:, None] * gamma.astype(np.float32) + beta.astype(np.float32)
    return y.astype(x.dtype), mean, rstd


kernel = _layernorm_fwd(256, 512)

if __name__ == "__main__":
    result = tilelang.check_against_reference(kernel, ref_program)
    print(f"LayerNorm forward: {kernel.cores_used} cores, check: {result}")
    raise SystemExit(0 if result.passed else 1)
