"""A program checked the way upstream TileLang's examples are (torch_attention_check.py: torch tensors,
a torch reference, ``torch.testing``, ``@autotune``) runs as ``python file.py`` and through the CLI, whose
``--run`` check hands the torch reference its extra parameter (``is_causal``) from the factory's
arguments."""

import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAM = os.path.join(HERE, "torch_attention_check.py")
CLI = os.path.join(HERE, "..", "..", "tools", "compile.py")


def _run(*argv):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    result = subprocess.run([sys.executable, *argv], capture_output=True, text=True, env=env, check=False)
    assert result.returncode == 0, f"{' '.join(argv)} failed:\n{result.stdout}\n{result.stderr}"
    return result.stdout


@pytest.mark.parametrize("flags", [[], ["--is_causal"], ["--tune"]], ids=["plain", "causal", "tuned"])
def test_the_program_passes_its_own_torch_checks(flags):
    out = _run(PROGRAM, *flags)
    assert "All checks pass." in out, out
    if flags == ["--tune"]:
        assert "Best config: {'block_M'" in out, out


def test_the_cli_checks_it_against_its_torch_reference(tmp_path):
    args = ["--func", "flashattn", "--args", "1, 2, 256, 256, 64, True", "--run", "--out", str(tmp_path)]
    out = _run(CLI, PROGRAM, *args)
    assert "check: PASS" in out, out
