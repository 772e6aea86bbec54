"""The device's build caches heal themselves (see runtime_mock.cache_entry and
runtime_mock/src/cache_entry.hpp).

Damaged kernel and host objects are rebuilt, a warm read-only cache is used without writing, an unusable
cache directory is a KernelBuildError naming it and RUNTIME_MOCK_CACHE_DIR, and 20 processes sharing one
cold cache all get the right answer. Every run that must find a damaged cache is a fresh process
(cache_client.py): a process never damages an object it has loaded.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from cache_testing import (
    ERROR,
    RIGHT,
    flip_middle,
    listing,
    run_client,
    run_clients_at_once,
    run_read_only,
    truncate_half,
)

import runtime_mock
from runtime_mock import cache_entry

HERE = Path(__file__).absolute().parent
CLIENT = HERE / "cache_client.py"


def run(cache: Path) -> tuple[int, str]:
    return run_client(CLIENT, {"RUNTIME_MOCK_CACHE_DIR": str(cache)})


def objects(cache: Path) -> list[Path]:
    """The kernel object and the host object in `cache`."""
    found = sorted(cache.glob("*.so")) + sorted((cache / "host").glob("*.so"))
    assert len(found) == 2, f"expected one kernel and one host object in {cache}, found {found}"
    return found


def test_truncated_objects_are_rebuilt(tmp_path):
    assert run(tmp_path) == (RIGHT, "")
    sizes = {path: truncate_half(path) for path in objects(tmp_path)}
    assert run(tmp_path) == (RIGHT, "")
    for path, size in sizes.items():
        assert path.stat().st_size == size, f"{path} was not rebuilt"


def test_corrupted_objects_are_rebuilt(tmp_path):
    assert run(tmp_path) == (RIGHT, "")
    for path in objects(tmp_path):
        flip_middle(path)
    assert not cache_entry.intact(objects(tmp_path)[1])
    assert run(tmp_path) == (RIGHT, "")
    assert cache_entry.intact(objects(tmp_path)[1])


def test_host_object_that_does_not_load_is_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setenv("RUNTIME_MOCK_CACHE_DIR", str(tmp_path))
    build = lambda: runtime_mock.build_host_program(  # noqa: E731
        [HERE / "kernels" / "copy_host.cpp"], defines={"COPY_ELEMENTS": "4096"}
    )
    so = build()
    so.write_bytes(b"not an ELF object")
    so.with_name(so.name + ".manifest").write_text(cache_entry.manifest_of(so))
    assert cache_entry.intact(so)
    with pytest.raises(
        runtime_mock.KernelBuildError, match=r"cannot load host program .* marked for rebuilding"
    ):
        runtime_mock.HostProgram(so)
    assert build() == so
    source = np.arange(4096, dtype=np.uint16)
    result = np.zeros_like(source)
    runtime_mock.HostProgram(so).run(HERE / "kernels", [source, result])
    np.testing.assert_array_equal(result, source)


def test_warm_read_only_cache_is_used_without_writing(tmp_path):
    assert run(tmp_path) == (RIGHT, "")
    before = listing(tmp_path)
    assert run_read_only(CLIENT, {"RUNTIME_MOCK_CACHE_DIR": str(tmp_path)}, tmp_path) == (RIGHT, "")
    assert listing(tmp_path) == before


def test_cold_read_only_cache_names_the_directory_and_variable(tmp_path):
    status, stderr = run_read_only(CLIENT, {"RUNTIME_MOCK_CACHE_DIR": str(tmp_path)}, tmp_path)
    assert status == ERROR, stderr
    assert f"KernelBuildError: build cache directory '{tmp_path / 'host'}' cannot be created" in stderr
    assert "set RUNTIME_MOCK_CACHE_DIR to a writable directory" in stderr


def test_cache_path_that_is_a_file_names_the_directory_and_variable(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    cache.write_text("a file")
    monkeypatch.setenv("RUNTIME_MOCK_CACHE_DIR", str(cache))
    with pytest.raises(runtime_mock.KernelBuildError, match=f"'{cache}' is a file.*RUNTIME_MOCK_CACHE_DIR"):
        runtime_mock.build_host_program(
            [HERE / "kernels" / "copy_host.cpp"], defines={"COPY_ELEMENTS": "4096"}
        )
    program = runtime_mock.Program()
    program.add_kernel(HERE / "kernels" / "dram_copy.cpp", (0, 0), "riscv_0", compile_args=[2, 2])
    with pytest.raises(runtime_mock.KernelBuildError, match=f"'{cache}' is a file.*RUNTIME_MOCK_CACHE_DIR"):
        runtime_mock.Device().run(program)


def test_twenty_processes_share_one_cold_cache(tmp_path):
    results = run_clients_at_once(CLIENT, {"RUNTIME_MOCK_CACHE_DIR": str(tmp_path)}, 20)
    failed = [r for r in results if r != (RIGHT, "")]
    assert not failed, f"{len(failed)} of 20 processes sharing a cold cache failed: {failed[:3]}"
