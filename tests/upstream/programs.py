"""Tile programs written for upstream TileLang (``import tilelang``), which tools/upstream_export.py turns
into the TVMScript files beside this one under upstream's own ``tilelang`` (0.1.15 from PyPI):

    <venv with tilelang==0.1.15>/bin/python tools/upstream_export.py tests/upstream/programs.py \\
        --out tests/upstream

test_upstream_import.py compiles those files with TileLang-TT and checks them against numpy. This file is
not imported by the tests (our venv has no upstream tilelang): it records where the files came from.
"""

import tilelang.language as T


def matmul(M, N, K, block_M, block_N, block_K, dtype=T.float16, accum_dtype=T.float32):
    @T.prim_func
    def gemm(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=3):
                T.copy(A[by * block_M, k * block_K], A_shared)
                T.copy(B[k * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(C_local, C[by * block_M, bx * block_N])

    return gemm


def scaled_relu_add(M, N, block_M, block_N, dtype=T.float32):
    @T.prim_func
    def add(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_s = T.alloc_shared((block_M, block_N), dtype)
            B_s = T.alloc_shared((block_M, block_N), dtype)
            C_l = T.alloc_fragment((block_M, block_N), dtype)
            T.copy(A[by * block_M, bx * block_N], A_s)
            T.copy(B[by * block_M, bx * block_N], B_s)
            for i, j in T.Parallel(block_M, block_N):
                C_l[i, j] = T.max(A_s[i, j] + B_s[i, j] * 2.0, 0.0)
            T.copy(C_l, C[by * block_M, bx * block_N])

    return add


def row_sum_plus_max(M, N, block_M, dtype=T.float32):
    @T.prim_func
    def rowsum(A: T.Tensor((M, N), dtype), S: T.Tensor((M,), dtype)):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as bx:
            A_s = T.alloc_shared((block_M, N), dtype)
            s = T.alloc_fragment((block_M,), dtype)
            m = T.alloc_fragment((block_M,), dtype)
            T.copy(A[bx * block_M, 0], A_s)
            T.reduce_sum(A_s, s, dim=1)
            T.reduce_max(A_s, m, dim=1, clear=True)
            for i in T.Parallel(block_M):
                s[i] = s[i] + m[i]
            T.copy(s, S[bx * block_M])

    return rowsum


gemm = matmul(256, 256, 256, 64, 64, 32)
add = scaled_relu_add(128, 128, 32, 64)
rowsum = row_sum_plus_max(128, 64, 32)
