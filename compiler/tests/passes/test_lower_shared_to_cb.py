"""LowerSharedToCB: CB roles from dataflow, depths from num_stages, spill CBs, resource errors."""

import pytest
import tvm_ffi
from before_after import assert_pass
from gemm_stages import AFTER_CBS, AFTER_GRID, persistent, persistent_on_cbs
from programs import attr, gemm, lower
from tilelang_tt.errors import TTCompileError, TTResourceError
from tilelang_tt.passes import LowerSharedToCB
from tvm import tirx


def _cbs(mod):
    return {e.buffer: e for e in attr(mod, "tt.cb_table")}


def test_roles_and_ids():
    cbs = _cbs(lower(gemm(), "LowerSharedToCB"))
    assert {n: (e.cb, e.role) for n, e in cbs.items()} == {
        "A_s": (0, "input"),
        "B_s": (1, "input"),
        "C_s": (16, "output"),
    }


def test_num_stages_sets_input_depth():
    assert _cbs(lower(gemm(stages=3), "LowerSharedToCB"))["A_s"].depth == 2 * 3


def test_double_buffering_is_the_minimum():
    assert _cbs(lower(gemm(stages=1), "LowerSharedToCB"))["A_s"].depth == 2 * 2


def test_single_buffering_when_disabled():
    assert _cbs(lower(gemm(stages=1), "LowerSharedToCB", enable_double_buffer=False))["A_s"].depth == 2


def test_dims_follow_gemm_roles():
    cbs = _cbs(lower(gemm(trans_b=True), "LowerSharedToCB"))
    assert (cbs["A_s"].dims, cbs["B_s"].dims) == (["m", "k"], ["n", "k"])


def test_large_fp32_fragment_spills_to_an_intermediate_cb():
    """32 K steps, 16 per DST pass: partial sums go through an intermediate CB between passes."""
    mod = lower(gemm(M=128, N=128, K=1024, bM=128, bN=128), "LowerSharedToCB")
    assert _cbs(mod)["C_f"].cb == 24 and attr(mod, "tt.accumulators")[0].residency == "subblocked"
    assert attr(mod, "tt.accumulators")[0].k_group == 16 and _cbs(mod)["A_s"].depth == 2 * 4 * 16


def test_k_steps_one_dst_pass_covers_need_no_spill_cb():
    mod = lower(gemm(M=128, N=128, K=256, bM=128, bN=128), "LowerSharedToCB")
    assert "C_f" not in _cbs(mod) and attr(mod, "tt.accumulators")[0].k_group == 8


def test_fragment_fitting_dst_needs_no_cb():
    mod = lower(gemm(bM=64, bN=64), "LowerSharedToCB")
    assert "C_f" not in _cbs(mod) and attr(mod, "tt.accumulators")[0].residency == "dst"


def test_fragment_stored_directly_gets_an_output_cb():
    assert _cbs(lower(gemm(c_shared=False), "LowerSharedToCB"))["C_f_out"].role == "output"


def test_allocations_are_removed():
    found = []
    tvm_ffi.structural_walk(lower(gemm(), "LowerSharedToCB")["gemm"].body, (tirx.AllocBuffer, found.append))
    assert found == []


def test_block_not_multiple_of_tile_is_rejected():
    with pytest.raises(TTCompileError, match="block size 48 of A_s is not a multiple of the 32x32 tile"):
        lower(gemm(M=96, K=96, bM=48, bK=48, N=96, bN=48), "LowerSharedToCB")


def test_l1_overflow_names_the_buffer():
    with pytest.raises(TTResourceError, match="largest is A_s") as err:
        lower(gemm(M=512, N=64, K=1024, bM=512, bN=64, bK=512, stages=4, dtype="float32"), "LowerSharedToCB")
    assert err.value.lineno is not None


def test_gemm_before_expected():
    """Before/Expected on the GEMM of gemm_stages.py: the tile buffers become the CBs of CB_TABLE (allocations
    removed), C_f a DST-resident accumulator."""
    assert_pass(LowerSharedToCB(), persistent(AFTER_GRID), persistent_on_cbs(AFTER_CBS))
