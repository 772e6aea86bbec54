"""//:wheel installs into a fresh virtualenv and runs an example there, as a user would.

The virtualenv is made from the build's own interpreter without network access: it sees the build venv's
packages through a .pth file (what ``--system-site-packages`` would do if the build venv were a base
interpreter), and ``pip install --no-index`` must find every pinned dependency of the wheel there. The
example runs from a copy in a temporary directory with a clean environment (no PYTHONPATH, runfiles or
tilelang_tt/runtime_mock variables) and a fresh HOME, so the packages can only use what the wheel installed.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from tilelang_tt.version import describe

# Variables through which a process could find the source tree, the runfiles or a configured cache.
_TREE_VARIABLES = ("PYTHONPATH", "RUNFILES_DIR", "RUNFILES_MANIFEST_FILE", "TEST_SRCDIR", "TEST_TMPDIR")


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A virtualenv with the wheel installed; returns its directory."""
    (wheel,) = glob.glob(os.path.join(os.environ["TT_WHEEL_DIR"], "tilelang_tt-*.whl"))
    venv = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    (site_packages,) = glob.glob(str(venv / "lib" / "python*" / "site-packages"))
    Path(site_packages, "build_venv.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    pip = [
        sys.executable,
        "-m",
        "pip",
        "--python",
        str(venv / "bin" / "python"),
        "--disable-pip-version-check",
    ]
    result = subprocess.run(
        [*pip, "install", "--no-index", "--no-cache-dir", wheel], capture_output=True, text=True
    )
    assert result.returncode == 0, f"pip install {wheel} failed:\n{result.stdout}{result.stderr}"
    return venv


def _run(venv: Path, args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in _TREE_VARIABLES and not k.startswith("TT_")}
    env["HOME"] = str(cwd / "home")
    return subprocess.run(
        [str(venv / "bin" / "python"), *args], capture_output=True, text=True, cwd=cwd, env=env
    )


def test_packages_and_headers_come_from_the_wheel(installed, tmp_path):
    script = (
        "import tilelang_tt, runtime_mock; print(tilelang_tt.__file__, *runtime_mock.config.include_dirs())"
    )
    result = _run(installed, ["-c", script], tmp_path)
    assert result.returncode == 0, result.stderr
    for path in result.stdout.split():
        assert Path(path).is_relative_to(installed), f"{path} is not in the virtualenv {installed}"


def test_extension_needs_only_system_libraries(installed):
    (extension,) = glob.glob(
        str(installed / "lib" / "python*" / "site-packages" / "runtime_mock" / "_runtime_mock.so")
    )
    ldd = subprocess.run(["ldd", extension], capture_output=True, text=True, check=True).stdout
    assert "not found" not in ldd and "bazel" not in ldd, ldd


def test_version_names_the_release_and_the_sdk_commit(installed, tmp_path):
    result = _run(installed, ["-m", "tilelang_tt", "--version"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == describe()


def test_example_runs_and_checks_outside_the_tree(installed, tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    shutil.copy(os.environ["TT_EXAMPLE"], work / "gemm.py")
    runfiles = os.environ.get("RUNFILES_DIR") or os.environ["TEST_SRCDIR"]
    assert not work.resolve().is_relative_to(Path(runfiles).resolve())
    result = _run(installed, ["gemm.py"], work)
    assert result.returncode == 0 and "check: PASS" in result.stdout, result.stdout + result.stderr
    assert (work / "home" / ".cache" / "tilelang_tt").is_dir(), "the build cache is not in its default place"
