"""LowerCBIntrinsics: reader/writer NOC + CB protocol."""

from programs import extern_calls, gemm, lower
from tilelang_tt.ir_utils import find_ops


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
