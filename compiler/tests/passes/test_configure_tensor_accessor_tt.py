"""ConfigureTensorAccessorTT: accessors bound to compile-time and runtime argument slots."""

from programs import attr, gemm, lower
from tilelang_tt.ir_utils import find_ops


def test_reader_accessors_chain_compile_time_args():
    acc = attr(lower(gemm(), "ConfigureTensorAccessorTT"), "tt.accessor_args", "gemm_reader")
    assert [(a["tensor"], a["accessor"], a["ct_offset"], a["addr"]) for a in acc] == [
        ("A", "a", 0, "a_addr"),
        ("B", "b", 1, "b_addr"),
    ]


def test_writer_has_one_accessor():
    acc = attr(lower(gemm(), "ConfigureTensorAccessorTT"), "tt.accessor_args", "gemm_writer")
    assert [(a["tensor"], a["cb"]) for a in acc] == [("C", 16)]


def test_param_index_replaced_by_accessor_var():
    site = find_ops(lower(gemm(), "ConfigureTensorAccessorTT")["gemm_reader"].body, ("tt.read_to_cb",))[1]
    assert site.call.args[1].name == "b"


def test_compute_is_untouched():
    assert attr(lower(gemm(), "ConfigureTensorAccessorTT"), "tt.accessor_args", "gemm_compute") is None
