"""AttachTensorAccessorTT: one accessor per tensor with tiles, page size and access from the copies."""

import tilelang_tt.language as T
from before_after import assert_pass
from gemm_stages import AFTER_ACCESSORS, AFTER_PROPAGATE, launched
from programs import attr, gemm, lower
from tilelang_tt.passes import AttachTensorAccessorTT


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
def ragged(A: T.Tensor((100, 40), "bfloat16"), C: T.Tensor((2, 3, 100, 40), "bfloat16")):
    with T.Kernel(1, 1) as (bx, by):
        A_s = T.alloc_shared((32, 32), "bfloat16")
        T.copy(A[0, 0], A_s)
        T.copy(A_s, C[1, 2, 96, 32])


def test_views_are_padded_to_whole_tiles_per_leading_index():
    accessors = attr(lower(ragged, "AttachTensorAccessorTT"), "tt.tensor_accessors")
    a, c = accessors
    assert (a["shape"], a["view"], a["tiles"]) == ([100, 40], [128, 64], [4, 2])
    # Each of the 2·3 (b, h) slices gets ceil32(100) = 128 rows, so the next slice starts on a tile row.
    assert (c["shape"], c["view"], c["tiles"]) == ([2, 3, 100, 40], [768, 64], [24, 2])


def test_gemm_before_expected():
    """Before/Expected on the GEMM of gemm_stages.py: one accessor per parameter: 2x2 tiles of 2048 bytes; A
    and B read, C written."""
    assert_pass(AttachTensorAccessorTT(), launched(AFTER_PROPAGATE), launched(AFTER_ACCESSORS))
