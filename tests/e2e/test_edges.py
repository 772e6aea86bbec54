"""Edge tiles: shapes that are not multiples of the block size or of 32 follow TileLang's semantics — reads
past a tensor's end are zeros, writes past it are dropped — and match numpy on both simulated archs.

K = 96 with block_K = 64 is the regression case: before edge tiles, the second k step read past the end of
A's rows and of B. Each test prints its max relative error (``pytest -s``)."""

import ml_dtypes
import numpy as np
import pytest
import tilelang_tt as tilelang
import tilelang_tt.language as T
from gemm_check import check
from programs import batched_gemm, gemm
from targets import one_target_each
from tilelang_tt.errors import TTCompileError
from tilelang_tt.reference_check import MAX_RELATIVE_ERROR, MIN_PCC, compare

# Each target walks its blocks in a different partition; the targets take turns over the cases.
PARTITIONS = {"wormhole": "row_major", "blackhole": "block"}


@pytest.mark.parametrize(
    "shape, target",
    one_target_each(
        [
            dict(M=275, N=273, K=271, bM=64, bN=64, bK=32, dtype="bfloat16"),
            dict(M=275, N=273, K=271, bM=32, bN=64, bK=64, dtype="bfloat16"),
            dict(M=64, N=64, K=96, bM=64, bN=64, bK=64, dtype="bfloat16"),  # the K remainder regression
            dict(M=100, N=70, K=96, bM=64, bN=64, bK=64, dtype="float32", accum="float32"),
        ],
        ids=["275x273x271_b64x64x32", "275x273x271_b32x64x64", "k96_bk64", "fp32_100x70x96"],
    ),
)
def test_gemm_with_edge_tiles_matches_numpy(shape, target):
    partition = PARTITIONS[target]
    kernel = tilelang.compile(gemm(**shape), out_idx=[-1], target=target, partition=partition)
    rel, pcc = check(kernel, seed=7)
    print(f"{target} {shape}: max rel err {rel:.3e}, PCC {pcc:.6f}")


@pytest.mark.parametrize("dtype, target", one_target_each(["bfloat16", "float32"]))
def test_batched_gemm_with_ragged_m_n_k_on_a_3d_grid(dtype, target):
    partition = PARTITIONS[target]
    # Each batch's M = 100 rows are padded to 128, so batch b + 1 starts on a tile row of the view; the
    # last 64-row block reaches rows 64:128 (28 of them padding), the last 64-column block columns 64:128.
    kernel = tilelang.compile(
        batched_gemm(3, 100, 70, 50, 64, 64, 32, dtype), out_idx=[-1], target=target, partition=partition
    )
    rng = np.random.default_rng(11)
    np_dtype = np.dtype(ml_dtypes.bfloat16) if dtype == "bfloat16" else np.dtype(np.float32)
    a = rng.standard_normal((3, 100, 50)).astype(np.float32).astype(np_dtype)
    b = rng.standard_normal((3, 50, 70)).astype(np.float32).astype(np_dtype)
    rel, pcc = compare(kernel(a, b), a.astype(np.float32) @ b.astype(np.float32))
    print(f"{target} batched 3x100x70x50 {dtype}: max rel err {rel:.3e}, PCC {pcc:.6f}")
    assert rel < MAX_RELATIVE_ERROR and pcc >= MIN_PCC, f"max rel err {rel:.3e}, PCC {pcc:.6f}"


@T.prim_func
def store_starting_past_the_end(A: T.Tensor((100, 64), "bfloat16"), C: T.Tensor((100, 64), "bfloat16")):
    with T.Kernel(1, 3) as (bx, by):
        A_s = T.alloc_shared((64, 64), "bfloat16")
        T.copy(A[0, 0], A_s)
        T.copy(A_s, C[by * 64, 0])


def test_a_region_starting_past_the_end_is_still_an_error():
    # by = 2 writes rows 128:192 of a 100-row C: no element of it exists, so the program has a bug.
    with pytest.raises(
        TTCompileError, match=r"writes C\[128:192, :\] when by = 2, which starts past the end of C's 100 rows"
    ):
        tilelang.compile(store_starting_past_the_end, out_idx=[-1])
