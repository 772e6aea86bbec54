"""The public names of upstream TileLang's ``tilelang.language``, read from a checkout without importing it.

    bazel run //tools:tilelang_names -- /path/to/tilelang > compiler/tilelang_tt/upstream_language_names.txt

``import tilelang.language as T`` is the CUDA dialect: the backend-neutral surface
(``tilelang/language/common.py``) plus CUDA extensions (``tilelang/cuda/language``). Both build their
``__all__`` from string tuples, frozensets and the ``__all__`` of the modules they star-import; this
script evaluates exactly those expressions (string literals, ``|``, ``+``, ``list``/``tuple``/``sorted``/
``frozenset``/``dict.fromkeys``, names imported from sibling modules) with ``ast``, so it needs neither
TileLang's compiled library nor its TVM. The names TileLang re-exports from TVMScript's ``tirx`` parser
(``T.float32``, ``T.if_then_else``, ...) are not listed: they are TVM's, and our pinned TVM provides them.

Output: one name per line, sorted, after a header naming the commit (``git -C CHECKOUT rev-parse HEAD``).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

# The modules whose ``__all__`` make up ``tilelang.language`` (the CUDA dialect), TVMScript's parser aside.
SURFACE_MODULES = (
    "tilelang/language/common.py",
    "tilelang/cuda/language/__init__.py",
)
# What ``common.py`` star-imports from TVMScript: TVM's names, not TileLang's.
TVM_PARSER_MODULES = ("tilelang/language/tir/common.py",)


class ModuleNames:
    """Static evaluation of the string-collection constants of the modules of one checkout."""

    def __init__(self, root: Path):
        self.root = root
        self.cache: dict[Path, dict[str, object]] = {}

    def constants(self, path: Path) -> dict[str, object]:
        """Top-level names of ``path`` whose values are strings or string collections."""
        if path not in self.cache:
            self.cache[path] = {}
            tree = ast.parse(path.read_text(), filename=str(path))
            for node in tree.body:
                self._bind(path, node)
        return self.cache[path]

    def module_path(self, path: Path, module: str | None, level: int) -> Path | None:
        """The file of ``from <module> import ...`` seen from ``path``."""
        base = path.parent if level else self.root
        for _ in range(max(level - 1, 0)):
            base = base.parent
        parts = (module or "").split(".") if module else []
        target = base.joinpath(*parts)
        for candidate in (target.with_suffix(".py"), target / "__init__.py"):
            if candidate.is_file():
                return candidate
        return None

    def _bind(self, path: Path, node: ast.stmt) -> None:
        names = self.cache[path]
        if isinstance(node, ast.ImportFrom):
            source = self.module_path(path, node.module, node.level)
            if source is None:
                return
            for alias in node.names:
                if alias.name == "*":
                    continue
                value = self.constants(source).get(alias.name)
                if value is not None:
                    names[alias.asname or alias.name] = value
        elif (
            isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
        ):
            value = self._evaluate(path, node.value)
            if value is not None:
                names[node.targets[0].id] = value

    def _evaluate(self, path: Path, node: ast.expr):
        """A string, a tuple of strings, or None when ``node`` is not a string-collection expression."""
        names = self.cache[path]
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            items = []
            for element in node.elts:
                if isinstance(element, ast.Starred):
                    inner = self._evaluate(path, element.value)
                    if inner is None:
                        return None
                    items.extend(inner)
                else:
                    inner = self._evaluate(path, element)
                    if not isinstance(inner, str):
                        return None
                    items.append(inner)
            return tuple(items)
        if isinstance(node, ast.Name):
            return names.get(node.id)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr | ast.Add):
            left, right = self._evaluate(path, node.left), self._evaluate(path, node.right)
            if isinstance(left, tuple) and isinstance(right, tuple):
                return left + tuple(n for n in right if n not in left)
            return None
        if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords:
            function = ast.unparse(node.func)
            if function in ("tuple", "list", "sorted", "frozenset", "set", "dict.fromkeys"):
                return self._evaluate(path, node.args[0])
        return None  # e.g. the filtered generator of tir/common.py: TVM's names, see TVM_PARSER_MODULES

    def exported(self, path: Path) -> tuple[str, ...]:
        """``__all__`` of ``path``, following the modules it star-imports when it spells them out."""
        value = self.constants(path).get("__all__")
        if value is None:
            raise SystemExit(f"{path}: cannot evaluate __all__ statically")
        return value


def upstream_names(root: Path) -> list[str]:
    """Every TileLang-owned public name of ``tilelang.language`` at the checkout ``root``."""
    reader = ModuleNames(root)
    names: set[str] = set()
    for relative in SURFACE_MODULES:
        path = root / relative
        tree = ast.parse(path.read_text())
        for node in tree.body:  # the ``__all__`` of each star-imported module counts as exported
            if isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names):
                source = reader.module_path(path, node.module, node.level)
                covered = TVM_PARSER_MODULES + SURFACE_MODULES  # TVM's, or read in its own right
                if source is not None and str(source.relative_to(root)) not in covered:
                    names.update(reader.exported(source))
        names.update(reader.constants(path).get("_LOCAL_EXPORTS", ()))
        names.update(reader.constants(path).get("_CUDA_API_ALL", ()))
    return sorted(names)


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    root = Path(argv[1]).resolve()
    commit = subprocess.run(
        ["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
    print(f"# tilelang.language public names at tile-ai/tilelang {commit or 'unknown commit'}")
    print("# (TileLang's own; the TVMScript tirx names it re-exports are TVM's). Regenerate with")
    print("# bazel run //tools:tilelang_names -- CHECKOUT > compiler/tilelang_tt/upstream_language_names.txt")
    for name in upstream_names(root):
        print(name)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
