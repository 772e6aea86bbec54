"""End-to-end GEMM: generated C++ runs on the mock device and matches numpy (rel err < 1e-2, PCC ≥ 0.999).

Each configuration builds its own host program (~15 s), so the list covers the features with few programs:
non-square and non-power-of-two shapes, 32..1024, block sizes 32..128, bf16/fp16/fp32, transposes,
fragments larger than DST, more and fewer blocks than cores, all partitions and both simulated targets.
"""

import ml_dtypes
import numpy as np
import pytest
import tilelang_tt
from gemm_check import check
from programs import gemm

CONFIGS = {  # name: (program, partition, target)
    "odd_shapes_fp32": (
        dict(M=96, N=160, K=64, bM=32, bN=32, dtype="float32", c_shared=False),
        "row_major",
        "wormhole",
    ),
    "beyond_dst": (dict(M=128, N=256, K=96, bM=128, bN=128, stages=3), "column_major", "wormhole"),
    "fp16_trans_b": (dict(K=128, bK=64, dtype="float16", trans_b=True), "block", "blackhole"),
    "k_1024": (dict(M=1024, N=64, K=1024, bK=128, trans_b=True), "row_major", "wormhole"),
    "many_blocks": (dict(M=512, N=512, K=32, bM=32, bN=32, c_shared=False), "block", "wormhole"),
    "trans_a": (dict(M=96, N=64, K=128, bM=96, bK=64, trans_a=True), "column_major", "blackhole"),
}


@pytest.mark.parametrize("name", list(CONFIGS))
def test_gemm(name):
    program, partition, target = CONFIGS[name]
    kernel = tilelang_tt.compile(gemm(**program), out_idx=[-1], partition=partition, target=target)
    check(kernel, trans_b=program.get("trans_b", False), trans_a=program.get("trans_a", False))


def test_fp32_output_from_bf16_inputs_single_buffered():
    func = gemm(M=64, N=128, K=96, bK=32, out_dtype="float32", stages=1)
    check(tilelang_tt.compile(func, out_idx=[-1], enable_double_buffer=False, enable_prefetch=False))


def test_device_failure_becomes_ttruntimeerror():
    kernel = tilelang_tt.compile(gemm(M=64, N=128, K=96, bK=32, out_dtype="float32", stages=1), out_idx=[-1],
                                 enable_double_buffer=False, enable_prefetch=False)  # fmt: skip
    kernel.artifacts["compute.cpp"] = kernel.artifacts["compute.cpp"].replace(
        "cb_push_back(cb_out0", "(void)(cb_out0"
    )
    with pytest.raises(tilelang_tt.TTRuntimeError, match="failed on the wormhole mock device"):
        check(kernel)


@pytest.mark.parametrize("target", ["blackhole"])  # the packer's option reads nothing of the target
def test_packer_l1_acc_keeps_the_partial_sums_in_l1(target):
    """packer_l1_acc (the SDK's option): an accumulator larger than DST (64x128 fp32) over K = 1536 in
    six groups of 8 K tiles: the first group's sums are packed, the next four's added to them by the packer
    in L1, the last reloads them. The result matches numpy, and the reload schedule's to the rounding of
    the reordered float32 sums."""
    func = gemm(M=64, N=128, K=1536, bM=64, bN=128, bK=32, out_dtype="float32")
    accumulating = tilelang_tt.compile(func, out_idx=[-1], target=target, packer_l1_acc=True)
    assert "pack_reconfig_l1_acc(" in accumulating.artifacts["compute.cpp"], (
        "the option did not reach the kernel"
    )
    check(accumulating)
    rng = np.random.default_rng(5)
    a, b = (rng.standard_normal(shape).astype(ml_dtypes.bfloat16) for shape in ((64, 1536), (1536, 128)))
    reloading = tilelang_tt.compile(func, out_idx=[-1], target=target)
    np.testing.assert_allclose(accumulating(a, b), reloading(a, b), rtol=1e-5, atol=1e-4)


def test_blocks_the_cores_do_not_divide_are_made_one_per_core_with_the_same_bits():
    """Blackhole's 13x10 cores and a 1536x2048 output in 128x128 blocks (16 block columns): the compiler
    gives each core one 160x160 block (13x10 of them) that multicasts, and every element is the same sum
    as with the user's blocks (the partition the user chose keeps them)."""
    func = gemm(M=1536, N=2048, K=128, bM=128, bN=128, bK=32)
    reblocked = tilelang_tt.compile(func, out_idx=[-1], target="blackhole")
    users = tilelang_tt.compile(func, out_idx=[-1], target="blackhole", partition="row_major")
    assert reblocked.plan["grid"]["block_shape"] == [160, 160], reblocked.plan["grid"]
    assert users.plan["grid"]["block_shape"] == [128, 128], users.plan["grid"]
    check(reblocked)
    rng = np.random.default_rng(3)
    a, b = (rng.standard_normal(shape).astype(ml_dtypes.bfloat16) for shape in ((1536, 128), (128, 2048)))
    np.testing.assert_array_equal(reblocked(a, b).view(np.uint16), users(a, b).view(np.uint16))


def test_blocks_made_for_the_cores_that_do_not_fit_l1_give_way_to_the_users():
    """8192^2 in 256x256 blocks on Blackhole: one block per core would be 832x640 (2 MB of fp32 sums), more
    L1 than a core has, so the kernel keeps the user's blocks instead of failing, and steps them in lockstep
    on the largest rectangle of cores that divides their 32 x 32 grid."""
    func = gemm(M=8192, N=8192, K=64, bM=256, bN=256, bK=32)
    kernel = tilelang_tt.compile(func, out_idx=[-1], target="blackhole")
    assert kernel.plan["grid"]["block_shape"] == [256, 256], kernel.plan["grid"]
    assert kernel.plan["lockstep_grid"] == {"cores_x": 8, "cores_y": 8}
