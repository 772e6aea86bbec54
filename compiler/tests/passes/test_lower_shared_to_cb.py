"""LowerSharedToCB: CB roles from dataflow, depths from num_stages, spill CBs, resource errors."""

import pytest
import tilelang_tt
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
    """32 K steps, 8 per DST pass (an eighth of K, at least 8): partial sums go through an intermediate CB
    between passes."""
    mod = lower(gemm(M=128, N=128, K=1024, bM=128, bN=128), "LowerSharedToCB")
    assert _cbs(mod)["C_f"].cb == 24 and attr(mod, "tt.accumulators")[0].residency == "subblocked"
    assert attr(mod, "tt.accumulators")[0].k_group == 8 and _cbs(mod)["A_s"].depth == 2 * 4 * 8


def test_k_steps_one_dst_pass_covers_need_no_spill_cb():
    mod = lower(gemm(M=128, N=128, K=256, bM=128, bN=128), "LowerSharedToCB")
    assert "C_f" not in _cbs(mod) and attr(mod, "tt.accumulators")[0].k_group == 8


def test_fragment_fitting_dst_needs_no_cb():
    mod = lower(gemm(bM=64, bN=64), "LowerSharedToCB")
    assert "C_f" not in _cbs(mod) and attr(mod, "tt.accumulators")[0].residency == "dst"


def test_fragment_stored_directly_gets_an_output_cb():
    assert _cbs(lower(gemm(c_shared=False), "LowerSharedToCB"))["C_f_out"].role == "output"


def test_a_subblocked_accumulator_packs_into_two_subblocks_where_l1_is_short():
    """A 256x256 fp32 accumulator is packed and written out one 1x4 DST subblock at a time: its output CB
    holds two subblocks (8 pages, not two 64-tile blocks) while the K group is chosen, and the L1 that
    saves takes 8 K steps per DST pass (4 with the CB of two blocks, stored through C_s); two blocks do
    not fit after that, so it stays at 8. A 128x128 one gets its two blocks back: they fit."""
    func = gemm(M=256, N=256, K=2048, bM=256, bN=256, dtype="float32", c_shared=False)
    mod = lower(func, "LowerSharedToCB")
    assert (_cbs(mod)["C_f_out"].depth, _cbs(mod)["C_f_out"].tiles) == (8, 64)
    assert attr(mod, "tt.accumulators")[0].k_group == 8
    through_shared = lower(gemm(M=256, N=256, K=2048, bM=256, bN=256, dtype="float32"), "LowerSharedToCB")
    assert attr(through_shared, "tt.accumulators")[0].k_group == 4
    small = _cbs(lower(gemm(M=128, N=128, K=1024, bM=128, bN=128, c_shared=False), "LowerSharedToCB"))
    assert small["C_f_out"].depth == 2 * 16


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


def test_the_cbs_that_carry_block_float_pages_take_the_tensors_format():
    """A_s and B_s are bfloat16 tiles of bfloat8_b tensors: their CBs hold the tensors' pages as they are
    (Bfp8_b, 1088 bytes); C's CB packs bfloat16."""
    cbs = _cbs(lower(gemm(dtype="bfloat8_b", out_dtype="bfloat16"), "LowerSharedToCB"))
    assert (cbs["A_s"].format, cbs["A_s"].page_size, cbs["B_s"].format) == ("Bfp8_b", 1088, "Bfp8_b")
    assert (cbs["C_s"].format, cbs["C_s"].page_size) == ("Float16_b", 2048)


def test_l1_a_sharded_tensor_takes_is_not_left_to_cbs():
    """A 64-row shard of A's 4096 x 4096 bf16 (512 KB a core) leaves too little L1 for 256 x 256 x 256
    blocks: the error says what took it (the same blocks fit without the shard)."""
    shard = {"memory": "L1", "layout": "sharded", "nd_shard": {"axes": [0], "grid": [64]}}
    func = gemm(M=4096, N=256, K=4096, bM=256, bN=256, bK=256, stages=3)
    with pytest.raises(TTResourceError, match=r"has \d+ for them \(after 524288 bytes of A\)"):
        lower(tilelang_tt.annotate_tt_layout(func, {"A": shard}), "LowerSharedToCB")
    lower(func, "LowerSharedToCB")
