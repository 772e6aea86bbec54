"""LowerCBIntrinsics: reader/writer NOC + CB protocol."""

import tvm_ffi
from before_after import assert_pass
from gemm_kernels import (
    READER_ACCESSORS,
    WRITER_ACCESSORS,
    data_movement_kernel,
    kernel_attrs,
    reads_by_accessor,
    reads_on_noc,
    write_by_accessor,
    writer_block,
)
from programs import extern_calls, gemm, lower
from tilelang_tt.ir_utils import find_ops
from tilelang_tt.passes import LowerCBIntrinsics
from tvm import tirx


def test_reader_protocol_with_prefetch():
    calls = extern_calls(lower(gemm(), "LowerCBIntrinsics")["gemm_reader"])
    assert calls == [
        "cb_reserve_back",
        "cb_reserve_back",
        "noc_async_read_tile",
        "noc_async_read_tile",
        "noc_async_read_barrier",
        "cb_push_back",
        "cb_push_back",
    ]


def test_reader_protocol_without_prefetch_has_a_barrier_per_block():
    calls = extern_calls(lower(gemm(), "LowerCBIntrinsics", enable_prefetch=False)["gemm_reader"])
    assert calls.count("noc_async_read_barrier") == 2 and calls[0:3] == [
        "cb_reserve_back",
        "noc_async_read_tile",
        "noc_async_read_barrier",
    ]


def test_writer_protocol():
    calls = extern_calls(lower(gemm(), "LowerCBIntrinsics")["gemm_writer"])
    assert calls == ["cb_wait_front", "noc_async_write_tile", "noc_async_write_barrier", "cb_pop_front"]


def test_no_tile_intrinsics_left():
    mod = lower(gemm(), "LowerCBIntrinsics")
    assert not find_ops(mod["gemm_reader"].body, ("tt.read_to_cb",)) and not find_ops(
        mod["gemm_writer"].body, ("tt.write_from_cb",)
    )


def test_tile_loops_are_named_by_dimension():
    text = lower(gemm(), "LowerCBIntrinsics")["gemm_reader"].script()
    assert "for mt in range(2)" in text and "for nt in range(2)" in text


def test_writer_drains_subblocks():
    text = lower(gemm(M=128, N=128, bM=128, bN=128), "LowerCBIntrinsics")["gemm_writer"].script()
    assert "for m_subblock in range(4)" in text


def _conditions(func) -> list[str]:
    """The conditions of the ``if``s in ``func``, as TVMScript text."""
    found = []
    tvm_ffi.structural_walk(func.body, (tirx.IfThenElse, lambda s: found.append(str(s.condition))))
    return found


def test_aligned_program_moves_tiles_unconditionally():
    mod = lower(gemm(M=128, N=96, K=128, bN=32), "LowerCBIntrinsics")
    assert _conditions(mod["gemm_reader"]) == [] and _conditions(mod["gemm_writer"]) == []


def test_k_remainder_zero_fills_the_tiles_past_the_grid():
    # K = 96, block_K = 64: A has 3 tile columns, B 3 tile rows; k = 1 reaches tile 3 of both.
    mod = lower(gemm(M=64, N=64, K=96, bM=64, bN=64, bK=64), "LowerCBIntrinsics")
    reader = mod["gemm_reader"]
    assert _conditions(reader) == ["k * 2 + kt < 3", "k * 2 + kt < 3"]
    text = reader.script()
    assert text.count("reinterpret_cast<volatile tt_l1_ptr uint32_t*>") == 2
    assert "outside A's 2x3 tile grid: zeros" in text and "outside B's 3x2 tile grid: zeros" in text
    assert _conditions(mod["gemm_writer"]) == []  # C (64x64) is covered exactly


def test_writer_skips_tiles_past_the_grid_but_pops_every_page():
    # M = 275, N = 273: C's 9x9 tile grid; by, bx in [0, 5) blocks of 2x2 tiles reach tile 9.
    writer = lower(gemm(M=275, N=273, K=64), "LowerCBIntrinsics")["gemm_writer"]
    assert _conditions(writer) == ["by * 2 + mt < 9 and bx * 2 + nt < 9"]
    assert extern_calls(writer) == [
        "cb_wait_front",
        "noc_async_write_tile",
        "noc_async_write_barrier",
        "cb_pop_front",
    ]


def test_gemm_reader_before_expected():
    """Each k step: reserve A's and B's CB pages, read tile by * 2 + k of A and k * 2 + bx of B, one
    barrier (prefetch), push both; the GEMM is tile-aligned, so no edge test is emitted."""
    attrs = kernel_attrs("reader", {"tt.accessor_args": READER_ACCESSORS})
    assert_pass(
        LowerCBIntrinsics(),
        data_movement_kernel("reader", attrs, reads_by_accessor),
        data_movement_kernel("reader", attrs, reads_on_noc),
    )


def test_gemm_writer_before_expected():
    """Wait for C's packed tile, write it to tile by * 2 + bx, barrier, pop."""
    attrs = kernel_attrs("writer", {"tt.accessor_args": WRITER_ACCESSORS})
    assert_pass(
        LowerCBIntrinsics(),
        data_movement_kernel("writer", attrs, write_by_accessor),
        data_movement_kernel("writer", attrs, writer_block),
    )
