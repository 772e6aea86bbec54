"""examples/flash_attention_bshd.py — TileLang's BSHD flash attention with its imports changed — on
(B, S, H, D) tensors whose tiles span the sequence with the head fixed (stored as (B, H, S, D) in DRAM):
B=1, H=2, S=512, D=64, causal and not, on both simulated archs, against the example's ref_program."""

import importlib.util
import os

import pytest
import tilelang_tt as tilelang

EXAMPLE = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "flash_attention_bshd.py")


def _example():
    spec = importlib.util.spec_from_file_location("flash_attention_bshd", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("target", ["wormhole", "blackhole"])
@pytest.mark.parametrize("causal", [False, True])
def test_flash_attention_bshd_matches_the_reference(target, causal):
    example = _example()
    func = example.flashattn.get_tir(1, 2, 512, 64, causal, block_M=64, block_N=64, num_stages=1)
    kernel = tilelang.compile(func, out_idx=[3], target=target)
    result = tilelang.check_against_reference(kernel, lambda Q, K, V: example.ref_program(Q, K, V, causal))
    print(f"{target} causal={causal}: {result}")
    assert result.passed, f"{target} causal={causal}: {result}"
