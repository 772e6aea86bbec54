"""Entries of an on-disk build cache (host programs here, and the compiler's host objects), which heal.

An entry is an object ``<name>`` plus a sidecar manifest ``<name>.manifest`` recording the object's size and
SHA-256 (``{"size": ..., "sha256": ...}``). Objects and manifests are written to unique temporary names and
renamed into place, the manifest only after its object, so an entry is *intact* only when a whole object
matching its manifest is there. A truncated, corrupted or manifest-less object is not intact: the caller
rebuilds it instead of loading it (dlopen of a truncated object ends the process with SIGBUS).

Verification cost: the first check of a file (path, size, mtime, inode) in a process hashes it; later
checks of the unchanged file cost one ``stat``. Builders of one entry serialise on ``<name>.lock``
(``flock``), so processes sharing a cold cache build each object once; readers of a warm cache take no
lock and write nothing, so a read-only warm cache works.

Example::

    if not cache_entry.intact(target):
        with cache_entry.build_lock(target, "RUNTIME_MOCK_CACHE_DIR", KernelBuildError):
            if not cache_entry.intact(target):
                cache_entry.publish(build_into_a_temporary_file(), target)
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

_verified: dict[Path, tuple[int, int, int, int]] = {}
_verified_lock = threading.Lock()


def _manifest_path(path: Path) -> Path:
    return path.with_name(path.name + ".manifest")


def stamp(path: Path) -> tuple[int, int, int, int] | None:
    """(size, mtime, inode, device) of the file at ``path``, None when it cannot be read: a file whose stamp
    is unchanged since it was checked holds what it held then."""
    try:
        info = path.stat()
    except OSError:
        return None
    return info.st_size, info.st_mtime_ns, info.st_ino, info.st_dev


def manifest_of(path: Path) -> str:
    """The manifest text of the object at ``path`` as it is now on disk."""
    data = path.read_bytes()
    return json.dumps({"size": len(data), "sha256": hashlib.sha256(data).hexdigest()})


def intact(path: Path) -> bool:
    """True when the object at ``path`` and its manifest are there and its size and SHA-256 match."""
    now = stamp(path)
    if now is None:
        return False
    with _verified_lock:
        if _verified.get(path) == now:
            return True
    try:
        expected = _manifest_path(path).read_text()
        matches = manifest_of(path) == expected
    except OSError:
        return False
    if not matches or stamp(path) != now:  # damaged, or replaced while it was read
        return False
    with _verified_lock:
        _verified[path] = now
    return True


def write_atomically(path: Path, data: bytes) -> None:
    """Writes ``data`` to ``path`` through a temporary file in the same directory and a rename."""
    with tempfile.NamedTemporaryFile(dir=path.parent, prefix=path.name, suffix=".tmp", delete=False) as tmp:
        tmp.write(data)
    os.replace(tmp.name, path)


def publish(built: Path, path: Path) -> None:
    """Moves the finished object ``built`` to ``path``, then writes its manifest: the entry becomes intact."""
    manifest = manifest_of(built)
    os.replace(built, path)
    write_atomically(_manifest_path(path), manifest.encode())


def invalidate(path: Path) -> None:
    """Marks the entry at ``path`` for rebuilding (removes its manifest), e.g. when it failed to load."""
    with _verified_lock:
        _verified.pop(path, None)
    _manifest_path(path).unlink(missing_ok=True)


def writable_directory(directory: Path, variable: str, error: type[Exception]) -> Path:
    """Creates ``directory`` if needed and checks that files can be created in it; raises ``error`` naming
    the directory and ``variable`` (the environment variable that chooses it) when they cannot."""
    for existing in (directory, *directory.parents):
        if existing.exists():
            if not existing.is_dir():
                raise error(_directory_problem(existing, "is a file, not a directory", variable))
            break
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise error(_directory_problem(directory, f"cannot be created ({err.strerror})", variable)) from err
    try:
        with tempfile.TemporaryFile(dir=directory):
            pass
    except OSError as err:
        raise error(_directory_problem(directory, f"is not writable ({err.strerror})", variable)) from err
    return directory


@contextlib.contextmanager
def build_lock(path: Path, variable: str, error: type[Exception]) -> Iterator[None]:
    """Holds the exclusive build lock of the entry at ``path``; raises ``error`` naming the directory and
    ``variable`` when it is unusable (see writable_directory)."""
    writable_directory(path.parent, variable, error)
    with open(path.with_name(path.name + ".lock"), "a") as lock:
        with contextlib.suppress(OSError):  # no flock here (ENOLCK): builders still rename whole objects
            fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def _directory_problem(directory: Path, problem: str, variable: str) -> str:
    return f"build cache directory '{directory}' {problem}; set {variable} to a writable directory"
