"""InsertDSTManagementTT: DST lifecycle, subblocks, spills."""

from before_after import assert_pass
from gemm_kernels import COMPUTE_CONFIG, compute_block, compute_kernel, kernel_attrs, mma_intrinsics
from programs import extern_calls, gemm, lower
from tilelang_tt.ir_utils import find_ops
from tilelang_tt.passes import InsertDSTManagementTT


def test_dst_resident_accumulation_acquires_once_per_block():
    calls = extern_calls(lower(gemm(), "InsertDSTManagementTT")["gemm_compute"])
    assert calls == [
        "mm_init",
        "tile_regs_acquire",
        "cb_wait_front",
        "cb_wait_front",
        "matmul_tiles",
        "cb_pop_front",
        "cb_pop_front",
        "tile_regs_commit",
        "tile_regs_wait",
        "cb_reserve_back",
        "pack_tile",
        "cb_push_back",
        "tile_regs_release",
    ]


def test_subblocked_accumulation_spills_and_reloads():
    calls = extern_calls(lower(gemm(M=128, N=128, bM=128, bN=128), "InsertDSTManagementTT")["gemm_compute"])
    assert {"copy_tile_to_dst_init_short", "copy_tile", "mm_init_short"} <= set(calls)


def test_single_k_step_needs_no_spill():
    calls = extern_calls(
        lower(gemm(M=128, N=128, K=32, bM=128, bN=128), "InsertDSTManagementTT")["gemm_compute"]
    )
    assert "copy_tile" not in calls and calls.count("tile_regs_acquire") == 1


def test_transpose_b_indexes_b_by_n_then_k():
    text = lower(gemm(bM=32, bN=64, bK=64, trans_b=True), "InsertDSTManagementTT")["gemm_compute"].script()
    assert "cb_in1_2, kt, nt * 2 + kt, nt)" in text


def test_no_math_intrinsics_left():
    assert not find_ops(lower(gemm(), "InsertDSTManagementTT")["gemm_compute"].body, ("tt.mm.mma", "tt.pack"))


def test_gemm_compute_before_expected():
    """The DST-resident accumulator: one acquire around the k loop, matmul_tiles per step between the CB
    waits and pops, then commit / wait / reserve / pack / push / release."""
    attrs = kernel_attrs("compute", COMPUTE_CONFIG)
    assert_pass(
        InsertDSTManagementTT(), compute_kernel(attrs, mma_intrinsics), compute_kernel(attrs, compute_block)
    )
