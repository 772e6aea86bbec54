"""Scalar-style kernels and split-K on the mock device against numpy, imports changed only:
- loop nests of element statements run as tile math (VectorizeElementLoopsTT): the original Tenstorrent
  TileLang fork's element-wise add and GEMV (examples/tenstorrent/, T.grid and range loops) and TileLang's
  tiled GEMV with a reducer (examples/gemv.py: gemv_alloc_reducer, without its autotuner);
- TileLang's naive SIMT GEMV (examples/gemv.py: T.get_thread_binding, VectorizeThreadsTT) and its split-K
  SIMT GEMV (2-D threads, T.atomic_add into shared memory, ``if tk == 0``), on both archs;
- TileLang's split-K GEMM (T.atomic_add from a 3-D grid, SerializeSplitKTT);
- a loop-carried T.alloc_local scalar.
Split-K runs on both simulated architectures (its slices take turns on the grid's cores); the loop nests made
tile math (VectorizeElementLoopsTT and VectorizeThreadsTT do not read the target) each run on one of them,
alternating (the naive GEMV also runs on Wormhole as examples/gemv.py's test)."""

import importlib.util
import os

import numpy as np
import pytest
import tilelang_tt as tilelang
import tilelang_tt.language as T

RNG = np.random.default_rng(0)


def _example(name):
    path = os.path.join(os.path.dirname(__file__), "..", "..", "examples", f"{name}.py")
    spec = importlib.util.spec_from_file_location(f"{name}_example", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GEMV = _example("gemv")  # naive_gemv (SIMT) and gemv_alloc_reducer (tiled), TileLang's two GEMVs


@T.prim_func
def elementwise_add_tt(
    A: T.Buffer((256, 256), "float16"), B: T.Buffer((256, 256), "float16"), C: T.Buffer((256, 256), "float16")
):
    with T.Kernel(T.ceildiv(256, 32), T.ceildiv(256, 32)) as (bx, by):
        A_tile = T.alloc_fragment((32, 32), "float16")
        B_tile = T.alloc_fragment((32, 32), "float16")
        C_tile = T.alloc_fragment((32, 32), "float16")
        T.copy(A[by * 32 : (by + 1) * 32, bx * 32 : (bx + 1) * 32], A_tile)
        T.copy(B[by * 32 : (by + 1) * 32, bx * 32 : (bx + 1) * 32], B_tile)
        for i, j in T.grid(32, 32):
            C_tile[i, j] = A_tile[i, j] + B_tile[i, j]
        T.copy(C_tile, C[by * 32 : (by + 1) * 32, bx * 32 : (bx + 1) * 32])


@T.prim_func
def gemv_tt(
    A: T.Buffer((256, 256), "float16"), x: T.Buffer((256,), "float16"), y: T.Buffer((256,), "float16")
):
    with T.Kernel(T.ceildiv(256, 32), 1) as (bx, by):
        A_tile = T.alloc_fragment((32, 32), "float16")
        x_tile = T.alloc_fragment((32,), "float16")
        y_tile = T.alloc_fragment((32,), "float16")
        for i in range(32):
            y_tile[i] = 0.0
        for k in T.serial(T.ceildiv(256, 32)):
            T.copy(A[bx * 32 : (bx + 1) * 32, k * 32 : (k + 1) * 32], A_tile)
            T.copy(x[k * 32 : (k + 1) * 32], x_tile)
            for i, j in T.grid(32, 32):
                y_tile[i] = y_tile[i] + A_tile[i, j] * x_tile[j]
        T.copy(y_tile, y[bx * 32 : (bx + 1) * 32])


def _relative_error(got, expected):
    got = np.asarray(got, np.float32)
    return float(np.abs(got - expected).max() / np.abs(expected).max())


@pytest.mark.parametrize("target", ["wormhole"])
def test_the_tenstorrent_forks_scalar_element_wise_add(target):
    kernel = tilelang.compile(elementwise_add_tt, out_idx=[-1], target=target)
    a, b = (RNG.standard_normal((256, 256)).astype(np.float16) for _ in range(2))
    assert _relative_error(kernel(a, b), a.astype(np.float32) + b) <= 1e-2


@pytest.mark.parametrize("target", ["blackhole"])
def test_the_tenstorrent_forks_scalar_gemv(target):
    kernel = tilelang.compile(gemv_tt, out_idx=[-1], target=target)
    a = RNG.standard_normal((256, 256)).astype(np.float16)
    x = RNG.standard_normal(256).astype(np.float16)
    assert _relative_error(kernel(a, x), a.astype(np.float32) @ x.astype(np.float32)) <= 1e-2


@pytest.mark.parametrize("target", ["wormhole"])
def test_tilelangs_tiled_gemv_with_a_reducer(target):
    a = RNG.standard_normal((256, 512)).astype(np.float16)
    x = RNG.standard_normal(512).astype(np.float16)
    kernel = GEMV.gemv_alloc_reducer.compile(M=256, N=512)
    if target != "wormhole":
        kernel = tilelang.compile(kernel.func, out_idx=list(kernel.options.out_idx), target=target)
    assert _relative_error(kernel(a, x), a.astype(np.float32) @ x.astype(np.float32)) <= 1e-2


@pytest.mark.parametrize(
    "program, n, blocks, target",
    [
        ("naive_gemv", 256, (128, 128), "blackhole"),
        # threads (tn, tk): each thread's partial dot product, added into shared memory with T.atomic_add
        # after one thread of each row zeroed it (``if tk == 0``)
        ("naive_splitk_gemv", 96, (32, 32), "wormhole"),
        ("naive_splitk_gemv", 96, (32, 32), "blackhole"),
    ],
)
def test_tilelangs_simt_gemvs(program, n, blocks, target):
    a = RNG.standard_normal(512).astype(np.float16)
    b = RNG.standard_normal((n, 512)).astype(np.float16)
    kernel = getattr(GEMV, program).compile(N=n, K=512, BLOCK_N=blocks[0], BLOCK_K=blocks[1])
    if target != "wormhole":
        kernel = tilelang.compile(kernel.func, out_idx=list(kernel.options.out_idx), target=target)
    assert _relative_error(kernel(a, b), b.astype(np.float32) @ a.astype(np.float32)) <= 1e-2


@tilelang.jit
def matmul_split_k(
    A, B, C, block_M, block_N, block_K, split_k, dtype=T.float16, accum_dtype=T.float32, out_dtype=T.float32
):
    """TileLang's examples/gemm_splitk/example_tilelang_gemm_splitk.py, imports changed."""
    M, N, K = T.const("M, N, K")
    splitK = K // split_k

    A: T.Tensor((M, K), dtype)
    B: T.Tensor((K, N), dtype)
    C: T.Tensor((M, N), out_dtype)

    with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), split_k, threads=128) as (bx, by, bz):
        A_shared = T.alloc_shared((block_M, block_K), dtype)
        B_shared = T.alloc_shared((block_K, block_N), dtype)
        C_local = T.alloc_fragment((block_M, block_N), accum_dtype)

        T.clear(C_local)
        for ko in T.Pipelined(T.ceildiv(splitK, block_K), num_stages=0):
            T.copy(A[by * block_M, bz * splitK + ko * block_K], A_shared)
            T.copy(B[bz * splitK + ko * block_K, bx * block_N], B_shared)
            T.gemm(A_shared, B_shared, C_local)

        for i, j in T.Parallel(block_M, block_N):
            T.atomic_add(C[by * block_M + i, bx * block_N + j], C_local[i, j])


