"""LowerTTTileIntrinsics: tl ops → tt tile intrinsics, with DSL-located shape errors."""

import pytest
import tilelang_tt.language as T
from before_after import assert_pass
from gemm_stages import AFTER_CBS, persistent_intrinsics, persistent_on_cbs
from programs import gemm, lower
from tilelang_tt import ops
from tilelang_tt.errors import TTCompileError
from tilelang_tt.ir_utils import find_ops
from tilelang_tt.passes import LowerTTTileIntrinsics


def _ops(mod):
    return [str(s.call.op.name) for s in find_ops(mod["gemm"].body, ops.TL_OPS + ops.TT_OPS)]


def test_c_shared_idiom():
    assert (
        _ops(lower(gemm(), "LowerTTTileIntrinsics"))
        == [
            "tt.work_block",
            "tt.work_block",
            "tt.fpu.zero",
            "tt.read_to_cb",
            "tt.read_to_cb",
            "tt.mm.mma",
            "tt.pack",
            "tt.write_from_cb",
        ][2:]
    )


def test_direct_store_packs_then_writes():
    assert _ops(lower(gemm(c_shared=False), "LowerTTTileIntrinsics"))[-2:] == ["tt.pack", "tt.write_from_cb"]


def test_mma_carries_tile_counts_and_transpose():
    (site,) = find_ops(
        lower(gemm(bM=64, bN=96, N=192, bK=64, trans_b=True), "LowerTTTileIntrinsics")["gemm"].body,
        ("tt.mm.mma",),
    )
    assert [int(a.value) for a in site.call.args[3:8]] == [2, 3, 2, 0, 1]


def test_read_positions_are_in_tiles():
    site = find_ops(lower(gemm(), "LowerTTTileIntrinsics")["gemm"].body, ("tt.read_to_cb",))[0]
    assert str(site.call.args[2]) == "by * 2" and int(site.call.args[4].value) == 2


@T.prim_func
def bad_gemm(
    A: T.Tensor((64, 64), "bfloat16"), B: T.Tensor((64, 64), "bfloat16"), C: T.Tensor((64, 64), "bfloat16")
):
    with T.Kernel(1, 1) as (bx, by):
        A_s = T.alloc_shared((64, 32), "bfloat16")
        B_s = T.alloc_shared((64, 64), "bfloat16")
        C_f = T.alloc_fragment((64, 64), "float")
        T.copy(A[0, 0], A_s)
        T.copy(B[0, 0], B_s)
        T.gemm(A_s, B_s, C_f)
        T.copy(C_f, C[0, 0])


def test_gemm_shape_mismatch_quotes_the_line():
    with pytest.raises(
        TTCompileError, match=r"shape mismatch in T.gemm: A_s\(64, 32\) @ B_s\(64, 64\)"
    ) as err:
        lower(bad_gemm, "LowerTTTileIntrinsics")
    assert "T.gemm(A_s, B_s, C_f)" in str(err.value) and "^" in str(err.value)


@T.prim_func
def bad_copy(A: T.Tensor((64, 64), "bfloat16"), C: T.Tensor((64, 64), "bfloat16")):
    with T.Kernel(1, 1) as (bx, by):
        A_s = T.alloc_shared((64, 64), "bfloat16")
        T.copy(A[0:64, 0:32], A_s)
        T.copy(A_s, C[0, 0])


def test_copy_shape_mismatch():
    with pytest.raises(TTCompileError, match=r"shape mismatch in T.copy: A\(64, 32\) → A_s\(64, 64\)"):
        lower(bad_copy, "LowerTTTileIntrinsics")


def test_transpose_a_keeps_tile_counts():
    @T.prim_func
    def gemm_ta(
        A: T.Tensor((64, 96), "bfloat16"),
        B: T.Tensor((64, 32), "bfloat16"),
        C: T.Tensor((96, 32), "bfloat16"),
    ):
        with T.Kernel(1, 1) as (bx, by):
            A_s = T.alloc_shared((64, 96), "bfloat16")
            B_s = T.alloc_shared((64, 32), "bfloat16")
            C_f = T.alloc_fragment((96, 32), "float")
            T.copy(A[0, 0], A_s)
            T.copy(B[0, 0], B_s)
            T.gemm(A_s, B_s, C_f, transpose_A=True)
            T.copy(C_f, C[0, 0])

    (site,) = find_ops(lower(gemm_ta, "LowerTTTileIntrinsics")["gemm"].body, ("tt.mm.mma",))
    assert [int(a.value) for a in site.call.args[3:8]] == [3, 1, 2, 1, 0]


def test_gemm_before_expected():
    """Before/Expected on the GEMM of gemm_stages.py: copies, fill and gemm become reads, writes, zero, mma
    and pack on CB ids and tile positions."""
    assert_pass(LowerTTTileIntrinsics(), persistent_on_cbs(AFTER_CBS), persistent_intrinsics(AFTER_CBS))
