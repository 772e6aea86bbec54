"""FinalizePersistentSignatureTT: runtime-argument schemas, per-core values, work decoding."""

import pytest
from programs import attr, gemm, lower
from tilelang_tt.errors import TTResourceError


def test_reader_schema():
    args = attr(lower(gemm(), "FinalizePersistentSignatureTT"), "tt.runtime_args", "gemm_reader")
    assert [(a["name"], a["kind"]) for a in args] == [
        ("a_addr", "addr"),
        ("b_addr", "addr"),
        ("block_start", "work_start"),
        ("num_blocks", "work_count"),
    ]


def test_compute_gets_the_count_only():
    args = attr(lower(gemm(), "FinalizePersistentSignatureTT"), "tt.runtime_args", "gemm_compute")
    assert [a["name"] for a in args] == ["num_blocks"]


def test_block_partition_lists_block_ids():
    mod = lower(gemm(M=256, N=256), "FinalizePersistentSignatureTT", partition_strategy="block")
    core = attr(mod, "tt.core_runtime_args", "gemm_writer")[0]
    assert core["values"] == ["addr:C", 1, 0]


def test_work_intrinsics_are_lowered():
    text = lower(gemm(M=64, N=256), "FinalizePersistentSignatureTT")["gemm_reader"].script()
    assert "work_block" not in text and "block_id % 4" in text


def test_column_major_decodes_rows_fastest():
    text = lower(gemm(M=128, N=128), "FinalizePersistentSignatureTT", partition_strategy="column_major")[
        "gemm_writer"
    ].script()
    assert "by: T.let[T.int32] = block_id % 2" in text


def test_too_many_runtime_args_is_a_resource_error():
    with pytest.raises(TTResourceError, match="limit is 341"):
        lower(
            gemm(M=4096, N=8192, K=32, bM=32, bN=32),
            "FinalizePersistentSignatureTT",
            partition_strategy="block",
            target_device="wormhole",
        )
