"""The device's build caches heal themselves (see tt_mock.cache_entry and runtime_mock/src/cache_entry.hpp).

Damaged kernel and host objects are rebuilt, a warm read-only cache is used without writing, an unusable
cache directory is a KernelBuildError naming it and TT_METAL_MOCK_CACHE_DIR, and 20 processes sharing one
cold cache all get the right answer. Every run that must find a damaged cache is a fresh process
(cache_client.py): a process never damages an object it has loaded.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import tt_mock
from tt_mock import cache_entry

HERE = Path(__file__).absolute().parent
CLIENT = HERE / "cache_client.py"
RIGHT, ERROR, WRITABLE = 0, 2, 3
NO_WRITE = stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH


def start_client(cache: Path, *args: str, prefix: tuple[str, ...] = ()) -> subprocess.Popen:
    env = dict(os.environ, TT_METAL_MOCK_CACHE_DIR=str(cache))
    return subprocess.Popen(
        [*prefix, sys.executable, str(CLIENT), *args], env=env, stderr=subprocess.PIPE, text=True
    )


def run_client(cache: Path, *args: str, prefix: tuple[str, ...] = ()) -> tuple[int, str]:
    client = start_client(cache, *args, prefix=prefix)
    _, stderr = client.communicate()
    return client.returncode, stderr


def objects(cache: Path) -> list[Path]:
    """The kernel object(s) and the host object in `cache`."""
    found = sorted(cache.glob("*.so")) + sorted((cache / "host").glob("*.so"))
    assert len(found) == 2, f"expected one kernel and one host object in {cache}, found {found}"
    return found


def without_permission_override() -> tuple[str, ...]:
    """A command prefix under which file permissions bind, also for root (which otherwise ignores them)."""
    if os.geteuid() != 0:
        return ()
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: write permission cannot be taken away")
    return (setpriv, "--bounding-set=-dac_override,-dac_read_search,-fowner", "--")


def read_only(directory: Path, *args: str, cache: Path) -> tuple[int, str]:
    """Runs the client with `directory` (and its `host` subdirectory, if any) read-only."""
    directories = [d for d in (directory, directory / "host") if d.is_dir()]
    for d in directories:
        d.chmod(d.stat().st_mode & ~NO_WRITE)
    try:
        status, stderr = run_client(cache, "--read-only", str(directory), prefix=without_permission_override())
    finally:
        for d in directories:
            d.chmod(d.stat().st_mode | stat.S_IWUSR)
    if status == WRITABLE:
        pytest.skip(f"{directory} stays writable without write permission here (root without setpriv effect)")
    return status, stderr


def listing(cache: Path) -> dict[str, tuple[int, int]]:
    return {str(p.relative_to(cache)): (p.stat().st_size, p.stat().st_mtime_ns) for p in cache.rglob("*")}


def test_truncated_objects_are_rebuilt(tmp_path):
    assert run_client(tmp_path) == (RIGHT, "")
    sizes = {}
    for path in objects(tmp_path):
        sizes[path] = path.stat().st_size
        os.truncate(path, sizes[path] // 2)
    assert run_client(tmp_path) == (RIGHT, "")
    for path, size in sizes.items():
        assert path.stat().st_size == size, f"{path} was not rebuilt"
    assert cache_entry.intact(objects(tmp_path)[1])


def test_corrupted_objects_are_rebuilt(tmp_path):
    assert run_client(tmp_path) == (RIGHT, "")
    for path in objects(tmp_path):
        data = bytearray(path.read_bytes())
        middle = len(data) // 2
        data[middle : middle + 64] = bytes(b ^ 0xFF for b in data[middle : middle + 64])
        path.write_bytes(bytes(data))
    assert not cache_entry.intact(objects(tmp_path)[1])
    assert run_client(tmp_path) == (RIGHT, "")
    assert cache_entry.intact(objects(tmp_path)[1])


def test_host_object_that_does_not_load_is_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setenv("TT_METAL_MOCK_CACHE_DIR", str(tmp_path))
    build = lambda: tt_mock.build_host_program(  # noqa: E731
        [HERE / "kernels" / "copy_host.cpp"], defines={"COPY_ELEMENTS": "4096"}
    )
    so = build()
    so.write_bytes(b"not an ELF object")
    so.with_name(so.name + ".manifest").write_text(cache_entry.manifest_of(so))
    assert cache_entry.intact(so)
    with pytest.raises(tt_mock.KernelBuildError, match=r"cannot load host program .* marked for rebuilding"):
        tt_mock.HostProgram(so)
    assert build() == so
    source = np.arange(4096, dtype=np.uint16)
    result = np.zeros_like(source)
    tt_mock.HostProgram(so).run(HERE / "kernels", [source, result])
    np.testing.assert_array_equal(result, source)


def test_warm_read_only_cache_is_used_without_writing(tmp_path):
    assert run_client(tmp_path) == (RIGHT, "")
    before = listing(tmp_path)
    assert read_only(tmp_path, cache=tmp_path) == (RIGHT, "")
    assert listing(tmp_path) == before


def test_cold_read_only_cache_names_the_directory_and_variable(tmp_path):
    status, stderr = read_only(tmp_path, cache=tmp_path)
    assert status == ERROR, stderr
    assert f"KernelBuildError: build cache directory '{tmp_path / 'host'}' cannot be created" in stderr
    assert "set TT_METAL_MOCK_CACHE_DIR to a writable directory" in stderr


def test_cache_path_that_is_a_file_names_the_directory_and_variable(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    cache.write_text("a file")
    monkeypatch.setenv("TT_METAL_MOCK_CACHE_DIR", str(cache))
    with pytest.raises(tt_mock.KernelBuildError, match=f"'{cache}' is a file.*TT_METAL_MOCK_CACHE_DIR"):
        tt_mock.build_host_program([HERE / "kernels" / "copy_host.cpp"], defines={"COPY_ELEMENTS": "4096"})
    program = tt_mock.Program()
    program.add_kernel(HERE / "kernels" / "dram_copy.cpp", (0, 0), "riscv_0", compile_args=[2, 2])
    with pytest.raises(tt_mock.KernelBuildError, match=f"'{cache}' is a file.*TT_METAL_MOCK_CACHE_DIR"):
        tt_mock.Device().run(program)


def test_twenty_processes_share_one_cold_cache(tmp_path):
    clients = [start_client(tmp_path) for _ in range(20)]
    results = [(client.wait(), client.stderr.read()) for client in clients]
    for client in clients:
        client.stderr.close()
    failed = [r for r in results if r != (RIGHT, "")]
    assert not failed, f"{len(failed)} of 20 processes sharing a cold cache failed: {failed[:3]}"
