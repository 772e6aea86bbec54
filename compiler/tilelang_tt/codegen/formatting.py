"""The repository's C++ style (the ``.clang-format`` at the root of the tree, which ships with the package
in Bazel's runfiles and inside the installed wheel) for generated sources, without a clang-format process
on the hot path.

The renderers emit code already in that style: 4-space indentation, comments wrapped at the column limit
(``wrap_comment``), and no statement longer than the limit (they bind long expressions to named
temporaries). ``format_sources`` is the safety net: only a source that still has a line longer than the
limit goes through one clang-format process. Tests run clang-format over the artifacts of every kind of
program and check that it leaves them unchanged (compiler/tests/codegen/test_formatting.py).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess

from .. import config

STYLE_FILE = config.tree_file(".clang-format")
INDENT = "    "
_MARKER = "// @@tilelang-tt-file@@ "


def _column_limit() -> int:
    """``ColumnLimit`` of the style file (its one home)."""
    with open(STYLE_FILE) as f:
        match = re.search(r"^ColumnLimit:\s*(\d+)", f.read(), re.MULTILINE)
    if match is None:
        raise RuntimeError(f"{STYLE_FILE} sets no ColumnLimit")
    return int(match.group(1))


COLUMN_LIMIT = _column_limit()


def wrap_comment(text: str, indent: str = "") -> list[str]:
    """``// text`` at ``indent`` as lines of at most COLUMN_LIMIT columns, broken at the last space that
    fits, as clang-format reflows a long comment."""
    prefix = f"{indent}// "
    lines, rest = [], text
    while len(prefix) + len(rest) > COLUMN_LIMIT:
        cut = rest.rfind(" ", 0, COLUMN_LIMIT - len(prefix) + 1)
        if cut <= 0:
            break
        lines.append(prefix + rest[:cut].rstrip())
        rest = rest[cut + 1 :].lstrip()
    return lines + [(prefix + rest).rstrip()]


def packed_call(head: str, args: list[str], tail: str, indent: str = "") -> list[str]:
    """``head(args)tail`` at ``indent`` as clang-format breaks a call or declaration that does not fit on
    one line: the arguments packed greedily, continuation lines aligned after the parenthesis. The lines
    come without ``indent`` (the renderer adds it)."""
    lines, current = [], f"{head}("
    pad = " " * len(current)
    for i, arg in enumerate(args):
        piece = arg + ("," if i + 1 < len(args) else tail)
        joined = current + ("" if current.endswith("(") else " ") + piece
        if len(indent + joined) > COLUMN_LIMIT and not current.endswith("("):
            lines.append(current)
            current = pad + piece
        else:
            current = joined
    return lines + [current]


def assigned_call(target: str, callee: str, args: list[str], indent: str = "") -> list[str]:
    """``target = callee(args);`` at ``indent`` as clang-format lays it out: on one line if it fits, else
    with the arguments packed (``packed_call``), breaking after the ``=`` unless that takes more lines."""
    beside = packed_call(f"{target} = {callee}", args, ");", indent)
    below = [f"{target} ="] + [INDENT + line for line in packed_call(callee, args, ");", indent + INDENT)]
    return below if len(below) <= len(beside) else beside


def annotated_list(head: str, items: list[tuple[str, str]], tail: str, indent: str = "") -> list[str]:
    """``head{item, ...}tail`` at ``indent``: on one line if it fits, else one ``item,  // note`` per line
    between ``head{`` and ``}tail`` (the trailing comments keep clang-format from packing the items into
    columns; they align two spaces after the longest item, as clang-format aligns them). The renderer
    indents the items one level, for the line ending in ``{``."""
    one_line = f"{head}{{{', '.join(item for item, _ in items)}}}{tail}"
    if len(indent + one_line) <= COLUMN_LIMIT:
        return [one_line]
    width = max(len(item) for item, _ in items) + 1
    return [f"{head}{{", *(f"{item + ',':<{width}}  // {note}" for item, note in items), f"}}{tail}"]


def too_long(text: str) -> bool:
    return any(len(line) > COLUMN_LIMIT for line in text.splitlines())


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


def clang_format(sources: dict[str, str]) -> dict[str, str]:
    """name → source formatted by clang-format with the repository's style (one process for all)."""
    if not sources:
        return {}
    joined = "".join(f"{_MARKER}{name}\n{text}" for name, text in sources.items())
    result = subprocess.run(
        [clang_format_binary(), f"--style=file:{STYLE_FILE}", "--assume-filename=kernel.cpp"],
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


def format_sources(sources: dict[str, str]) -> dict[str, str]:
    """name → source in the repository's style: rendered sources as they are, clang-format only for one
    with a line over the column limit (an expression the renderers could not shorten)."""
    return {**sources, **clang_format({n: t for n, t in sources.items() if too_long(t)})}
