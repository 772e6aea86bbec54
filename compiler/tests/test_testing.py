"""tilelang_tt.testing: TileLang's test decorators run a test of the language, skip one of CUDA-only
hardware with the reason, and ``main()`` runs pytest on the calling file; ``torch_assert_close``
allows a share of mismatches."""

import subprocess
import sys
import textwrap

import numpy as np
import pytest
import tilelang_tt.testing

TESTS = textwrap.dedent(
    """
    import tilelang_tt as tilelang, tilelang_tt.testing


    @tilelang.testing.requires_cuda
    def test_language():
        pass


    @tilelang.testing.requires_cuda
    @tilelang.testing.requires_cuda_compute_version_ge(8, 0)
    def test_ampere_language():
        pass


    @tilelang.testing.requires_cuda_compute_version_lt(9, 0)
    def test_older_than_hopper():
        pass


    @tilelang.testing.requires_cuda_compute_version_ge(9, 0)
    def test_hopper_tma():
        raise AssertionError("a Hopper-only test ran")


    @tilelang.testing.requires_rocm
    def test_rocm():
        raise AssertionError("a ROCm-only test ran")


    if __name__ == "__main__":
        tilelang.testing.main()
    """
)


def test_main_runs_language_tests_and_skips_cuda_hardware_ones(tmp_path):
    (tmp_path / "test_upstream_style.py").write_text(TESTS)
    result = subprocess.run(
        [sys.executable, "test_upstream_style.py", "-rs", "-p", "no:cacheprovider"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "3 passed, 2 skipped" in result.stdout, result.stdout
    assert "needs CUDA compute capability ge 9.0" in result.stdout, result.stdout


def test_torch_assert_close_allows_a_share_of_mismatches():
    expected = np.zeros(1000, np.float32)
    got = expected.copy()
    got[0] = 1.0
    tilelang_tt.testing.torch_assert_close(got, expected, max_mismatched_ratio=0.001)
    got[1] = 1.0
    with pytest.raises(AssertionError, match="2 of 1000 elements differ"):
        tilelang_tt.testing.torch_assert_close(got, expected, max_mismatched_ratio=0.001)
