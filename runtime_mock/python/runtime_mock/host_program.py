"""SDK-style host programs on the mock device: build one into a shared object, then run it.

A host program is ordinary TT-Metalium host C++ (mesh or single-device API). It is compiled against
metal_shim's headers (declarations, as in the SDK) and leaves the host API's and the runtime's symbols to
be resolved from the loaded ``runtime_mock._runtime_mock``, which holds their definitions.

Example::

    so = runtime_mock.build_host_program(["main.cpp"], include_dirs=["common"], defines={"N": "4"})
    program = runtime_mock.HostProgram(so)
    status = program.main(["--seed", "3"])          # the program's main(argc, argv)
    program.run("kernels/", [a, b, c])              # tilelang_tt_run(kernel_dir, tensors, n, sizes, m)
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import numpy as np

from . import _runtime_mock, cache_entry, config, host_flags


def code_flags(std: str = host_flags.PRECOMPILED_STD) -> list[str]:
    """The flags a host program's object is compiled with as ``std`` (no sources, outputs or includes): the
    code-generation flags, and the build's precompiled header when there is one for that standard."""
    flags = host_flags.compile_flags(std)
    precompiled = config.host_precompiled_header()
    if precompiled is not None and std == host_flags.PRECOMPILED_STD:
        flags += ["-include", str(precompiled)]
    return flags


def _compile_command(
    sources: Sequence[Path], include_dirs: Sequence[Path], defines: Mapping[str, str], std: str
) -> list[str]:
    command = [config.compiler(), *code_flags(std), "-shared"]
    command += [f"-I{d}" for d in include_dirs]
    command += [f"-I{d}" for d in config.include_dirs()]
    command += [f"-D{name}={value}" for name, value in defines.items()]
    # {fmt} is linked (libfmt-dev's libfmt.so) rather than compiled into every program: half the build time.
    return command + [str(s) for s in sources] + ["-lfmt"]


def _dependency_hash(command: list[str]) -> str:
    """Hash of the command and of every file the sources include."""
    listing = subprocess.run(
        [
            *command[:1],
            *[a for a in command[1:] if a not in ("-shared", "-lfmt") and not a.startswith("-O")],
            "-M",
        ],
        capture_output=True,
        text=True,
    )
    if listing.returncode != 0:
        raise RuntimeError(f"host program does not compile:\n{listing.stderr}")
    files = sorted({f for f in listing.stdout.replace("\\\n", " ").split() if not f.endswith(":")})
    digest = hashlib.sha256("\0".join(command).encode())
    for name in files:
        digest.update(name.encode())
        digest.update(Path(name).read_bytes())
    return digest.hexdigest()[:24]


def build_host_program(
    sources: Iterable[str | Path],
    include_dirs: Iterable[str | Path] = (),
    defines: Mapping[str, str] | None = None,
    out: str | Path | None = None,
    std: str = "c++20",
) -> Path:
    """Compiles host program sources into a shared object and returns its path.

    Without `out`, the object is cached under the host cache dir, keyed by the sources, everything they
    include and the flags (see runtime_mock.config), and verified before it is reused: a damaged cached
    object is rebuilt (see runtime_mock.cache_entry). An unusable cache directory raises KernelBuildError
    naming it and RUNTIME_MOCK_CACHE_DIR. `std` defaults to C++20, as the SDK builds its examples.
    """
    source_paths = [Path(s).resolve() for s in sources]
    for source in source_paths:
        if not source.is_file():
            raise FileNotFoundError(f"host program source {source} not found")
    command = _compile_command(source_paths, [Path(d).resolve() for d in include_dirs], defines or {}, std)
    if out is not None:
        target = Path(out).resolve()
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(_compile(command, target.parent), target)
        return target
    target = config.host_cache_dir() / f"{source_paths[0].stem}-{_dependency_hash(command)}.so"
    if cache_entry.intact(target):
        return target
    with cache_entry.build_lock(target, config.CACHE_DIR_VARIABLE, _runtime_mock.KernelBuildError):
        if not cache_entry.intact(target):  # else another process built it while this one waited
            cache_entry.publish(_compile(command, target.parent), target)
    return target


def _compile(command: list[str], directory: Path) -> Path:
    """Runs `command` with its output in a new temporary file in `directory`; returns that file."""
    with tempfile.NamedTemporaryFile(dir=directory, suffix=".so.tmp", delete=False) as partial:
        partial_path = Path(partial.name)
    result = subprocess.run([*command, "-o", str(partial_path)], capture_output=True, text=True)
    if result.returncode != 0:
        partial_path.unlink(missing_ok=True)
        raise RuntimeError(f"host program does not compile:\n{' '.join(command)}\n{result.stderr}")
    return partial_path


class HostProgram:
    """A built host program, loaded into this process (it stays loaded until the process ends)."""

    def __init__(self, so_path: str | Path) -> None:
        """Loads the object; one from a build cache that does not load is invalidated there (the next
        build_host_program rebuilds it) and raises KernelBuildError."""
        self.path = Path(so_path).resolve()
        try:
            self._library = _runtime_mock.HostLibrary(str(self.path))
        except RuntimeError as err:
            if not cache_entry.intact(self.path):
                raise
            cache_entry.invalidate(self.path)
            raise _runtime_mock.KernelBuildError(
                f"{err}; the cached object is marked for rebuilding, build it again"
            ) from err

    def main(self, argv: Sequence[str] = ()) -> int:
        """Calls the program's main with argv (argv[0] is the library path); returns its exit status.

        An exception escaping main is raised here (DeviceError and subclasses, else RuntimeError).
        """
        sys.stdout.flush()
        sys.stderr.flush()
        return self._library.main([str(a) for a in argv])

    def run(
        self,
        kernel_dir: str | Path,
        tensors: Sequence[np.ndarray],
        arch: str | None = None,
        sizes: Sequence[int] = (),
    ) -> None:
        """Calls tilelang_tt_run(kernel_dir, tensors, n, sizes, num_sizes); the arrays must be C-contiguous
        and writable, ``sizes`` are the problem's sizes as the program defines them (uint32 each).

        ``arch`` ("wormhole" / "blackhole") is the arch of the devices the program creates, for this call
        and this thread only (default: the process's default arch)."""
        for i, tensor in enumerate(tensors):
            if not (tensor.flags.c_contiguous and tensor.flags.writeable):
                raise ValueError(f"tensor {i} must be a C-contiguous, writable numpy array")
        sys.stdout.flush()
        sys.stderr.flush()
        chosen = None if arch is None else _runtime_mock.parse_arch(arch)
        self._library.run(str(Path(kernel_dir).resolve()), list(tensors), [int(v) for v in sizes], chosen)
