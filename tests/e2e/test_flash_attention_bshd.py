"""examples/flash_attention_bshd.py — TileLang's BSHD flash attention with its imports changed — on
(B, S, H, D) tensors whose tiles span the sequence with the head fixed (stored as (B, H, S, D) in DRAM):
B=1, H=2, S=512, D=64, causal and not, on both simulated archs, against the example's ref_program. The
non-causal Wormhole case runs the command the example's docstring gives (`//tools:compile -- ... --run`)."""

import importlib.util
import os
import subprocess
import sys

import pytest
import tilelang_tt as tilelang

EXAMPLE = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "flash_attention_bshd.py")
CLI = os.path.join(os.path.dirname(__file__), "..", "..", "tools", "compile.py")


@pytest.fixture(scope="module")
def example():
    spec = importlib.util.spec_from_file_location("flash_attention_bshd", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_docstring_command_compiles_runs_and_checks_the_example(example, tmp_path):
    assert "//tools:compile -- examples/flash_attention_bshd.py --run" in example.__doc__
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    result = subprocess.run(
        [sys.executable, CLI, os.path.abspath(EXAMPLE), "--run", "--out", str(tmp_path / "out")],
        capture_output=True,
        text=True,
        env=env,
    )
    assert result.returncode == 0 and "check: PASS" in result.stdout, result.stdout + result.stderr


@pytest.mark.parametrize("target, causal", [("wormhole", True), ("blackhole", False), ("blackhole", True)])
def test_flash_attention_bshd_matches_the_reference(example, target, causal):
    func = example.flashattn.get_tir(1, 2, 512, 64, causal, block_M=64, block_N=64, num_stages=1)
    kernel = tilelang.compile(func, out_idx=[3], target=target)
    result = tilelang.check_against_reference(kernel, lambda Q, K, V: example.ref_program(Q, K, V, causal))
    print(f"{target} causal={causal}: {result}")
    assert result.passed, f"{target} causal={causal}: {result}"
