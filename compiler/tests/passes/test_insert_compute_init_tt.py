"""InsertComputeInitTT: the hardware start-up and the first matmul's init first (tt-metal 0.81's
compute_kernel_hw_startup<SrcOrder::Reverse>, matmul_init / matmul_block_init), compute config from the
accumulator."""

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


def _externs(func, count):
    """The first `count` extern calls of the kernel body."""
    return [s.value for s in func.body.seq if ops.is_extern(s)][:count]


def test_hw_startup_then_matmul_block_init_come_first():
    """64x64 blocks: the start-up maps in0/in1/out (matmul's reversed source order); the 2x2-tile
    accumulator is multiplied with matmul_block, so the engines are configured for that block (ct_dim 2,
    rt_dim 2, kt_dim 1)."""
    startup, init = _externs(lower(gemm(), "InsertComputeInitTT")["gemm_compute"], 2)
    assert startup.args[0].value == "compute_kernel_hw_startup<SrcOrder::Reverse>"
    assert [a.name for a in startup.args[1:4]] == ["cb_in0", "cb_in1", "cb_out0"]
    assert init.args[0].value == "matmul_block_init"
    assert [a.name for a in init.args[1:3]] == ["cb_in0", "cb_in1"]
    assert [int(a.value) for a in init.args[3:7]] == [0, 2, 2, 1]


def test_single_tile_blocks_use_matmul_init():
    _, init = _externs(lower(gemm(bM=32, bN=32), "InsertComputeInitTT")["gemm_compute"], 2)
    assert init.args[0].value == "matmul_init" and len(init.args) == 4


def test_transpose_b_reaches_matmul_init():
    _, init = _externs(lower(gemm(trans_b=True), "InsertComputeInitTT")["gemm_compute"], 2)
    assert int(init.args[3].value) == 1


def test_fp32_accumulation_enables_fp32_dest():
    assert attr(lower(gemm(), "InsertComputeInitTT"), "tt.compute_config", "gemm_compute").fp32_dest_acc_en


def test_bf16_accumulation_keeps_16bit_dest():
    cfg = attr(lower(gemm(accum="bfloat16"), "InsertComputeInitTT"), "tt.compute_config", "gemm_compute")
    assert not cfg.fp32_dest_acc_en


def test_data_movement_kernels_untouched():
    mod = lower(gemm(), "InsertComputeInitTT")
    assert not isinstance(mod["gemm_reader"].body, tirx.SeqStmt) or not _externs(mod["gemm_reader"], 1)


def test_gemm_compute_before_expected():
    """compute_kernel_hw_startup<SrcOrder::Reverse>(cb_in0, cb_in1, cb_out0) and matmul_init(cb_in0, cb_in1,
    0) start the compute kernel; fp32 accumulation is configured."""
    before = compute_kernel(kernel_attrs("compute"), mma_intrinsics, initialised=False)
    expected = compute_kernel(kernel_attrs("compute", COMPUTE_CONFIG), mma_intrinsics)
    assert_pass(InsertComputeInitTT(), before, expected)


def test_gemm_compute_of_2x2_blocks_before_expected():
    """matmul_block_init(cb_in0, cb_in1, 0, 2, 2, 1) after the start-up: the engines are configured for the
    matmul_block of the 2x2-tile accumulator."""
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
