"""The package's version, and the TT-Metalium SDK release whose API generated code and metal_shim follow.

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

# The released tt-metal that generated kernels target and metal_shim follows: its one home is the tree's
# SDK_RELEASE file (the ttnn wheel on PyPI of that version carries it; tools/sdk_check pins the wheel). To
# move to the next release, see the README's "Hardware mode".
METALIUM_SDK_REPOSITORY = "tenstorrent/tt-metal"


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
with open(config.tree_file("SDK_RELEASE")) as _release:
    METALIUM_SDK_RELEASE = _release.read().strip()


def describe() -> str:
    """One line: the version and the SDK release the code targets (``python -m tilelang_tt --version``)."""
    return f"tilelang_tt {__version__} (TT-Metalium API of {METALIUM_SDK_REPOSITORY} {METALIUM_SDK_RELEASE})"
