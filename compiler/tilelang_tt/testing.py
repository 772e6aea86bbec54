"""``tilelang.testing``: what TileLang's own tests import, so they run here with their imports changed.

    import tilelang_tt.testing

    @tilelang_tt.testing.requires_cuda                        # runs: the mock device stands in for the GPU
    @tilelang_tt.testing.requires_cuda_compute_version_ge(8, 0)   # runs (see below); (9, 0) and up: skipped
    def test_gemm(): ...

    if __name__ == "__main__":
        tilelang_tt.testing.main()                            # pytest on the calling file

A test marked for a CUDA device tests TileLang's language, which is what runs here, so ``requires_cuda``
lets it run. A test that needs a compute capability of 9.0 or more (Hopper, Blackwell) tests their
hardware (TMA, wgmma, tcgen05, clusters), which a Tenstorrent core does not have: skipped, saying so; up
to 8.x it runs. ``requires_rocm``, ``requires_metal``, ``requires_llvm`` and ``requires_package`` of a
package that is not installed skip. ``torch_assert_close`` is TileLang's comparison (a share of elements
may differ), over torch tensors or numpy arrays.
"""

from __future__ import annotations

import importlib.util
import inspect
import random
import sys

import numpy as np
import pytest

from .profiler import assert_close

__all__ = [
    "main",
    "requires_cuda",
    "requires_cuda_compute_version",
    "requires_cuda_compute_version_eq",
    "requires_cuda_compute_version_ge",
    "requires_cuda_compute_version_gt",
    "requires_cuda_compute_version_le",
    "requires_cuda_compute_version_lt",
    "requires_llvm",
    "requires_metal",
    "requires_package",
    "requires_rocm",
    "set_random_seed",
    "torch_assert_close",
]

# The compute capability a test may ask for and still test only TileLang's language (Ampere and older).
LANGUAGE_ONLY_BELOW = (9, 0)


def main() -> None:
    """pytest on the file that calls this, with the command line's arguments."""
    test_file = inspect.getsourcefile(sys._getframe(1))
    sys.exit(pytest.main([test_file, *sys.argv[1:]]))


def set_random_seed(seed: int = 42) -> None:
    random.seed(seed)
    np.random.seed(seed)
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.manual_seed(seed)


def requires_cuda(func=None):
    """Runs the test: the mock device stands in for the GPU (usable bare or called)."""
    return func if func is not None else (lambda f: f)


def requires_cuda_compute_version(major_version: int, minor_version: int = 0, mode: str = "ge"):
    """Runs the test unless every capability ``mode`` admits is 9.0 or more (Hopper or Blackwell)."""
    version = (int(major_version), int(minor_version))
    newer_only = {
        "ge": version >= LANGUAGE_ONLY_BELOW,
        "gt": version >= (LANGUAGE_ONLY_BELOW[0] - 1, 9),
        "eq": version >= LANGUAGE_ONLY_BELOW,
        "lt": False,
        "le": False,
    }
    if mode not in newer_only:
        raise ValueError(f"mode must be one of {', '.join(newer_only)}, got {mode!r}")
    reason = (
        f"needs CUDA compute capability {mode} {version[0]}.{version[1]}: hardware a Tenstorrent core does "
        f"not have (TMA, wgmma, tcgen05, clusters)"
    )
    return pytest.mark.skipif(newer_only[mode], reason=reason)


def requires_cuda_compute_version_ge(major_version: int, minor_version: int = 0):
    return requires_cuda_compute_version(major_version, minor_version, "ge")


def requires_cuda_compute_version_gt(major_version: int, minor_version: int = 0):
    return requires_cuda_compute_version(major_version, minor_version, "gt")


def requires_cuda_compute_version_eq(major_version: int, minor_version: int = 0):
    return requires_cuda_compute_version(major_version, minor_version, "eq")


def requires_cuda_compute_version_lt(major_version: int, minor_version: int = 0):
    return requires_cuda_compute_version(major_version, minor_version, "lt")


def requires_cuda_compute_version_le(major_version: int, minor_version: int = 0):
    return requires_cuda_compute_version(major_version, minor_version, "le")


def _skip(reason: str):
    mark = pytest.mark.skip(reason=reason)

    def decorate(func=None):
        return mark(func) if func is not None else mark

    return decorate


requires_rocm = _skip("needs a ROCm GPU; TileLang-TT targets Tenstorrent")
requires_metal = _skip("needs a Metal GPU; TileLang-TT targets Tenstorrent")
requires_llvm = _skip("needs TileLang's LLVM CPU backend; TileLang-TT targets Tenstorrent")


def requires_package(*packages: str):
    """Skips the test unless every package is installed."""
    missing = [p for p in packages if importlib.util.find_spec(p) is None]
    return pytest.mark.skipif(bool(missing), reason=f"needs {', '.join(missing)}")


def torch_assert_close(
    tensor_a,
    tensor_b,
    rtol: float = 1e-2,
    atol: float = 1e-3,
    max_mismatched_ratio: float = 0.001,
    verbose: bool = False,
    equal_nan: bool = True,
    check_device: bool = True,
    check_dtype: bool = True,
    check_layout: bool = True,
    check_stride: bool = False,
    base_name: str = "LHS",
    ref_name: str = "RHS",
) -> None:
    """AssertionError unless at most ``max_mismatched_ratio`` of the elements differ beyond
    ``atol + rtol·|b|`` (profiler.assert_close); the check_* flags are accepted and not applied."""
    assert_close(tensor_a, tensor_b, atol, rtol, max_mismatched_ratio, f"{base_name} against {ref_name}")
