"""The Python that runs our tests is the build's virtualenv, with exactly the pinned packages."""

import importlib.metadata
import re
import sys
from pathlib import Path


def pinned_versions() -> dict[str, str]:
    lock = Path("requirements.txt").read_text()
    return {m[0].lower(): m[1] for m in re.findall(r"^([A-Za-z0-9_.-]+)==(\S+)", lock, re.M)}


def test_interpreter_is_a_virtualenv():
    assert sys.prefix != sys.base_prefix, f"tests run under {sys.executable}, not the build's venv"


def test_every_pinned_package_is_installed_at_its_pin():
    pins = pinned_versions()
    assert "apache-tvm" in pins and "numpy" in pins, "the lock file lost its main pins"
    wrong = {
        name: (version, importlib.metadata.version(name))
        for name, version in pins.items()
        if importlib.metadata.version(name) != version
    }
    assert not wrong, f"installed versions differ from requirements.txt (pinned, installed): {wrong}"


def test_tvm_is_the_pinned_release_with_tirx():
    import tvm
    from tvm import tirx

    assert tvm.__version__.startswith("0.27"), tvm.__version__
    assert hasattr(tirx, "PrimFunc")
