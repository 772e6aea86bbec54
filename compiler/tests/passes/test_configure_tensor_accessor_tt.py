"""ConfigureTensorAccessorTT: accessors bound to compile-time and runtime argument slots."""

import tilelang_tt.language as TL
from before_after import assert_pass
from gemm_kernels import (
    READER_ACCESSORS,
    WRITER_ACCESSORS,
    data_movement_kernel,
    kernel_attrs,
    reads_by_accessor,
    reads_by_param,
    write_by_accessor,
    write_by_param,
)
from programs import attr, gemm, lower
from tilelang_tt.ir_utils import find_ops
from tilelang_tt.passes import ConfigureTensorAccessorTT


def test_reader_accessors_chain_compile_time_args():
    acc = attr(lower(gemm(), "ConfigureTensorAccessorTT"), "tt.accessor_args", "gemm_reader")
    assert [(a.tensor, a.accessor, a.ct_offset, a.addr) for a in acc] == [
        ("A", "a", 0, "a_addr"),
        ("B", "b", 1, "b_addr"),
    ]


def test_writer_has_one_accessor():
    acc = attr(lower(gemm(), "ConfigureTensorAccessorTT"), "tt.accessor_args", "gemm_writer")
    assert [(a.tensor, a.cb) for a in acc] == [("C", 16)]


def test_param_index_replaced_by_accessor_var():
    site = find_ops(lower(gemm(), "ConfigureTensorAccessorTT")["gemm_reader"].body, ("tt.read_to_cb",))[1]
    assert site.call.args[1].name == "b"


def test_compute_is_untouched():
    assert attr(lower(gemm(), "ConfigureTensorAccessorTT"), "tt.accessor_args", "gemm_compute") is None


def test_gemm_reader_before_expected():
    """The reader's tensors A, B become accessors a, b (compile-time args at 0 and 1, page size from their
    CBs 0 and 1), replacing the parameter indices of its reads."""
    before = data_movement_kernel("reader", kernel_attrs("reader"), reads_by_param)
    expected = data_movement_kernel(
        "reader", kernel_attrs("reader", {"tt.accessor_args": READER_ACCESSORS}), reads_by_accessor
    )
    assert_pass(ConfigureTensorAccessorTT(), before, expected)


def test_gemm_writer_before_expected():
    """The writer's C becomes accessor c, its compile-time args from 0, its page size from CB 16."""
    before = data_movement_kernel("writer", kernel_attrs("writer"), write_by_param)
    expected = data_movement_kernel(
        "writer", kernel_attrs("writer", {"tt.accessor_args": WRITER_ACCESSORS}), write_by_accessor
    )
    assert_pass(ConfigureTensorAccessorTT(), before, expected)


@TL.prim_func
def row_sums(dO: TL.Tensor((2, 3, 32, 32), "float32"), Delta: TL.Tensor((2, 3, 32), "float32")):
    with TL.Kernel(1, 3, 2) as (bx, by, bz):
        x = TL.alloc_fragment((32, 32), "float32")
        s = TL.alloc_fragment((32,), "float32")
        TL.copy(dO[bz, by, :, :], x)
        TL.reduce_sum(x, s, dim=1)
        TL.copy(s, Delta[bz, by, :])


def test_a_tensor_named_like_a_cpp_keyword_and_row_copies_get_accessors():
    """dO's accessor would be ``do``, a C++ keyword: it is ``do_tensor``; the writer's one-row copy of Delta
    (stored a page per row) names its accessor like any tile copy."""
    mod = lower(row_sums, "ConfigureTensorAccessorTT")
    reader = attr(mod, "tt.accessor_args", "gemm_reader")
    assert [(a.tensor, a.accessor, a.args, a.addr) for a in reader] == [
        ("dO", "do_tensor", "do_tensor_args", "do_tensor_addr")
    ]
    (write,) = find_ops(mod["gemm_writer"].body, ("tt.write_row",))
    assert write.call.args[1].name == "delta"
