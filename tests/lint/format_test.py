"""Every C++ and Python source of the repository is formatted (clang-format, ruff) and ruff-clean.

The sources come in as runfiles (see BUILD.bazel); the tools are the pinned ones of the venv.
To fix: `clang-format -i FILE` and `ruff format FILE && ruff check --fix FILE` (from the venv's bin/).
"""

import subprocess
import sys
from pathlib import Path

import pytest

CXX_SUFFIXES = {".h", ".hpp", ".cc", ".cpp"}
VENV_BIN = Path(sys.executable).parent
RUFF_CONFIG = Path("ruff.toml").resolve()


def sources(suffixes: set[str]) -> list[Path]:
    root = Path(".")
    files = [p for p in root.rglob("*") if p.suffix in suffixes and p.is_file()]
    return sorted(p for p in files if "external" not in p.parts and not p.name.startswith("_"))


def run(tool: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(VENV_BIN / tool), *args], capture_output=True, text=True)


def test_cxx_sources_are_clang_formatted():
    files = sources(CXX_SUFFIXES)
    assert files, "no C++ sources reached the lint test: check its data"
    style = f"--style=file:{Path('.clang-format').resolve()}"
    result = run("clang-format", style, "--dry-run", "--Werror", *map(str, files))
    assert result.returncode == 0, "C++ sources need clang-format -i:\n" + result.stderr[:6000]


@pytest.mark.parametrize("check", [("format", "--check", "--diff"), ("check",)])
def test_python_sources_pass_ruff(check):
    files = sources({".py"})
    assert files, "no Python sources reached the lint test: check its data"
    result = run("ruff", *check, "--config", str(RUFF_CONFIG), "--no-cache", *map(str, files))
    assert result.returncode == 0, f"ruff {check[0]} failed:\n{result.stdout[:6000]}{result.stderr[:2000]}"
