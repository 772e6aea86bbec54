"""clang-format for generated C++ with the repository's style (the ``.clang-format`` at the root of the
tree, which ships with the package in Bazel's runfiles and inside the installed wheel). All sources of a
program are formatted by one clang-format process (split on marker comments) to keep codegen fast."""

from __future__ import annotations

import os
import shutil
import subprocess

from .. import config

STYLE_FILE = config.tree_file(".clang-format")
_MARKER = "// @@tilelang-tt-file@@ "


def clang_format_binary() -> str:
    """The clang-format executable: the pinned package's binary (no Python wrapper start-up), else PATH."""
    try:
        import clang_format

        binary = os.path.join(os.path.dirname(clang_format.__file__), "data", "bin", "clang-format")
        if os.path.exists(binary):
            return binary
    except ImportError:
        pass
    binary = shutil.which("clang-format")
    if binary is None:
        raise RuntimeError("clang-format not found: install the pinned requirements (requirements.txt)")
    return binary


def format_sources(sources: dict[str, str]) -> dict[str, str]:
    """name → source formatted with the repository's style."""
    binary = clang_format_binary()
    joined = "".join(f"{_MARKER}{name}\n{text}" for name, text in sources.items())
    result = subprocess.run(
        [binary, f"--style=file:{STYLE_FILE}", "--assume-filename=kernel.cpp"],
        input=joined,
        capture_output=True,
        text=True,
        check=True,
    )
    out, name = {}, None
    for line in result.stdout.splitlines(keepends=True):
        if line.startswith(_MARKER):
            name = line[len(_MARKER) :].strip()
            out[name] = ""
        else:
            out[name] += line
    return out
