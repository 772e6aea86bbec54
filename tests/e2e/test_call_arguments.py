"""Calling a compiled kernel with arguments that are not exactly what the device takes: outputs are written
back or the call is rejected with a TTArgumentError naming the parameter; never an output silently left
untouched, never the caller's data overwritten. One 64×64×64 GEMM program serves every case."""

import ml_dtypes
import numpy as np
import pytest
import tilelang_tt
from gemm_check import reference
from programs import gemm
from tilelang_tt.errors import TTArgumentError, TTCompileError, TTRuntimeError

BF16 = np.dtype(ml_dtypes.bfloat16)


@pytest.fixture(scope="module")
def kernel():
    return tilelang_tt.compile(gemm(M=64, N=64, K=64, bM=64, bN=64, bK=32), out_idx=[-1])


@pytest.fixture(scope="module")
def inputs():
    rng = np.random.default_rng(7)
    a = rng.standard_normal((64, 64)).astype(np.float32).astype(BF16)
    b = rng.standard_normal((64, 64)).astype(np.float32).astype(BF16)
    return a, b, reference(a, b, trans_b=False)


def assert_close(got, ref):
    got = np.asarray(got, dtype=np.float32)
    rel = float(np.abs(got - ref).max() / np.abs(ref).max())
    assert rel < 1e-2, f"max rel err {rel:.3e}: the output was not written back"


@pytest.mark.parametrize(
    "make_output",
    [
        pytest.param(lambda: np.zeros((64, 64), np.float64), id="float64"),
        pytest.param(lambda: np.zeros((64, 64), BF16, order="F"), id="fortran_order"),
        pytest.param(lambda: np.zeros((64, 128), np.float32)[:, ::2], id="strided_view"),
        pytest.param(lambda: np.zeros((64, 64), np.float16), id="float16"),
    ],
)
def test_caller_output_of_another_dtype_or_layout_is_written_back(kernel, inputs, make_output):
    a, b, ref = inputs
    out = make_output()
    kernel(a, b, out)
    assert_close(out, ref)


def test_caller_output_of_the_exact_dtype_is_written_in_place(kernel, inputs):
    a, b, ref = inputs
    out = np.zeros((64, 64), BF16)
    kernel(a, b, out)
    assert_close(out, ref)


@pytest.mark.parametrize(
    "output, message",
    [
        ([[0.0] * 64] * 64, r"C receives the kernel's output, so it must be a numpy array; got list"),
        (np.zeros((64, 64), np.int32), r"C receives bfloat16 results but has dtype int32"),
        (np.zeros((32, 64), BF16), r"C must have shape \(64, 64\), got \(32, 64\)"),
    ],
    ids=["list", "int32", "wrong_shape"],
)
def test_caller_output_that_cannot_receive_the_result_is_rejected(kernel, inputs, output, message):
    a, b, _ = inputs
    with pytest.raises(TTArgumentError, match=message):
        kernel(a, b, output)


def test_read_only_output_is_rejected(kernel, inputs):
    a, b, _ = inputs
    out = np.zeros((64, 64), BF16)
    out.flags.writeable = False
    with pytest.raises(TTArgumentError, match="C receives the kernel's output but is read-only"):
        kernel(a, b, out)


def test_read_only_and_other_dtype_inputs_are_accepted(kernel, inputs):
    a, b, ref = inputs
    a_ro, b64 = a.copy(), b.astype(np.float64)
    a_ro.flags.writeable = False
    assert_close(kernel(a_ro, b64), ref)
    assert_close(kernel(a.astype(np.float32).tolist(), np.asfortranarray(b)), ref)


def test_complex_input_is_rejected(kernel, inputs):
    a, b, _ = inputs
    with pytest.raises(TTArgumentError, match=r"A is complex \(complex64\)"):
        kernel(a.astype(np.float32) + 1j, b)


def test_wrong_argument_count_names_the_inputs(kernel, inputs):
    a, _, _ = inputs
    with pytest.raises(TTArgumentError, match=r"takes 2 inputs \(A, B\) or all 3 tensors, got 1"):
        kernel(a)


@pytest.mark.parametrize(
    "out_idx, message",
    [
        ([4], r"out_idx 4 is out of range: gemm_cs has 3 tensor parameters \(A, B, C\)"),
        ([-4], r"out_idx -4 is out of range"),
        ([1], r"out_idx 1 names B, which gemm_cs only reads"),
    ],
)
def test_out_idx_must_name_a_written_tensor(out_idx, message):
    with pytest.raises(TTCompileError, match=message):
        tilelang_tt.compile(gemm(M=64, N=64, K=64, bM=64, bN=64, bK=32), out_idx=out_idx)


def broken_kernel(artifact: str, text: str, replacement: str):
    """The test GEMM with ``text`` in one generated artifact replaced (a fault the compiler cannot make)."""
    kernel = tilelang_tt.compile(gemm(M=64, N=64, K=64, bM=64, bN=64, bK=32), out_idx=[-1])
    assert text in kernel.artifacts[artifact], f"{artifact} no longer contains {text!r}"
    kernel.artifacts[artifact] = kernel.artifacts[artifact].replace(text, replacement)
    return kernel


def test_tt_fatal_in_the_host_program_is_a_runtime_error(inputs):
    a, b, _ = inputs
    run = "run_gemm_cs(kernel_dir, tensors, sizes);"
    broken = broken_kernel("main.cpp", run, 'TT_FATAL(num_tensors == 0, "forced by the test");\n' + run)
    with pytest.raises(TTRuntimeError, match=r"TT_FATAL @ .*main.cpp:\d+: num_tensors == 0") as err:
        broken(a, b)
    assert err.value.device_error == "RuntimeError"


def test_a_kernel_reading_past_a_tensor_names_the_tensor(inputs):
    a, b, _ = inputs
    read_b = "noc_async_read_tile(b_tile, b,"
    broken = broken_kernel("reader.cpp", read_b, "noc_async_read_tile(b_tile + 100, b,")
    expected = r"page id \d+ is at or past the page count of the DRAM buffer #1 \(tensor B\) at bank address"
    with pytest.raises(TTRuntimeError, match=expected) as err:
        broken(a, b)
    assert err.value.device_error == "NocAccessError" and "reader.cpp:" in str(err.value)
