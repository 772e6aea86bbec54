"""torch CPU tensors through a compiled kernel: taken as views of their own memory, torch tensors back,
given outputs written in place, and a TTArgumentError for what the kernel cannot write. torch reference
programs through the profiler and the reference check. One 64×64×64 GEMM serves (bf16, then fp16 and fp32
outputs); the numpy path is test_call_arguments.py's."""

import functools

import numpy as np
import pytest
import tilelang_tt
import torch
import torch.nn.functional as F  # noqa: N812 -- as upstream's reference programs spell it
from programs import gemm, page_table_gather
from tilelang_tt.errors import TTArgumentError
from tilelang_tt.utils.tensor import TensorSupplyType, get_tensor_supply


@pytest.fixture(scope="module")
def kernel():
    return tilelang_tt.compile(gemm(M=64, N=64, K=64, bM=64, bN=64, bK=32), out_idx=[-1])


@pytest.fixture(scope="module")
def inputs():
    generator = torch.Generator().manual_seed(3)
    a = torch.randn(64, 64, generator=generator).to(torch.bfloat16)
    b = torch.randn(64, 64, generator=generator).to(torch.bfloat16)
    return a, b


def reference(a, b):
    return a.float() @ b.float()


def test_torch_inputs_give_a_torch_output_matching_torch(kernel, inputs):
    a, b = inputs
    c = kernel(a, b)
    assert isinstance(c, torch.Tensor), f"the kernel returned {type(c).__name__} for torch inputs"
    assert c.dtype == torch.bfloat16 and tuple(c.shape) == (64, 64)
    torch.testing.assert_close(c.float(), reference(a, b), rtol=1e-2, atol=1e-1)


def test_numpy_inputs_still_give_numpy(kernel, inputs):
    a, b = (t.float().numpy() for t in inputs)
    c = kernel(a, b)
    assert isinstance(c, np.ndarray), f"the kernel returned {type(c).__name__} for numpy inputs"


def test_a_given_torch_output_is_written_in_place_and_returned(kernel, inputs):
    a, b = inputs
    out = torch.zeros(64, 64, dtype=torch.bfloat16)
    address = out.data_ptr()
    returned = kernel(a, b, out)
    assert returned is out, "the call should hand back the caller's own output tensor"
    assert out.data_ptr() == address
    torch.testing.assert_close(out.float(), reference(a, b), rtol=1e-2, atol=1e-1)


@pytest.mark.parametrize("dtype", [torch.float16, torch.float32, torch.float64])
def test_an_output_of_another_dtype_is_written_back(kernel, inputs, dtype):
    a, b = inputs
    out = torch.zeros(64, 64, dtype=dtype)
    kernel(a, b, out)
    torch.testing.assert_close(out.float(), reference(a, b), rtol=1e-2, atol=1e-1)


def test_non_contiguous_views_are_read_and_written_through(kernel, inputs):
    a, b = inputs
    a_t = a.t().contiguous().t()  # a transposed layout holding the same values
    parent = torch.zeros(64, 128, dtype=torch.bfloat16)
    out = parent[:, ::2]
    kernel(a_t, b, out)
    torch.testing.assert_close(parent[:, ::2].float(), reference(a, b), rtol=1e-2, atol=1e-1)
    assert not parent[:, 1::2].any(), "the kernel wrote between the columns of a strided output view"


def test_inputs_that_require_grad_are_read(kernel, inputs):
    a, b = inputs
    c = kernel(a.clone().requires_grad_(), b)
    assert not c.requires_grad
    torch.testing.assert_close(c.float(), reference(a, b), rtol=1e-2, atol=1e-1)


