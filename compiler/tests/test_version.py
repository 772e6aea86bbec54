"""tilelang_tt.version: the version read from MODULE.bazel, and `python -m tilelang_tt --version`."""

import subprocess
import sys

import pytest
import tilelang_tt
from tilelang_tt import config
from tilelang_tt.version import METALIUM_SDK_RELEASE, describe, module_version


def test_the_version_is_module_bazels(tmp_path):
    module = tmp_path / "MODULE.bazel"
    module.write_text(
        '"""Doc."""\n\nmodule(\n    name = "x",\n    version = "1.2.3",\n)\n\n'
        'bazel_dep(name = "rules_cc", version = "0.0.9")\n'
    )
    assert module_version(str(module)) == "1.2.3"
    assert tilelang_tt.__version__ == module_version(config.tree_file("MODULE.bazel"))


def test_a_module_file_without_a_version_is_named(tmp_path):
    module = tmp_path / "MODULE.bazel"
    module.write_text('module(name = "x")\nbazel_dep(name = "rules_cc", version = "0.0.9")\n')
    with pytest.raises(RuntimeError, match=f"{module}: no module\\(version = ...\\) call"):
        module_version(str(module))


def test_cli_prints_the_version_and_the_sdk_commit():
    env_path = ":".join(p for p in sys.path if p)
    result = subprocess.run(
        [sys.executable, "-m", "tilelang_tt", "--version"],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": env_path, "PATH": "/usr/bin:/bin"},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == describe()
    assert tilelang_tt.__version__ in describe() and METALIUM_SDK_RELEASE in describe()
