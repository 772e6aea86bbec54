"""Online softmax in TileLang style (examples/online_softmax/online_softmax.py, imports changed, sizes
given with ``T.const``): one pass computes each row's log-sum-exp block by block, a second writes
``exp2(x * log2(e) - lse)``.

    ./bazelw run //tools:compile -- examples/softmax.py --run
    python examples/softmax.py

``lse`` lives across the first loop (a running value in an L1 circular buffer, updated in place by each
block); the row maximum and sum are ``reduce_tile`` row reductions; the broadcasts ``max_x[i]`` and
``lse[i]`` over a tile are column broadcasts (``unary_bcast<COL>``). ``BLOCK_M=1`` is upstream's: one row
per grid point, 32 consecutive points sharing one core's tiles (CoarsenSubTileRowsTT).
"""

import numpy as np
import tilelang_tt as tilelang
import tilelang_tt.language as T


@tilelang.jit
def softmax_kernel(X, BLOCK_M=1, BLOCK_N=128, dtype: T.dtype = T.float16):
    M, N = T.const("M, N")
    X: T.Tensor([M, N], dtype)
    Y = T.empty([M, N], dtype)

    accum_dtype = T.float32

    scale = 1.44269504  # log2(e)

    with T.Kernel(T.ceildiv(M, BLOCK_M), threads=128) as (i_m):
        x = T.alloc_fragment([BLOCK_M, BLOCK_N], dtype)
        y = T.alloc_fragment([BLOCK_M, BLOCK_N], dtype)
        lse = T.alloc_fragment([BLOCK_M], accum_dtype)
        max_x = T.alloc_fragment([BLOCK_M], dtype)
        exp_x = T.alloc_fragment([BLOCK_M, BLOCK_N], accum_dtype)
        sum_exp_x = T.alloc_fragment([BLOCK_M], accum_dtype)
        T.fill(lse, -T.infinity(accum_dtype))

        for i_n in T.Pipelined(T.ceildiv(N, BLOCK_N)):
            T.copy(X[i_m * BLOCK_M, i_n * BLOCK_N], x)
            T.reduce_max(x, max_x, dim=1, clear=True)

            for i, j in T.Parallel(BLOCK_M, BLOCK_N):
                exp_x[i, j] = T.exp2(x[i, j] * scale - max_x[i] * scale)

            T.reduce_sum(exp_x, sum_exp_x, dim=1, clear=True)

            for i in T.Parallel(BLOCK_M):
                lse[i] = max_x[i] * scale + T.log2(T.exp2(lse[i] - max_x[i] * scale) + sum_exp_x[i])

        for i_n in T.Pipelined(T.ceildiv(N, BLOCK_N)):
            T.copy(X[i_m * BLOCK_M, i_n * BLOCK_N], x)

            for i, j in T.Parallel(BLOCK_M, BLOCK_N):
                y[i, j] = T.exp2(x[i, j] * scale - lse[i])

            T.copy(y, Y[i_m * BLOCK_M, i_n * BLOCK_N])

    return Y


def ref_program(X):
    x = X.astype(np.float32)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)).astype(X.dtype)


kernel = softmax_kernel.compile(M=128, N=512)

if __name__ == "__main__":
    result = tilelang.check_against_reference(kernel, ref_program)
    print(f"online softmax: {kernel.cores_used} cores, check: {result}")
    raise SystemExit(0 if result.passed else 1)
