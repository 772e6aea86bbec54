"""BuildTileDFGTT: nodes per kernel, CB edges, DST subblocks."""

import pytest
import tilelang_tt.language as T
from before_after import assert_pass
from gemm_stages import AFTER_CBS, AFTER_DFG, persistent_intrinsics
from programs import attr, gemm, lower
from tilelang_tt.errors import TTCompileError
from tilelang_tt.passes import BuildTileDFGTT
from tilelang_tt.passes.build_tile_dfg_tt import choose_subblock


def test_nodes_are_assigned_to_kernels():
    dfg = attr(lower(gemm(), "BuildTileDFGTT"), "tt.tile_dfg")
    assert [n.kernel for n in dfg.nodes] == [
        "compute",
        "reader",
        "reader",
        "compute",
        "compute",
        "writer",
    ]


def test_edges_follow_cbs():
    dfg = attr(lower(gemm(), "BuildTileDFGTT"), "tt.tile_dfg")
    assert sorted((e.src, e.dst, e.cb) for e in dfg.edges) == [(1, 3, 0), (2, 3, 1), (4, 5, 16)]


def test_fragment_within_dst_is_one_subblock():
    assert attr(lower(gemm(bM=64, bN=64), "BuildTileDFGTT"), "tt.accumulators")[0].subblock == [2, 2]


def test_fp32_128x128_fragment_is_subblocked_to_dst_capacity():
    acc = attr(lower(gemm(M=128, N=128, bM=128, bN=128), "BuildTileDFGTT"), "tt.accumulators")[0]
    assert acc.subblock == [1, 4]


def test_bf16_accumulation_uses_the_larger_dst():
    acc = attr(
        lower(gemm(M=128, N=128, bM=128, bN=128, accum="bfloat16"), "BuildTileDFGTT"), "tt.accumulators"
    )[0]
    assert acc.subblock == [2, 4]


def test_subblock_choice_prefers_wide():
    assert choose_subblock(3, 6, 4) == [1, 3]


@T.prim_func
def unused_load(
    A: T.Tensor((64, 64), "bfloat16"), B: T.Tensor((64, 64), "bfloat16"), C: T.Tensor((64, 64), "bfloat16")
):
    with T.Kernel(1, 1) as (bx, by):
        A_s = T.alloc_shared((64, 64), "bfloat16")
        B_s = T.alloc_shared((64, 64), "bfloat16")
        X_s = T.alloc_shared((64, 64), "bfloat16")
        C_f = T.alloc_fragment((64, 64), "float")
        T.copy(A[0, 0], A_s)
        T.copy(B[0, 0], B_s)
        T.copy(B[0, 0], X_s)
        T.gemm(A_s, B_s, C_f)
        T.copy(C_f, C[0, 0])


def test_loaded_but_unused_buffer_is_rejected():
    with pytest.raises(TTCompileError, match="X_s is written but never read"):
        lower(unused_load, "BuildTileDFGTT")


def test_gemm_before_expected():
    """Before/Expected on the GEMM of gemm_stages.py: the dataflow graph of the intrinsics and the
    accumulator's 1x1 DST subblock; the body is unchanged."""
    assert_pass(BuildTileDFGTT(), persistent_intrinsics(AFTER_CBS), persistent_intrinsics(AFTER_DFG))
