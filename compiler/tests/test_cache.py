"""The compiler's build cache heals itself (JITKernel.build): edited or emptied artifacts in a program
directory are regenerated, a truncated or corrupted host object is rebuilt, a warm read-only cache is used
without writing, an unusable cache directory is a TTRuntimeError naming it and TILELANG_TT_CACHE_DIR, and
processes sharing one cold cache all get the right answer.

Runs that must find a damaged host object are fresh processes (cache_client.py): a process never damages an
object it has loaded.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import tilelang_tt
from cache_testing import ERROR, RIGHT, flip_middle, listing, run_client, run_clients_at_once, run_read_only
from programs import gemm
from tilelang_tt.arguments import NUMPY_DTYPES
from tilelang_tt.jit import _device

CLIENT = Path(__file__).absolute().parent / "cache_client.py"


def environment(root: Path) -> dict[str, str]:
    """Both caches (the compiler's and the device's kernel cache) under ``root``."""
    return {"TILELANG_TT_CACHE_DIR": str(root), "RUNTIME_MOCK_CACHE_DIR": str(root / "kernels")}


def host_object(root: Path) -> Path:
    (found,) = (root / "programs" / "host").glob("*.so")
    return found


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    for name, value in environment(tmp_path).items():
        monkeypatch.setenv(name, value)
    return tmp_path


def check_gemm(kernel) -> None:
    rng = np.random.default_rng(3)
    a, b = (rng.standard_normal((64, 64)).astype(NUMPY_DTYPES["bfloat16"]) for _ in range(2))
    expected = a.astype(np.float32) @ b.astype(np.float32)
    np.testing.assert_allclose(kernel(a, b).astype(np.float32), expected, atol=0.1, rtol=0.02)


@pytest.mark.parametrize("edit", ["#error edited in the cache\n", ""], ids=["edited", "emptied"])
def test_edited_artifact_in_the_cache_is_regenerated(cache, edit):
    kernel = tilelang_tt.compile(gemm(M=64, N=64, K=64), out_idx=[-1])
    check_gemm(kernel)
    directory, _ = kernel.build()
    for name in ("reader.cpp", "compute.cpp", "tt.plan.json"):
        (Path(directory) / name).write_text(edit)
    check_gemm(kernel)
    for name in ("reader.cpp", "compute.cpp", "tt.plan.json"):
        assert (Path(directory) / name).read_text() == kernel.artifacts[name], f"{name} was not regenerated"


def test_damaged_host_object_is_rebuilt(tmp_path):
    env = environment(tmp_path)
    assert run_client(CLIENT, env) == (RIGHT, "")
    so = host_object(tmp_path)
    size = so.stat().st_size
    so.write_bytes(so.read_bytes()[: size // 2])
    assert run_client(CLIENT, env) == (RIGHT, "")
    assert so.stat().st_size == size
    flip_middle(so)
    assert run_client(CLIENT, env) == (RIGHT, "")


def test_warm_read_only_cache_is_used_without_writing(tmp_path):
    env = environment(tmp_path)
    assert run_client(CLIENT, env) == (RIGHT, "")
    before = listing(tmp_path)
    assert run_read_only(CLIENT, env, tmp_path) == (RIGHT, "")
    assert listing(tmp_path) == before


def test_cold_read_only_cache_names_the_directory_and_variable(tmp_path):
    status, stderr = run_read_only(CLIENT, environment(tmp_path), tmp_path)
    assert status == ERROR, stderr
    assert f"TTRuntimeError: build cache directory '{tmp_path / 'programs'}" in stderr
    assert "cannot be created (Permission denied); set TILELANG_TT_CACHE_DIR" in stderr


def test_cache_path_that_is_a_file_names_the_directory_and_variable(tmp_path, monkeypatch):
    (tmp_path / "cache").write_text("a file")
    monkeypatch.setenv("TILELANG_TT_CACHE_DIR", str(tmp_path / "cache"))
    kernel = tilelang_tt.compile(gemm(M=64, N=64, K=64), out_idx=[-1])
    with pytest.raises(tilelang_tt.TTRuntimeError, match="'.*/cache' is a file.*TILELANG_TT_CACHE_DIR"):
        kernel.build()


# Four times the CPUs of a CI machine: every build of the cold cache is raced for, and each client is a Python
# process importing the compiler (about a CPU-second), so more add time, not contention.
SHARING_CLIENTS = 8


def test_processes_share_one_cold_cache(tmp_path):
    results = run_clients_at_once(CLIENT, environment(tmp_path), SHARING_CLIENTS)
    failed = [r for r in results if r != (RIGHT, "")]
    assert not failed, (
        f"{len(failed)} of {SHARING_CLIENTS} processes sharing a cold cache failed: {failed[:3]}"
    )


def test_a_new_shape_reuses_the_built_kernels(cache):
    """Two shapes of one program structure: both right, and three kernel objects and one host object built
    in all (the second shape's kernels and main.cpp are the same text, so both builds are reused)."""
    rng = np.random.default_rng(5)
    for m, n, k in ((128, 128, 128), (192, 256, 320)):
        kernel = tilelang_tt.compile(gemm(M=m, N=n, K=k), out_idx=[-1])
        a = rng.standard_normal((m, k)).astype(NUMPY_DTYPES["bfloat16"])
        b = rng.standard_normal((k, n)).astype(NUMPY_DTYPES["bfloat16"])
        expected = a.astype(np.float32) @ b.astype(np.float32)
        np.testing.assert_allclose(kernel(a, b).astype(np.float32), expected, atol=0.1, rtol=0.02)
    kernel_objects = sorted(p.name for p in (cache / "kernels").rglob("*.so"))
    assert len(kernel_objects) == 3, f"expected the reader, compute and writer built once: {kernel_objects}"
    host_objects = list((cache / "programs" / "host").glob("*.so"))
    assert len(host_objects) == 1, f"expected one host object for both shapes: {host_objects}"


def test_host_program_rejects_sizes_of_another_structure(cache):
    """main.cpp checks the length of `sizes` against its named sizes and work table, and names both
    (std::invalid_argument: a ValueError in Python)."""
    kernel = tilelang_tt.compile(gemm(M=64, N=64, K=64), out_idx=[-1])
    check_gemm(kernel)
    directory, so_path = kernel.build()
    tensors = [np.zeros((64, 64), np.uint16) for _ in range(3)]
    named = len(kernel.plan["host_sizes"])
    expected = rf"gemm_cs takes {named} sizes, a core count and 4 per core, got 3"
    with pytest.raises(ValueError, match=expected):
        _device().HostProgram(so_path).run(directory, tensors, sizes=[1, 2, 3])


def test_kernels_build_beside_the_host_program(cache):
    """A cold build() also builds the three kernels (in parallel with main.cpp), exactly as the run asks for
    them: the first call finds them in the cache and builds nothing more."""
    kernel = tilelang_tt.compile(gemm(M=64, N=64, K=64), out_idx=[-1])
    kernel.build()
    built = sorted(p.name for p in (cache / "kernels").rglob("*.so"))
    assert len(built) == 3, f"expected the reader, compute and writer after build(): {built}"
    check_gemm(kernel)
    assert sorted(p.name for p in (cache / "kernels").rglob("*.so")) == built, (
        "the run built its kernels again"
    )
