"""Every environment knob and file location the tt_mock package uses, in one place.

- ``TT_METAL_MOCK_SHIM_INCLUDE``: metal_shim/include (kernels and host programs compile against it).
  When unset, the package sets it to the copy it bundles (an installed wheel) or the one next to its own
  sources (the source tree or Bazel runfiles).
- ``TT_METAL_MOCK_CACHE_DIR``: kernel build cache of the device (default ``~/.cache/tilelang_tt/kernels``);
  host programs built by :func:`tt_mock.build_host_program` are cached in its ``host`` subdirectory.
- ``TT_METAL_MOCK_CXX``: the C++ compiler (default ``g++``).
- ``TT_METAL_MOCK_ARCH``: default arch of new devices (read by the runtime).
"""

from __future__ import annotations

import os
from pathlib import Path

# An installed wheel (//:wheel) bundles metal_shim/include under this package directory, at its path in
# the tree.
BUNDLED_TREE = "headers"


def _workspace() -> Path:
    """The tree holding metal_shim/include: the copy bundled in this package when it
    is installed from the wheel, else the tree this file is in (runfiles or source:
    runtime_mock/python/tt_mock/config.py -> root).

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


def shim_include_dir() -> Path:
    """metal_shim/include: the SDK-compatible headers."""
    configured = os.environ.get("TT_METAL_MOCK_SHIM_INCLUDE")
    return Path(configured) if configured else _WORKSPACE / "metal_shim" / "include"


CACHE_DIR_VARIABLE = "TT_METAL_MOCK_CACHE_DIR"


def cache_dir() -> Path:
    configured = os.environ.get(CACHE_DIR_VARIABLE)
    if configured:
        return Path(configured)
    return Path.home() / ".cache" / "tilelang_tt" / "kernels"


def host_cache_dir() -> Path:
    return cache_dir() / "host"


def compiler() -> str:
    return os.environ.get("TT_METAL_MOCK_CXX", "g++")


def export_shim_include() -> None:
    """Sets TT_METAL_MOCK_SHIM_INCLUDE for the runtime's kernel JIT, unless the user did."""
    if not os.environ.get("TT_METAL_MOCK_SHIM_INCLUDE"):
        include = shim_include_dir()
        if not (include / "tt-metalium" / "host_api.hpp").is_file():
            raise RuntimeError(
                f"tt_mock: metal_shim headers not found at {include}; set TT_METAL_MOCK_SHIM_INCLUDE"
            )
        os.environ["TT_METAL_MOCK_SHIM_INCLUDE"] = str(include)
