"""tilelang_tt.check_against_reference: what examples and `//tools:compile --run` print as the check."""

import numpy as np
import pytest
import tilelang_tt
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
