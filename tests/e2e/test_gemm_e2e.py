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


@pytest.mark.parametrize("target", ["wormhole", "blackhole"])
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
