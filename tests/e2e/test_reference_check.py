"""tilelang_tt.check_against_reference: what examples and `//tools:compile --run` print as the check."""

import numpy as np
import pytest
import tilelang_tt
import tilelang_tt.language as T
from programs import gemm


def _ref(A, B):
    return A.astype(np.float32) @ B.astype(np.float32)


@pytest.fixture(scope="module")
def kernel():
    return tilelang_tt.compile(gemm(M=64, N=64, K=64))


def test_a_correct_reference_passes(kernel):
    result = tilelang_tt.check_against_reference(kernel, _ref)
    assert result.passed and result.max_relative_error < 1e-2 and result.pcc > 0.999, str(result)
    assert str(result).startswith("PASS: max rel err ")


def test_a_wrong_reference_fails(kernel):
    result = tilelang_tt.check_against_reference(kernel, lambda A, B: _ref(A, B).T)
    assert result.passed is False and str(result).startswith("FAIL: "), str(result)


def test_without_a_reference_it_only_runs(kernel):
    result = tilelang_tt.check_against_reference(kernel, None)
    assert result.passed is None and "no ref_program to check against" in str(result)


def test_a_reference_with_the_wrong_number_of_outputs_is_named(kernel):
    with pytest.raises(ValueError, match="ref_program returned 2 arrays for the kernel's 1 outputs"):
        tilelang_tt.check_against_reference(kernel, lambda A, B: (_ref(A, B), _ref(A, B)))


@T.prim_func
def split_k_accumulate(
    A: T.Tensor((64, 128), "float16"), B: T.Tensor((128, 64), "float16"), C: T.Tensor((64, 64), "float32")
):
    """C += A @ B, the two halves of K adding into C from the third grid axis (TileLang's split-K)."""
    with T.Kernel(1, 1, 2, threads=128) as (bx, by, bz):
        A_s = T.alloc_shared((64, 64), "float16")
        B_s = T.alloc_shared((64, 64), "float16")
        C_f = T.alloc_fragment((64, 64), "float32")
        T.clear(C_f)
        T.copy(A[0, bz * 64], A_s)
        T.copy(B[bz * 64, 0], B_s)
        T.gemm(A_s, B_s, C_f)
        for i, j in T.Parallel(64, 64):
            T.atomic_add(C[i, j], C_f[i, j])


def test_a_tensor_the_kernel_accumulates_into_reaches_the_reference_with_its_starting_values():
    """TileLang's convention: the reference gets every parameter that is not an output, so an
    accumulate-into program (C read and written, no out_idx) is checked as C_start + A @ B."""
    kernel = tilelang_tt.compile(split_k_accumulate)
    assert [p["access"] for p in kernel.params] == ["read", "read", "read_write"]
    result = tilelang_tt.check_against_reference(kernel, lambda A, B, C: C + _ref(A, B))
    assert result.passed, str(result)


@T.prim_func
def flat_to_rows(A: T.Tensor((1024,), "float32"), B: T.Tensor((32, 32), "float32")):
    # TileLang's test_tilelang_language_view.py view_test: a 1-D tensor read through a 2-D view
    with T.Kernel(1) as _:
        T.copy(T.view(A, [32, 32]), B)


def test_a_reference_that_is_torch_code_only_through_its_arguments_methods_gets_torch_tensors():
    # A.view(32, 32) is torch's reshape and numpy's reinterpretation as a dtype (a TypeError): the
    # reference runs again on torch tensors, as upstream's profiler would have handed it
    import torch

    kernel = tilelang_tt.compile(flat_to_rows, out_idx=-1)

    def ref_program(A):
        return A.view(32, 32)

    kernel.get_profiler().assert_allclose(ref_program, atol=0, rtol=0)
    result = tilelang_tt.check_against_reference(kernel, ref_program)
    assert result.passed and result.max_relative_error == 0, str(result)
    assert torch.is_tensor(ref_program(torch.zeros(1024)))  # (the reference is indeed torch code)


def test_a_reference_failing_on_both_kinds_of_tensor_raises_its_numpy_error(kernel):
    def ref_program(A, B):
        return A.no_such_method()

    with pytest.raises(AttributeError, match="numpy.ndarray' object has no attribute 'no_such_method'"):
        tilelang_tt.check_against_reference(kernel, ref_program)
