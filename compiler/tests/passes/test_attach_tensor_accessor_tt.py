"""AttachTensorAccessorTT: one accessor per tensor with tiles, page size and access from the copies."""

import pytest
import tilelang_tt.language as T
from programs import attr, gemm, lower
from tilelang_tt.errors import TTCompileError


def test_accessor_shapes_and_pages():
    acc = attr(
        lower(gemm(M=64, N=96, K=128, bN=32, dtype="float32"), "AttachTensorAccessorTT"),
        "tt.tensor_accessors",
    )
    assert [(a["name"], a["tiles"], a["page_size"]) for a in acc] == [
        ("A", [2, 4], 4096),
        ("B", [4, 3], 4096),
        ("C", [2, 3], 4096),
    ]


def test_access_follows_copy_direction():
    acc = attr(lower(gemm(), "AttachTensorAccessorTT"), "tt.tensor_accessors")
    assert [a["access"] for a in acc] == ["read", "read", "write"]


@T.prim_func
def ragged(A: T.Tensor((100, 64), "bfloat16"), C: T.Tensor((100, 64), "bfloat16")):
    with T.Kernel(1, 1) as (bx, by):
        A_s = T.alloc_shared((32, 32), "bfloat16")
        T.copy(A[0, 0], A_s)
        T.copy(A_s, C[0, 0])


def test_shape_not_multiple_of_tile_is_rejected():
    with pytest.raises(
        TTCompileError,
        match=r"shape \(100, 64\): its last two dimensions are not multiples of the 32x32 tile",
    ):
        lower(ragged, "AttachTensorAccessorTT")
