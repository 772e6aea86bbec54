"""InsertComputeInitTT: the first matmul's init first, compute config from the accumulator."""

from before_after import assert_pass
from gemm_kernels import (
    BLOCK_ACCUMULATOR,
    COMPUTE_CONFIG,
    compute_block_init_2x2,
    compute_kernel,
    kernel_attrs,
    mma_intrinsics,
    mma_intrinsics_2x2,
)
from programs import attr, gemm, lower
from tilelang_tt import ops
from tilelang_tt.passes import InsertComputeInitTT
from tvm import tirx


def _first_extern(func):
    for s in func.body.seq:
        if ops.is_extern(s):
            return s.value
    return None


def test_mm_block_init_comes_first():
    """64x64 blocks: the 2x2-tile accumulator is multiplied with matmul_block, so the engines are configured
    for that block (ct_dim 2, rt_dim 2, kt_dim 1)."""
    call = _first_extern(lower(gemm(), "InsertComputeInitTT")["gemm_compute"])
    assert call.args[0].value == "mm_block_init"
    assert [a.name for a in call.args[1:4]] == ["cb_in0", "cb_in1", "cb_out0"]
    assert [int(a.value) for a in call.args[4:8]] == [0, 2, 2, 1]


def test_single_tile_blocks_keep_mm_init():
    call = _first_extern(lower(gemm(bM=32, bN=32), "InsertComputeInitTT")["gemm_compute"])
    assert call.args[0].value == "mm_init" and len(call.args) == 5


def test_transpose_b_reaches_mm_init():
    call = _first_extern(lower(gemm(trans_b=True), "InsertComputeInitTT")["gemm_compute"])
    assert int(call.args[4].value) == 1


def test_fp32_accumulation_enables_fp32_dest():
    assert attr(lower(gemm(), "InsertComputeInitTT"), "tt.compute_config", "gemm_compute").fp32_dest_acc_en


def test_bf16_accumulation_keeps_16bit_dest():
    cfg = attr(lower(gemm(accum="bfloat16"), "InsertComputeInitTT"), "tt.compute_config", "gemm_compute")
    assert not cfg.fp32_dest_acc_en


def test_data_movement_kernels_untouched():
    mod = lower(gemm(), "InsertComputeInitTT")
    assert not isinstance(mod["gemm_reader"].body, tirx.SeqStmt) or _first_extern(mod["gemm_reader"]) is None


def test_gemm_compute_before_expected():
    """mm_init(cb_in0, cb_in1, cb_out0, 0) starts the compute kernel; fp32 accumulation is configured."""
    before = compute_kernel(kernel_attrs("compute"), mma_intrinsics, initialised=False)
    expected = compute_kernel(kernel_attrs("compute", COMPUTE_CONFIG), mma_intrinsics)
    assert_pass(InsertComputeInitTT(), before, expected)


def test_gemm_compute_of_2x2_blocks_before_expected():
    """mm_block_init(cb_in0, cb_in1, cb_out0, 0, 2, 2, 1): the engines are configured for the matmul_block
    of the 2x2-tile accumulator."""
    accumulators = {"tt.accumulators": [BLOCK_ACCUMULATOR]}
    before = compute_kernel(kernel_attrs("compute", accumulators), mma_intrinsics_2x2, initialised=False)
    expected = compute_kernel(
        kernel_attrs("compute", {**accumulators, **COMPUTE_CONFIG}),
        mma_intrinsics_2x2,
        init=compute_block_init_2x2,
    )
    assert_pass(InsertComputeInitTT(), before, expected)


def test_compute_config_takes_the_math_fidelity_option():
    mod = lower(gemm(), "InsertComputeInitTT", math_fidelity="HiFi2")
    assert attr(mod, "tt.compute_config", "gemm_compute").math_fidelity == "HiFi2"
