"""The package's version, and the TT-Metalium SDK state whose API metal_shim follows.

The version's one home is the ``version`` of ``module(...)`` in the tree's MODULE.bazel. The wheel (//:wheel)
carries a copy of that file inside the package, so the same lookup serves the source tree, Bazel's runfiles
and an installed wheel, and the wheel's own metadata is read from the same file.

    >>> import tilelang_tt
    >>> tilelang_tt.__version__
    '0.1.0'
"""

from __future__ import annotations

import re

from . import config

# metal_shim implements the TT-Metalium API of tenstorrent/tt-metal `main` at this commit
# (2026-02-02, "Exabox CPU only Mock Tests (#36980)"): kernels and host programs written for that SDK
# compile unchanged against the shim.
METALIUM_SDK_REPOSITORY = "tenstorrent/tt-metal"
METALIUM_SDK_COMMIT = "9231910642"


def module_version(path: str) -> str:
    """The ``version`` given to ``module(...)`` in the MODULE.bazel file at ``path``."""
    with open(path) as f:
        text = f.read()
    call = re.search(r"^module\((.*?)\)", text, re.DOTALL | re.MULTILINE)
    version = call and re.search(r'\bversion\s*=\s*"([^"]+)"', call.group(1))
    if not version:
        raise RuntimeError(f"{path}: no module(version = ...) call to read the version from")
    return version.group(1)


__version__ = module_version(config.tree_file("MODULE.bazel"))


def describe() -> str:
    """One line: the version and the SDK commit the shim follows (``python -m tilelang_tt --version``)."""
    return (
        f"tilelang_tt {__version__} (TT-Metalium API of {METALIUM_SDK_REPOSITORY} at {METALIUM_SDK_COMMIT})"
    )
