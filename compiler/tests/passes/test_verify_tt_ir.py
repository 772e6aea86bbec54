"""VerifyTTIR: invariants and resource limits of the final module."""

import pytest
from before_after import assert_pass, module_of
from gemm_kernels import (
    COMPUTE_CONFIG,
    COMPUTE_RUNTIME_ARGS,
    READER_ACCESSORS,
    READER_RUNTIME_ARGS,
    WRITER_ACCESSORS,
    WRITER_RUNTIME_ARGS,
    compute_final,
    kernel_attrs,
    reader_final,
    writer_final,
)
from programs import gemm, lower
from tilelang_tt.errors import TTCompileError, TTResourceError
from tilelang_tt.passes import VerifyTTIR, verify_module


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
    accs = [dict(a) for a in func.attrs["tt.accumulators"]]
    accs[0] = {**{k: v for k, v in accs[0].items()}, "subblock": [4, 4]}
    mod["gemm_compute"] = func.with_attr("tt.accumulators", accs)
    with pytest.raises(TTResourceError, match="holds 4x4 = 16 tiles in DST at once but wormhole DST holds 4"):
        VerifyTTIR()(mod)


def test_missing_kernel_is_reported():
    mod = lower(gemm(), "FinalizePersistentSignatureTT")
    del mod["gemm_writer"]
    assert any("lacks writer" in e for e in verify_module(mod)[1])


def test_final_gemm_kernels_are_returned_unchanged():
    """The GEMM's final reader, compute and writer kernels satisfy every invariant and limit."""
    final = module_of(
        reader_final(kernel_attrs("reader", {"tt.accessor_args": READER_ACCESSORS, **READER_RUNTIME_ARGS})),
        compute_final(kernel_attrs("compute", {**COMPUTE_CONFIG, **COMPUTE_RUNTIME_ARGS})),
        writer_final(kernel_attrs("writer", {"tt.accessor_args": WRITER_ACCESSORS, **WRITER_RUNTIME_ARGS})),
    )
    assert_pass(VerifyTTIR(), final, final)
