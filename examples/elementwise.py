"""Element-wise add in TileLang's current "eager" style (examples/elementwise/example_elementwise_add.py,
imports changed): annotation-only tensor parameters, ``T.const`` sizes, ``T.empty`` output.

    ./bazelw run //tools:compile -- examples/elementwise.py --run
    python examples/elementwise.py

On Tenstorrent the ``T.Parallel`` body is one FPU ``add_tiles`` per tile (both operands come straight from
their circular buffers) or, for float32, an SFPU ``add_binary_tile`` over DST.
"""

import numpy as np
import tilelang_tt as tilelang
import tilelang_tt.language as T


def ref_program(x, y):
    return x + y


@tilelang.jit
def elementwise_add(A, B, block_M, block_N, in_dtype, out_dtype, threads):
    M, N = T.const("M, N")

    A: T.Tensor((M, N), in_dtype)
    B: T.Tensor((M, N), in_dtype)
    C = T.empty((M, N), out_dtype)

    with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
        A_shared = T.alloc_shared((block_M, block_N), in_dtype)
        B_shared = T.alloc_shared((block_M, block_N), in_dtype)
        C_local = T.alloc_fragment((block_M, block_N), out_dtype)
        C_shared = T.alloc_shared((block_M, block_N), out_dtype)

        T.copy(A[by * block_M, bx * block_N], A_shared)
        T.copy(B[by * block_M, bx * block_N], B_shared)
        for local_y, local_x in T.Parallel(block_M, block_N):
            C_local[local_y, local_x] = A_shared[local_y, local_x] + B_shared[local_y, local_x]
        T.copy(C_local, C_shared)
        T.copy(C_shared, C[by * block_M, bx * block_N])

    return C


kernel = elementwise_add.compile(
    M=256, N=256, block_M=32, block_N=64, in_dtype=T.float32, out_dtype=T.float32, threads=128
)

if __name__ == "__main__":
    a = np.random.default_rng(0).standard_normal((256, 256)).astype(np.float32)
    b = np.random.default_rng(1).standard_normal((256, 256)).astype(np.float32)
    out = elementwise_add(a, b, block_M=32, block_N=64, threads=128, in_dtype=T.float32, out_dtype=T.float32)
    np.testing.assert_allclose(out, ref_program(a, b), rtol=1e-2, atol=1e-2)
    print("elementwise add: all checks pass")
