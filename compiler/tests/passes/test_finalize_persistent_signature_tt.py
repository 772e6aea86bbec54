"""FinalizePersistentSignatureTT: runtime-argument schemas, per-core values, work decoding."""

import pytest
import tilelang_tt.language as T
import tvm
import tvm_ffi
from before_after import assert_pass
from gemm_kernels import final_kernels, lowered_kernels
from programs import attr, gemm, lower
from tilelang_tt.errors import TTResourceError
from tilelang_tt.passes import FinalizePersistentSignatureTT
from tvm import tirx


def test_reader_schema():
    args = attr(lower(gemm(), "FinalizePersistentSignatureTT"), "tt.runtime_args", "gemm_reader")
    assert [(a.name, a.kind) for a in args] == [
        ("a_addr", "addr"),
        ("b_addr", "addr"),
        ("block_start", "work_start"),
        ("num_blocks", "work_count"),
    ]


def test_compute_gets_the_count_only():
    args = attr(lower(gemm(), "FinalizePersistentSignatureTT"), "tt.runtime_args", "gemm_compute")
    assert [a.name for a in args] == ["num_blocks"]


def test_block_partition_lists_block_ids():
    mod = lower(gemm(M=256, N=256), "FinalizePersistentSignatureTT", partition_strategy="block")
    core = attr(mod, "tt.core_runtime_args", "gemm_writer")[0]
    assert core.values == ["addr:C", 1, 0]


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


@T.prim_func
def batched_gemm(
    A: T.Tensor((3, 128, 64), "bfloat16"),
    B: T.Tensor((3, 64, 64), "bfloat16"),
    C: T.Tensor((3, 128, 64), "bfloat16"),
):
    with T.Kernel(1, 2, 3) as (bx, by, bz):
        A_s = T.alloc_shared((64, 64), "bfloat16")
        B_s = T.alloc_shared((64, 64), "bfloat16")
        C_f = T.alloc_fragment((64, 64), "float")
        T.clear(C_f)
        T.copy(A[bz, by * 64, 0], A_s)
        T.copy(B[bz, 0, 0], B_s)
        T.gemm(A_s, B_s, C_f)
        T.copy(C_f, C[bz, by * 64, 0])


@pytest.mark.parametrize("strategy", ["row_major", "column_major", "block"])
def test_a_3d_grid_decodes_every_block_once(strategy):
    """Each core's block ids, decoded by the kernel's own expressions, give every (bx, by, bz) once."""
    mod = lower(batched_gemm, "FinalizePersistentSignatureTT", partition_strategy=strategy)
    decoded = []
    schema = attr(mod, "tt.runtime_args", "gemm_writer")
    for core in attr(mod, "tt.core_runtime_args", "gemm_writer"):
        values = {a.name: v for a, v in zip(schema, core.values, strict=False)}
        ids = core.values[-values["num_blocks"] :] if strategy == "block" else None
        for block in range(values["num_blocks"]):
            block_id = ids[block] if ids else values["block_start"] + block
            decoded.append(_grid_index(mod["gemm_writer"], block_id))
    assert sorted(decoded) == [(0, y, z) for y in range(2) for z in range(3)]


def _grid_index(func, block_id: int) -> tuple[int, ...]:
    """(bx, by, bz) that ``func``'s Bind statements give for ``block_id``."""
    analyzer = tvm.sym.Analyzer()
    found = {}

    def visit(bind):
        if bind.var.name == "block_id":
            analyzer.bind(bind.var, tirx.const(block_id, "int32"))
        elif bind.var.name in ("bx", "by", "bz"):
            found[bind.var.name] = int(analyzer.simplify(bind.value))

    tvm_ffi.structural_walk(func.body, (tirx.Bind, visit))
    return tuple(found.get(name, 0) for name in ("bx", "by", "bz"))


def test_gemm_kernels_before_expected():
    """range_row_major: each kernel loops num_blocks times over block_id = block_start + block, split
    into bx = block_id % 2, by = block_id // 2 where it uses them; per-core values: tensor addresses,
    block b's start and a count of 1 (gemm_kernels.py)."""
    assert_pass(FinalizePersistentSignatureTT(), lowered_kernels(), final_kernels())
