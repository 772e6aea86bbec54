"""CheckTileBoundsTT: a tile region that can start outside its tensor (or reach into the next slice of an N-D
tensor) is a located error; one that only reaches past the end is legal (edge tiles); no change either way."""

import pytest
import tilelang_tt.language as T
import tvm
from before_after import assert_pass
from gemm_stages import AFTER_ACCESSORS, launched
from programs import gemm, lower
from tilelang_tt.errors import TTCompileError
from tilelang_tt.passes import CheckTileBoundsTT


def test_in_bounds_program_is_unchanged():
    before = lower(gemm(M=128, N=96, K=64, bN=32), "AttachTensorAccessorTT")
    after = lower(gemm(M=128, N=96, K=64, bN=32), "CheckTileBoundsTT")
    tvm.ir.assert_structural_equal(before, after)


@pytest.mark.parametrize("shape", [dict(M=64, N=64, K=96, bM=64, bN=64, bK=64), dict(M=275, N=273, K=271)])
def test_region_reaching_past_the_end_is_legal_and_unchanged(shape):
    # K = 96 with block_K = 64: the second k step reads columns 64:128 of A, of which 96:128 are zeros.
    before = lower(gemm(**shape), "AttachTensorAccessorTT")
    tvm.ir.assert_structural_equal(before, lower(gemm(**shape), "CheckTileBoundsTT"))


@T.prim_func
def start_past_the_end(A: T.Tensor((64, 64), "bfloat16"), C: T.Tensor((64, 64), "bfloat16")):
    with T.Kernel(1, 1) as (bx, by):
        A_s = T.alloc_shared((64, 64), "bfloat16")
        T.copy(A[64, 0], A_s)
        T.copy(A_s, C[0, 0])


def test_copy_starting_at_the_end_is_located():
    with pytest.raises(TTCompileError) as err:
        lower(start_past_the_end, "CheckTileBoundsTT")
    assert "reads A[64:128, :], which starts past the end of A's 64 rows" in str(err.value)
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
        TTCompileError,
        match=r"writes C\[:, 64:128\] when bx = 1, which starts past the end of C's 64 columns",
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


@T.prim_func
def into_the_next_slice(A: T.Tensor((2, 130, 64), "bfloat16"), C: T.Tensor((2, 130, 64), "bfloat16")):
    with T.Kernel(1, 2, 2) as (bx, by, bz):
        A_s = T.alloc_shared((128, 64), "bfloat16")
        T.copy(A[bz, by * 128, 0], A_s)
        T.copy(A_s, C[bz, by * 128, 0])


def test_rows_past_an_nd_slice_padding_are_located():
    # Each (b) slice of A is padded to 160 rows; rows 160:256 of the by = 1 block would be slice b + 1's.
    with pytest.raises(
        TTCompileError,
        match=r"reads A\[:, 128:256, :\] when by = 1, past row 160 of one A\[i, :, :\] slice",
    ):
        lower(into_the_next_slice, "CheckTileBoundsTT")


@T.prim_func
def bshd_into_the_next_slice(
    Q: T.Tensor((1, 100, 2, 64), "bfloat16"), O: T.Tensor((1, 100, 2, 64), "bfloat16")
):
    with T.Kernel(2, 2, 1) as (bx, by, bz):
        Q_s = T.alloc_shared((96, 64), "bfloat16")
        T.copy(Q[bz, bx * 96 : (bx + 1) * 96, by, :], Q_s)
        T.copy(Q_s, O[bz, bx * 96 : (bx + 1) * 96, by, :])


def test_rows_of_a_tensor_stored_in_another_order_end_at_its_stored_slice():
    # Q (B, S, H, D) is tiled along S, so it is stored as (B, H, S, D): S is the padded row dimension.
    with pytest.raises(
        TTCompileError,
        match=r"reads Q\[:, 96:192, :, :\] when bx = 1, past row 128 of one Q\[i, :, i, :\] slice",
    ):
        lower(bshd_into_the_next_slice, "CheckTileBoundsTT")


def test_gemm_before_expected():
    """Before/Expected on the GEMM of gemm_stages.py: every region starts inside its tensor: the function is
    unchanged."""
    assert_pass(CheckTileBoundsTT(), launched(AFTER_ACCESSORS), launched(AFTER_ACCESSORS))


