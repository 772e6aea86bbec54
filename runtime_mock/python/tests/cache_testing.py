"""Shared by the build-cache tests of the device and the compiler: cache users run as separate processes,
read-only directories (also when the tests run as root), and ways to damage a cached object.

A client is a script that builds into the cache named by its environment, runs what it built and exits with
RIGHT, WRONG (ran, wrong answer) or ERROR (the package's error, printed to stderr); given ``--read-only DIR``
it exits WRITABLE first if it can still write in DIR.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

RIGHT, WRONG, ERROR, WRITABLE = 0, 1, 2, 3
_NO_WRITE = stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH


def writable(directory: str | Path) -> bool:
    """Whether this process can create a file in ``directory``."""
    try:
        with tempfile.TemporaryFile(dir=directory):
            return True
    except OSError:
        return False


def start_client(
    client: Path, env: Mapping[str, str], *args: str, prefix: Sequence[str] = ()
) -> subprocess.Popen:
    return subprocess.Popen(
        [*prefix, sys.executable, str(client), *args],
        env={**os.environ, **env},
        stderr=subprocess.PIPE,
        text=True,
    )


def run_client(
    client: Path, env: Mapping[str, str], *args: str, prefix: Sequence[str] = ()
) -> tuple[int, str]:
    """Runs the client to completion: (exit status, stderr)."""
    process = start_client(client, env, *args, prefix=prefix)
    _, stderr = process.communicate()
    return process.returncode, stderr


def run_clients_at_once(client: Path, env: Mapping[str, str], count: int) -> list[tuple[int, str]]:
    """Starts ``count`` clients together and returns each one's (exit status, stderr)."""
    processes = [start_client(client, env) for _ in range(count)]
    results = [process.communicate() for process in processes]
    return [(process.returncode, stderr) for process, (_, stderr) in zip(processes, results, strict=True)]


def _without_permission_override() -> tuple[str, ...]:
    """A command prefix under which file permissions bind, also for root (which otherwise ignores them)."""
    if os.geteuid() != 0:
        return ()
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: write permission cannot be taken away")
    return (setpriv, "--bounding-set=-dac_override,-dac_read_search,-fowner", "--")


def run_read_only(client: Path, env: Mapping[str, str], root: Path) -> tuple[int, str]:
    """Runs the client with ``root`` and every directory under it read-only; skips the test when this
    environment cannot take write permission away."""
    directories = [root, *(p for p in root.rglob("*") if p.is_dir())]
    for d in directories:
        d.chmod(d.stat().st_mode & ~_NO_WRITE)
    try:
        status, stderr = run_client(
            client, env, "--read-only", str(root), prefix=_without_permission_override()
        )
    finally:
        for d in directories:
            d.chmod(d.stat().st_mode | stat.S_IWUSR)
    if status == WRITABLE:
        pytest.skip(f"{root} stays writable without write permission in this environment")
    return status, stderr


def listing(root: Path) -> dict[str, tuple[int, int]]:
    """Every path under ``root`` with its size and modification time."""
    return {str(p.relative_to(root)): (p.stat().st_size, p.stat().st_mtime_ns) for p in root.rglob("*")}


def truncate_half(path: Path) -> int:
    """Cuts the file to half its size; returns the old size."""
    size = path.stat().st_size
    os.truncate(path, size // 2)
    return size


def flip_middle(path: Path, count: int = 64) -> None:
    """Inverts ``count`` bytes in the middle of the file, keeping its size."""
    data = bytearray(path.read_bytes())
    middle = len(data) // 2
    data[middle : middle + count] = bytes(b ^ 0xFF for b in data[middle : middle + count])
    path.write_bytes(bytes(data))
