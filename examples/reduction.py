"""Row reductions in TileLang style: the sum, absolute maximum and minimum of each row of a matrix,
written to three 1-D outputs.

    ./bazelw run //tools:compile -- examples/reduction.py --run
    python examples/reduction.py

``T.reduce_*(..., dim=1)`` reduces along a row (``reduce_tile<…, REDUCE_ROW>``: the result is a column
vector, one value per row). With ``clear=False`` a block's result is combined with the running value, so
each block of rows accumulates over the column blocks. |x| and -x (min = -max(-x)) are computed on the
SFPU into a scratch tile before the reduction.
"""

import numpy as np
import tilelang_tt as tilelang
import tilelang_tt.language as T


@tilelang.jit(out_idx=[-3, -2, -1])
def reductions(M, N, block_M=64, block_N=128, dtype=T.float32):
    @T.prim_func
    def main(
        A: T.Tensor((M, N), dtype),
        RowSum: T.Tensor((M,), dtype),
        RowAbsMax: T.Tensor((M,), dtype),
        RowMin: T.Tensor((M,), dtype),
    ):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as bx:
            A_shared = T.alloc_shared((block_M, block_N), dtype)
            row_sum = T.alloc_fragment((block_M,), dtype)
            row_absmax = T.alloc_fragment((block_M,), dtype)
            row_min = T.alloc_fragment((block_M,), dtype)

            T.clear(row_sum)
            T.clear(row_absmax)
            T.fill(row_min, T.infinity(dtype))
            for k in T.serial(T.ceildiv(N, block_N)):
                T.copy(A[bx * block_M, k * block_N], A_shared)
                T.reduce_sum(A_shared, row_sum, dim=1, clear=False)
                T.reduce_absmax(A_shared, row_absmax, dim=1, clear=False)
                T.reduce_min(A_shared, row_min, dim=1, clear=False)
            T.copy(row_sum, RowSum[bx * block_M])
            T.copy(row_absmax, RowAbsMax[bx * block_M])
            T.copy(row_min, RowMin[bx * block_M])

    return main


def ref_program(A):
    return A.sum(axis=1), np.abs(A).max(axis=1), A.min(axis=1)


kernel = reductions(256, 512)

if __name__ == "__main__":
    result = tilelang.check_against_reference(kernel, ref_program)
    print(f"row reductions: {kernel.cores_used} cores, check: {result}")
    raise SystemExit(0 if result.passed else 1)