def window_reads(past_the_end: bool):
    """A K loop whose start depends on the block, through negative values before the clamp (sliding-window
    attention); with ``past_the_end`` its end reaches one block beyond K."""
    extra = 1 if past_the_end else 0

    @T.prim_func
    def main(Q: T.Tensor((256, 64), "bfloat16"), K: T.Tensor((256, 64), "bfloat16")):
        with T.Kernel(4) as bx:
            K_s = T.alloc_shared((64, 64), "bfloat16")
            for k in T.Pipelined(T.max(0, (bx * 64 - 128) // 64), bx + 1 + extra):
                T.copy(K[k * 64, 0], K_s)
                T.copy(K_s, Q[bx * 64, 0])

    return main


def test_a_loop_whose_bounds_depend_on_the_block_is_checked_over_them():
    lower(window_reads(past_the_end=False), "CheckTileBoundsTT")  # last k: bx = 3 → rows 192:256
    with pytest.raises(TTCompileError, match=r"reads K\[256:320, :\] when k = 4, which starts past the end"):
        lower(window_reads(past_the_end=True), "CheckTileBoundsTT")


@T.prim_func
def guarded_blocks(A: T.Tensor((64, 128), "bfloat16"), C: T.Tensor((64, 128), "bfloat16")):
    # Four workers for two column blocks, as a persistent kernel deals them: the guard skips the blocks
    # past the tensor, and the else branch takes the first block again from the far end.
    with T.Kernel(4, 1) as (bx, by):
        A_s = T.alloc_shared((64, 64), "bfloat16")
        col = bx % 2 + bx // 2 * 2
        if col * 64 < 128:
            T.copy(A[0, col * 64], A_s)
            T.copy(A_s, C[0, col * 64])
        else:
            T.copy(A[0, col * 64 - 128], A_s)


@T.prim_func
def loosely_guarded_blocks(A: T.Tensor((64, 128), "bfloat16"), C: T.Tensor((64, 128), "bfloat16")):
    with T.Kernel(4, 1) as (bx, by):
        A_s = T.alloc_shared((64, 64), "bfloat16")
        if bx < 3:
            T.copy(A[0, bx * 64], A_s)
            T.copy(A_s, C[0, bx * 64])


def test_a_guard_bounds_the_regions_of_its_branches():
    tvm.ir.assert_structural_equal(
        lower(guarded_blocks, "AttachTensorAccessorTT"), lower(guarded_blocks, "CheckTileBoundsTT")
    )
    with pytest.raises(TTCompileError, match=r"reads A\[:, 128:192\] when bx = 2, which starts past the end"):
        lower(loosely_guarded_blocks, "CheckTileBoundsTT")


@T.prim_func
def blocks_under_an_int8_mask(
    A: T.Tensor((64, 128), "bfloat16"), Mask: T.Tensor((2,), "int8"), C: T.Tensor((64, 128), "bfloat16")
):
    # A block-sparse kernel's guard (TileLang's block-sparse attention: ``if block_mask[k] != 0``): TVM's
    # simplifier cannot take an int8 comparison, so the blocks under it are checked without its help.
    with T.Kernel(2, 1) as (bx, by):
        A_s = T.alloc_shared((64, 64), "bfloat16")
        if Mask[bx] != 0:
            T.copy(A[0, bx * 64], A_s)
            T.copy(A_s, C[0, bx * 64])


def test_a_guard_on_a_narrow_integer_tensor_is_checked_without_it():
    tvm.ir.assert_structural_equal(
        lower(blocks_under_an_int8_mask, "AttachTensorAccessorTT"),
        lower(blocks_under_an_int8_mask, "CheckTileBoundsTT"),
    )


@T.prim_func
def steps_chosen_per_block(K: T.Tensor((256, 64), "bfloat16"), O: T.Tensor((128, 64), "bfloat16")):
    # block-causal attention's trip count: T.if_then_else of the block (2 steps for the first block, 4
    # for the others); the reads stay inside K over both
    with T.Kernel(2) as bx:
        K_s = T.alloc_shared((64, 64), "bfloat16")
        num_steps = T.if_then_else(bx < 1, 2, 4)
        for s in T.serial(num_steps):
            T.copy(K[s * 64, 0], K_s)
        T.copy(K_s, O[bx * 64, 0])


def test_a_trip_count_chosen_with_if_then_else_is_bounded_by_both_values():
    lower(steps_chosen_per_block, "CheckTileBoundsTT")
