"""Every environment knob and file location the runtime_mock package uses, in one place.

- ``RUNTIME_MOCK_SHIM_INCLUDE``: metal_shim/include, the SDK's headers, and
  ``RUNTIME_MOCK_KERNEL_ABI_INCLUDE``: runtime_mock/include, which holds the simulator's kernel ABI they
  forward to (``runtime_mock/kernel_abi/*.h``)
  (kernels and host programs compile against both). When unset, the package sets each to the copy it
  bundles (an installed wheel) or the one next to its own sources (the source tree or Bazel runfiles).
- ``RUNTIME_MOCK_CACHE_DIR``: kernel build cache of the device (default ``~/.cache/tilelang_tt/kernels``);
  host programs built by :func:`runtime_mock.build_host_program` are cached in its ``host`` subdirectory.
- ``RUNTIME_MOCK_CXX``: the C++ compiler (default ``g++``).
- ``RUNTIME_MOCK_KERNEL_PCH``: a header every kernel force-includes first when its ``.gch`` lies beside it;
  when unset, the package sets it to ``runtime_mock/pch/kernel_std.hpp`` if the build precompiled that
  (Bazel's runfiles of tests and tools; not the wheel).
- ``RUNTIME_MOCK_ARCH``: default arch of new devices (read by the runtime).
- ``RUNTIME_MOCK_SCHEDULE_SEED``: the seed of a run's interleaving (read by the runtime at every run;
  ``schedules.py`` sets it for a block).
"""

from __future__ import annotations

import os
from pathlib import Path

# An installed wheel (//:wheel) bundles metal_shim/include and the kernel ABI under this package
# directory, at their paths in the tree.
BUNDLED_TREE = "headers"


def _workspace() -> Path:
    """The tree holding metal_shim/include and runtime_mock/include: the copy bundled in this package
    when it is installed from the wheel, else the tree this file is in (runfiles or source:
    runtime_mock/python/runtime_mock/config.py -> root).

    Symlinks are followed only if the unresolved tree lacks the headers (a package dir of symlinks).
    """
    here = Path(__file__)
    for root in (
        here.absolute().parent / BUNDLED_TREE,
        here.absolute().parents[3],
        here.resolve().parents[3],
    ):
        if (root / "metal_shim" / "include").is_dir():
            return root
    return here.absolute().parents[3]


_WORKSPACE = _workspace()


# The kernels' include roots: (variable, its path in the tree, a file that must be there).
INCLUDE_ROOTS = (
    ("RUNTIME_MOCK_SHIM_INCLUDE", Path("metal_shim/include"), Path("tt-metalium/host_api.hpp")),
    (
        "RUNTIME_MOCK_KERNEL_ABI_INCLUDE",
        Path("runtime_mock/include"),
        Path("runtime_mock/kernel_abi/kernel_context.h"),
    ),
)


def _include_root(variable: str, tree_path: Path) -> Path:
    configured = os.environ.get(variable)
    return Path(configured) if configured else _WORKSPACE / tree_path


def shim_include_dir() -> Path:
    """metal_shim/include: the SDK-compatible headers."""
    return _include_root(*INCLUDE_ROOTS[0][:2])


def kernel_abi_include_dir() -> Path:
    """runtime_mock/include: the root of the simulator's kernel ABI, which the shim's headers include."""
    return _include_root(*INCLUDE_ROOTS[1][:2])


def include_dirs() -> list[Path]:
    """The include roots of kernels and host programs, in order: the shim's, then the kernel ABI's."""
    return [_include_root(variable, tree_path) for variable, tree_path, _ in INCLUDE_ROOTS]


CACHE_DIR_VARIABLE = "RUNTIME_MOCK_CACHE_DIR"


def cache_dir() -> Path:
    configured = os.environ.get(CACHE_DIR_VARIABLE)
    if configured:
        return Path(configured)
    return Path.home() / ".cache" / "tilelang_tt" / "kernels"


def host_cache_dir() -> Path:
    return cache_dir() / "host"


def compiler() -> str:
    return os.environ.get("RUNTIME_MOCK_CXX", "g++")


def _precompiled(tree_path: Path) -> Path | None:
    """The header at ``tree_path`` if the build precompiled it (its .gch beside it), else None."""
    header = _WORKSPACE / tree_path
    return header if header.with_name(header.name + ".gch").is_file() else None


def host_precompiled_header() -> Path | None:
    """The header host programs force-include when the build precompiled it (runtime_mock.host_flags)."""
    from .host_flags import PRECOMPILED_HEADER

    return _precompiled(PRECOMPILED_HEADER)


KERNEL_PCH_VARIABLE = "RUNTIME_MOCK_KERNEL_PCH"

# The kernels' precompiled standard headers (the JIT's flags: runtime_mock/src/kernel_build_flags.hpp).
KERNEL_PRECOMPILED_HEADER = Path("runtime_mock/pch/kernel_std.hpp")


# The simulator's variables were TT_METAL_MOCK_* until it took one name (runtime_mock) throughout.
FORMER_PREFIX, PREFIX = "TT_METAL_MOCK_", "RUNTIME_MOCK_"


def warn_of_former_variables() -> None:
    """A warning for each variable still set under the former prefix, which nothing reads any more: a
    renamed setting must not be dropped without a word."""
    import warnings

    for variable in sorted(v for v in os.environ if v.startswith(FORMER_PREFIX)):
        renamed = PREFIX + variable[len(FORMER_PREFIX) :]
        warnings.warn(
            f"{variable} is no longer read: the simulator's variables are {PREFIX}*; set {renamed}",
            stacklevel=3,
        )


def export_include_dirs() -> None:
    """Sets RUNTIME_MOCK_SHIM_INCLUDE and RUNTIME_MOCK_KERNEL_ABI_INCLUDE for the runtime's kernel JIT, and
    RUNTIME_MOCK_KERNEL_PCH when the build precompiled the kernels' header, each unless the user did."""
    kernel_header = _precompiled(KERNEL_PRECOMPILED_HEADER)
    if kernel_header is not None:
        os.environ.setdefault(KERNEL_PCH_VARIABLE, str(kernel_header))
    for variable, tree_path, marker in INCLUDE_ROOTS:
        if os.environ.get(variable):
            continue
        include = _include_root(variable, tree_path)
        if not (include / marker).is_file():
            raise RuntimeError(f"runtime_mock: {tree_path} not found at {include}; set {variable}")
        os.environ[variable] = str(include)
