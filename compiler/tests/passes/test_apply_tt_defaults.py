"""ApplyTTDefaults: target facts, options and data formats become function attributes."""

import pytest
import tilelang_tt.language as T
import tvm
from before_after import assert_pass
from gemm_stages import DEFAULTS, launched
from programs import attr, gemm, lower
from tilelang_tt.errors import TTCompileError
from tilelang_tt.passes import ApplyTTDefaults
from tilelang_tt.records import Options


def test_formats_follow_dtypes():
    mod = lower(gemm(dtype="float16"), "ApplyTTDefaults")
    assert attr(mod, "tt.data_formats") == {
        "A": "Float16",
        "B": "Float16",
        "C": "Float16",
        "A_s": "Float16",
        "B_s": "Float16",
        "C_f": "Float32",
        "C_s": "Float16",
    }


def test_target_facts_are_attached():
    mod = lower(gemm(), "ApplyTTDefaults", target_device="blackhole")
    assert attr(mod, "tt.target").grid == [13, 10] and attr(mod, "tt.target").num_circular_buffers == 64


def test_options_are_recorded():
    mod = lower(gemm(), "ApplyTTDefaults", partition_strategy="block", enable_prefetch=False)
    assert attr(mod, "tt.options") == Options(
        partition_strategy="block", enable_double_buffer=True, enable_prefetch=False
    )


def test_math_fidelity_is_recorded():
    mod = lower(gemm(), "ApplyTTDefaults", math_fidelity="LoFi")
    assert attr(mod, "tt.options").math_fidelity == "LoFi"


def test_packer_l1_acc_is_recorded():
    """Off by default (as in the SDK); the option reaches InsertDSTManagementTT through tt.options."""
    assert attr(lower(gemm(), "ApplyTTDefaults"), "tt.options").packer_l1_acc is False
    assert attr(lower(gemm(), "ApplyTTDefaults", packer_l1_acc=True), "tt.options").packer_l1_acc is True


def test_unknown_math_fidelity_is_rejected():
    with pytest.raises(TTCompileError, match="unknown math fidelity 'HiFi5'; choose one of LoFi"):
        ApplyTTDefaults(math_fidelity="HiFi5")


def test_body_is_unchanged():
    func = gemm()
    mod = lower(func, "ApplyTTDefaults")
    tvm.ir.assert_structural_equal(mod["gemm"].body, func.body)


def test_unsupported_dtype_is_rejected_at_its_first_use():
    with pytest.raises(TTCompileError, match="dtype float64") as err:
        lower(gemm(dtype="float64"), "ApplyTTDefaults")
    assert err.value.lineno is not None


def test_unknown_partition_is_rejected():
    with pytest.raises(TTCompileError, match="unknown partition strategy 'diagonal'"):
        ApplyTTDefaults(partition_strategy="diagonal")


def test_empty_dimension_is_a_located_error():
    with pytest.raises(
        TTCompileError, match=r"buffer A has shape \(0, 64\), with an empty dimension 0"
    ) as err:
        lower(gemm(M=0, N=64, K=64), "ApplyTTDefaults")
    assert err.value.filename.endswith("programs.py") and err.value.lineno


M_SYMBOLIC = tvm.tirx.Var("m", "int32")


@T.prim_func
def symbolic_rows(A: T.Tensor((M_SYMBOLIC, 64), "bfloat16"), C: T.Tensor((M_SYMBOLIC, 64), "bfloat16")):
    with T.Kernel(1, 1) as (bx, by):
        A_s = T.alloc_shared((64, 64), "bfloat16")
        T.copy(A[0, 0], A_s)
        T.copy(A_s, C[0, 0])


def test_symbolic_dimension_is_a_located_error():
    with pytest.raises(TTCompileError, match=r"buffer A has a symbolic dimension m") as err:
        lower(symbolic_rows, "ApplyTTDefaults")
    assert err.value.lineno and "T.copy(A[0, 0], A_s)" in str(err.value)


# Before/Expected on the shared GEMM (gemm_stages.py).


def test_gemm_before_expected():
    """Before/Expected on the GEMM of gemm_stages.py: the wormhole facts, the default options and each
    buffer's tile format (the fp32 accumulator Float32)."""
    assert_pass(ApplyTTDefaults(), launched({}), launched(DEFAULTS))


def test_a_block_float_tensor_takes_its_storage_format_and_its_tiles_stay_bf16():
    """T.Tensor(..., "bfloat8_b") is a bfloat16 buffer stored as Bfp8_b: the tensor's format is Bfp8_b, the
    tile buffers declared with the same dtype hold bfloat16 (the CB that carries the pages gets the tensor's
    format later, LowerSharedToCB)."""
    formats = attr(lower(gemm(dtype="bfloat8_b", out_dtype="bfloat16"), "ApplyTTDefaults"), "tt.data_formats")
    assert (formats["A"], formats["B"], formats["C"]) == ("Bfp8_b", "Bfp8_b", "Float16_b"), formats
    assert (formats["A_s"], formats["B_s"]) == ("Float16_b", "Float16_b"), formats


def test_approximate_exp_is_recorded_from_its_function_attribute():
    """Off by default; compile()'s pass config tl.tt.approximate_exp marks the PrimFunc, and the mark reaches
    ScheduleTileComputeTT through tt.options."""
    assert not attr(lower(gemm(), "ApplyTTDefaults"), "tt.options").approximate_exp
    marked = gemm().with_attr("tl.tt.approximate_exp", True)
    assert attr(lower(marked, "ApplyTTDefaults"), "tt.options").approximate_exp
