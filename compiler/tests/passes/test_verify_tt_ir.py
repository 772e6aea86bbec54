"""VerifyTTIR: invariants and resource limits of the final module."""

import pytest
from before_after import assert_pass
from gemm_kernels import final_kernels
from programs import gemm, lower
from tilelang_tt.errors import TTCompileError, TTResourceError
from tilelang_tt.passes import VerifyTTIR, verify_module
from tilelang_tt.records import replace


def test_clean_module_passes():
    assert verify_module(lower(gemm(), "FinalizePersistentSignatureTT")) == ([], [])


def test_leftover_intrinsic_names_the_responsible_pass():
    mod = lower(gemm(), "InsertComputeInitTT")
    with pytest.raises(
        TTCompileError, match="after InsertDSTManagementTT: gemm_compute still contains tt.mm.mma"
    ):
        VerifyTTIR()(mod)


def test_dst_overflow_is_a_resource_error():
    mod = lower(gemm(M=128, N=128, bM=128, bN=128), "FinalizePersistentSignatureTT")
    func = mod["gemm_compute"]
    accs = list(func.attrs["tt.accumulators"])
    accs[0] = replace(accs[0], subblock=[4, 4])
    mod["gemm_compute"] = func.with_attr("tt.accumulators", accs)
    with pytest.raises(TTResourceError, match="holds 4x4 = 16 tiles in DST at once but wormhole DST holds 4"):
        VerifyTTIR()(mod)


def test_missing_kernel_is_reported():
    mod = lower(gemm(), "FinalizePersistentSignatureTT")
    del mod["gemm_writer"]
    assert any("lacks writer" in e for e in verify_module(mod)[1])


def test_final_gemm_kernels_are_returned_unchanged():
    """The GEMM's final reader, compute and writer kernels satisfy every invariant and limit."""
    assert_pass(VerifyTTIR(), final_kernels(), final_kernels())