@pytest.mark.parametrize("target", ["blackhole"])
def test_split_k_gemm_adds_every_slice_once(target):
    """C starts at ones: atomic adds add to what is there; each of the 4 K slices is added exactly once."""
    a = RNG.standard_normal((256, 512)).astype(np.float16)
    b = RNG.standard_normal((512, 128)).astype(np.float16)
    c = np.ones((256, 128), np.float32)
    kernel = matmul_split_k.compile(M=256, N=128, K=512, block_M=64, block_N=64, block_K=32, split_k=4)
    if target != "wormhole":
        kernel = tilelang.compile(kernel.func, out_idx=list(kernel.options.out_idx) or None, target=target)
    kernel(a, b, c)
    assert _relative_error(c, 1 + a.astype(np.float32) @ b.astype(np.float32)) <= 1e-4


@T.prim_func
def scaled_by_the_total(A: T.Tensor((64, 64), "float32"), C: T.Tensor((64, 64), "float32")):
    """A loop-carried T.alloc_local scalar: the sum of the column sums scales the tile."""
    with T.Kernel(1) as bx:
        A_s = T.alloc_shared((64, 64), "float32")
        C_f = T.alloc_fragment((64, 64), "float32")
        column_sums = T.alloc_fragment((64,), "float32")
        total = T.alloc_local((1,), "float32")
        T.copy(A[0, 0], A_s)
        T.reduce_sum(A_s, column_sums, dim=0)
        total[0] = 0.0
        for k in T.serial(64):
            total[0] = total[0] + column_sums[k]
        for i, j in T.Parallel(64, 64):
            C_f[i, j] = A_s[i, j] * total[0]
        T.copy(C_f, C[0, 0])


def test_a_loop_carried_local_scalar():
    a = RNG.standard_normal((64, 64)).astype(np.float32)
    got = tilelang.compile(scaled_by_the_total, out_idx=[-1])(a)
    assert _relative_error(got, a * a.sum()) <= 1e-4