@pytest.mark.parametrize(
    "make_output, message",
    [
        pytest.param(
            lambda: torch.zeros(64, 64, dtype=torch.bfloat16, requires_grad=True),
            "C receives the kernel's output but requires grad",
            id="requires_grad",
        ),
        pytest.param(
            lambda: torch.zeros(1, 64, dtype=torch.bfloat16).expand(64, 64),
            "C receives the kernel's output but its elements overlap in memory",
            id="expanded",
        ),
        pytest.param(
            lambda: torch.zeros(64, 64, dtype=torch.bfloat16, device="meta"),
            "C is on meta; the mock device reads host memory",
            id="other_device",
        ),
    ],
)
def test_outputs_the_kernel_cannot_write_are_rejected(kernel, inputs, make_output, message):
    a, b = inputs
    with pytest.raises(TTArgumentError, match=message):
        kernel(a, b, make_output())


def test_an_input_on_another_device_is_rejected(kernel, inputs):
    _, b = inputs
    with pytest.raises(TTArgumentError, match=r"A is on meta.*A\.cpu\(\)"):
        kernel(torch.empty(64, 64, dtype=torch.bfloat16, device="meta"), b)


def test_profiler_gives_a_torch_reference_torch_tensors(kernel):
    seen = []

    def ref_program(A, B):
        seen.append(type(A))
        return (A.float() @ B.float()).to(torch.bfloat16)

    kernel.get_profiler(tilelang_tt.TensorSupplyType.Normal).assert_allclose(ref_program, atol=0.1, rtol=1e-2)
    assert seen == [torch.Tensor], f"the reference program got {seen}"


def test_profiler_catches_a_wrong_torch_reference(kernel):
    def wrong(A, B):
        return F.relu(A.float() @ B.float())

    with pytest.raises(AssertionError, match="gemm_cs output C"):
        kernel.get_profiler().assert_allclose(wrong, atol=1e-2, rtol=1e-2)


def test_profiler_times_torch_functions_on_torch_inputs(kernel):
    profiler = kernel.get_profiler()
    assert profiler.do_bench(lambda A, B: torch.matmul(A, B), n_warmup=1, n_repeat=2) > 0
    assert profiler.do_bench(input_tensors=[torch.ones(64, 64), torch.ones(64, 64)]) > 0


def test_reference_check_accepts_torch_references(kernel):
    result = tilelang_tt.check_against_reference(kernel, lambda A, B: torch.mm(A.float(), B.float()))
    assert result.passed, f"a correct torch reference failed the check: {result}"
    wrong = tilelang_tt.check_against_reference(kernel, lambda A, B: torch.mm(B.float(), A.float()))
    assert wrong.passed is False, f"a wrong torch reference passed the check: {wrong}"


def test_a_partial_of_a_torch_reference_is_torch_code(kernel):
    def ref_program(A, B, transpose_b):
        return torch.matmul(A.float(), B.float().T if transpose_b else B.float())

    kernel.get_profiler().assert_allclose(
        functools.partial(ref_program, transpose_b=False), atol=0.1, rtol=1e-2
    )


@pytest.mark.parametrize("table_dtype", [torch.int32, torch.int64], ids=["int32", "int64_converted"])
def test_an_integer_index_table_is_taken_from_torch(table_dtype):
    kernel = tilelang_tt.compile(page_table_gather, out_idx=[-1])
    k = torch.randn(256, 64).to(torch.bfloat16)
    pages = torch.tensor([[7, 0, 3], [1, 6, 2]], dtype=table_dtype)
    out = kernel(k, pages)
    assert isinstance(out, torch.Tensor) and out.dtype == torch.bfloat16
    expected = torch.cat([k[p * 32 : p * 32 + 32] for p in pages.flatten().tolist()])
    assert torch.equal(out, expected), "the gathered pages differ from the ones the torch table names"


def test_the_tensor_supply_of_tilelang_utils_gives_torch_tensors(kernel):
    supply = get_tensor_supply(TensorSupplyType.Normal)
    a, b = (supply(p) for p in kernel.params[:2])
    assert a.dtype == torch.bfloat16 and tuple(a.shape) == (64, 64)
    assert supply(torch.empty(3, 4, dtype=torch.int32)).dtype == torch.int32
    torch.testing.assert_close(kernel(a, b).float(), reference(a, b), rtol=1e-2, atol=1e-1)
