"""InsertDSTManagementTT: DST lifecycle, subblocks, spills."""

import tvm_ffi
from before_after import assert_pass
from gemm_kernels import (
    BLOCK_ACCUMULATOR,
    COMPUTE_CONFIG,
    compute_block,
    compute_block_2x2,
    compute_block_init_2x2,
    compute_kernel,
    kernel_attrs,
    mma_intrinsics,
    mma_intrinsics_2x2,
)
from programs import extern_calls, gemm, lower
from tilelang_tt import ops
from tilelang_tt.ir_utils import find_ops
from tilelang_tt.passes import InsertDSTManagementTT
from tvm import tirx


def test_dst_resident_accumulation_acquires_once_per_block():
    calls = extern_calls(lower(gemm(), "InsertDSTManagementTT")["gemm_compute"])
    assert calls == [
        "compute_kernel_hw_startup<SrcOrder::Reverse>",
        "matmul_block_init",
        "tile_regs_acquire",
        "cb_wait_front",
        "cb_wait_front",
        "matmul_block",
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
    """More K than one DST pass takes (32 steps, 16 per pass): partial sums go to L1 and come back."""
    calls = extern_calls(
        lower(gemm(M=128, N=128, K=1024, bM=128, bN=128), "InsertDSTManagementTT")["gemm_compute"]
    )
    assert {"copy_init", "copy_tile", "matmul_block_init"} <= set(calls)


def test_single_k_step_needs_no_spill():
    calls = extern_calls(
        lower(gemm(M=128, N=128, K=32, bM=128, bN=128), "InsertDSTManagementTT")["gemm_compute"]
    )
    assert "copy_tile" not in calls and calls.count("tile_regs_acquire") == 1


def test_transpose_b_indexes_b_by_n_then_k():
    """B^T's tiles of one K step are Kt apart, so with two K tiles matmul_block cannot read them as a row."""
    text = lower(gemm(bM=32, bN=64, bK=64, trans_b=True), "InsertDSTManagementTT")["gemm_compute"].script()
    assert "cb_in1_2, kt, nt * 2 + kt, nt)" in text and "matmul_block" not in text


def test_transpose_b_of_one_k_tile_is_one_matmul_block():
    """With one K tile per step B^T's tiles of the step are contiguous: one transposing matmul_block covers
    the 2x2-tile block (in0 0, in1 0, DST 0, transpose 1, ct 2, rt 2, kt 1)."""
    func = lower(gemm(bK=32, trans_b=True), "InsertDSTManagementTT")["gemm_compute"]
    blocks = []
    tvm_ffi.structural_walk(
        func.body,
        (tirx.Evaluate, lambda e: blocks.append(e.value) if ops.is_extern(e, "matmul_block") else None),
    )
    assert [[int(a.value) for a in call.args[3:]] for call in blocks] == [[0, 0, 0, 1, 2, 2, 1]]
    assert "matmul_tiles" not in extern_calls(func)


def test_no_math_intrinsics_left():
    assert not find_ops(lower(gemm(), "InsertDSTManagementTT")["gemm_compute"].body, ("tt.mm.mma", "tt.pack"))


def test_gemm_compute_before_expected():
    """The DST-resident accumulator: one acquire around the k loop, matmul_tiles per step between the CB
    waits and pops, then commit / wait / reserve / pack / push / release."""
    attrs = kernel_attrs("compute", COMPUTE_CONFIG)
    assert_pass(
        InsertDSTManagementTT(), compute_kernel(attrs, mma_intrinsics), compute_kernel(attrs, compute_block)
    )


def test_gemm_compute_of_2x2_blocks_before_expected():
    """A 2x2-tile accumulator in DST: one matmul_block per k step instead of four matmul_tiles."""
    attrs = kernel_attrs("compute", {**COMPUTE_CONFIG, "tt.accumulators": [BLOCK_ACCUMULATOR]})
    assert_pass(
        InsertDSTManagementTT(),
        compute_kernel(attrs, mma_intrinsics_2x2, init=compute_block_init_2x2),
        compute_kernel(attrs, compute_block_2x2, init=compute_block_init_2x2),
    )


def _grouping(func) -> tuple[int, int]:
    """(k_group trip count, k_step trip count) of a grouped compute kernel."""
    extents = {}
    tvm_ffi.structural_walk(
        func.body,
        (tirx.For, lambda lp: extents.setdefault(lp.loop_var.name, getattr(lp.extent, "value", None))),
    )
    return extents.get("k_group"), extents.get("k_step")


def test_k_steps_are_grouped_into_dst_passes():
    """128x128 blocks of fp32 partials: 32 reader steps of one K tile are taken 8 at a time, so the partial
    sums are spilled and reloaded once per 8 K tiles; the input CBs hold the 8 steps, twice."""
    func = lower(gemm(M=128, N=128, K=1024, bM=128, bN=128), "InsertDSTManagementTT")["gemm_compute"]
    assert _grouping(func) == (4, 8)
    depths = {e.buffer: e.depth for e in func.attrs["tt.cb_table"]}
    assert depths["A_s"] == depths["B_s"] == 2 * 4 * 8
    calls = extern_calls(func)
    assert calls.count("copy_tile") == 1 and calls.count("matmul_block") == 1


def test_k_group_is_limited_by_the_l1_left_to_circular_buffers():
    """float32 256x256 blocks: the partials and the output CB take most of L1, so 4 steps per pass fit."""
    func = lower(gemm(M=256, N=256, K=2048, bM=256, bN=256, dtype="float32"), "InsertDSTManagementTT")[
        "gemm_compute"
    ]
    assert _grouping(func) == (16, 4)
    table = func.attrs["tt.cb_table"]
    assert sum(e.total_bytes for e in table) <= func.attrs["tt.target"].l1_cb_budget


def test_steps_that_fill_a_group_once_need_no_spill():
    func = lower(gemm(M=128, N=128, K=256, bM=128, bN=128), "InsertDSTManagementTT")["gemm_compute"]
    assert _grouping(func) == (None, 8)  # one group: the k_group loop is gone
    assert "copy_tile" not in extern_calls(func)


def test_packer_l1_acc_adds_in_l1_and_reloads_only_for_the_last_pass():
    """packer_l1_acc: the passes before the last (6 passes of 8 K steps) free and re-reserve their spill
    pages (no copy_tile) and pack into them under pack_reconfig_l1_acc (0 on the first pass, 1 after); the
    last reloads the sums once and packs the total to the output with accumulation off."""
    func = lower(gemm(M=128, N=128, K=1536, bM=128, bN=128), "InsertDSTManagementTT", packer_l1_acc=True)[
        "gemm_compute"
    ]
    assert _grouping(func) == (6, 8)
    calls = extern_calls(func)
    assert calls.count("copy_tile") == 1 and calls.count("pack_reconfig_l1_acc") == 2, calls
    # the spill pages freed without a read on the middle pass, read once on the last: two waits on them
    spill = next(e.name for e in func.attrs["tt.cb_table"] if e.role == "intermediate")
    waits = []
    tvm_ffi.structural_walk(
        func.body,
        (
            tirx.Evaluate,
            lambda e: waits.append(str(e.value.args[1].name))
            if ops.is_extern(e) and e.value.args[0].value == "cb_wait_front"
            else None,
        ),
    )
    assert waits.count(spill) == 2, waits
