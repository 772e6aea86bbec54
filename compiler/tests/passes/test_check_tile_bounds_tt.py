"""CheckTileBoundsTT: a tile region that can reach outside its buffer is a located error; else no change."""

import pytest
import tilelang_tt.language as T
import tvm
from programs import gemm, lower
from tilelang_tt.errors import TTCompileError


def test_in_bounds_program_is_unchanged():
    before = lower(gemm(M=128, N=96, K=64, bN=32), "AttachTensorAccessorTT")
    after = lower(gemm(M=128, N=96, K=64, bN=32), "CheckTileBoundsTT")
    tvm.ir.assert_structural_equal(before, after)


def test_k_remainder_reads_past_the_end_of_a():
    # K = 96 with block_K = 64: the second k step would read columns 64:128 of A and rows 64:128 of B.
    with pytest.raises(
        TTCompileError, match=r"reads A\[:, 64:128\] when k = 1, past the end of A's 96 columns"
    ):
        lower(gemm(M=64, N=64, K=96, bM=64, bN=64, bK=64), "CheckTileBoundsTT")


@T.prim_func
def start_past_the_end(A: T.Tensor((64, 64), "bfloat16"), C: T.Tensor((64, 64), "bfloat16")):
    with T.Kernel(1, 1) as (bx, by):
        A_s = T.alloc_shared((64, 64), "bfloat16")
        T.copy(A[64, 0], A_s)
        T.copy(A_s, C[0, 0])


def test_copy_starting_at_the_end_is_located():
    with pytest.raises(TTCompileError) as err:
        lower(start_past_the_end, "CheckTileBoundsTT")
    assert "reads A[64:128, :], past the end of A's 64 rows" in str(err.value)
    with open(__file__) as source:
        line = next(i for i, text in enumerate(source, 1) if "T.copy(A[64, 0], A_s)" in text)
    assert (err.value.filename, err.value.lineno) == (__file__, line)


@T.prim_func
def writes_past_the_end(A: T.Tensor((64, 64), "bfloat16"), C: T.Tensor((64, 64), "bfloat16")):
    with T.Kernel(2, 1) as (bx, by):
        A_s = T.alloc_shared((64, 64), "bfloat16")
        T.copy(A[0, 0], A_s)
        T.copy(A_s, C[0, bx * 64])


def test_write_past_the_end_names_the_grid_value():
    with pytest.raises(
        TTCompileError, match=r"writes C\[:, 64:128\] when bx = 1, past the end of C's 64 columns"
    ):
        lower(writes_past_the_end, "CheckTileBoundsTT")


@T.prim_func
def reversed_walk(A: T.Tensor((64, 128), "bfloat16"), C: T.Tensor((64, 64), "bfloat16")):
    with T.Kernel(1, 1) as (bx, by):
        A_s = T.alloc_shared((64, 64), "bfloat16")
        for k in T.serial(3):
            T.copy(A[0, 64 - k * 64], A_s)
        T.copy(A_s, C[0, 0])


def test_decreasing_index_reports_the_first_index():
    with pytest.raises(TTCompileError, match=r"reads A\[:, -64:0\] when k = 2, before the start of A's 128"):
        lower(reversed_walk, "CheckTileBoundsTT")
