"""examples/flash_attention.py's kernel, checked the way upstream TileLang's examples check theirs: torch
tensors in and out, a torch reference program (``torch.einsum``, ``F.softmax``), ``torch.testing``,
``profiler.assert_allclose`` with a ``functools.partial`` of the reference, and ``@autotune``.

    python torch_attention_check.py [--is_causal] [--tune]
    compile.py torch_attention_check.py --func flashattn --args "1, 2, 256, 256, 64, True" --run

test_torch_programs.py runs both.
"""

import argparse
import functools
import os
import sys

import torch
import torch.nn.functional as F  # noqa: N812 -- as upstream's programs spell it
from tilelang_tt.autotuner import autotune

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples"))
import flash_attention  # noqa: E402

CONFIGS = [{"block_M": 64, "block_N": 64}, {"block_M": 128, "block_N": 64}, {"block_M": 128, "block_N": 128}]

flashattn = autotune(configs=CONFIGS, warmup=10, rep=10)(flash_attention.flashattn)


def ref_program(Q, K, V, is_causal):
    dim = Q.size(-1)
    scores = torch.einsum("bhqd,bhkd->bhqk", Q.float(), K.float()) / dim**0.5
    if is_causal:
        seq_q, seq_kv = Q.size(2), K.size(2)
        mask = torch.tril(torch.ones(seq_q, seq_kv), seq_kv - seq_q)
        scores = scores.masked_fill(mask == 0, float("-inf"))
    return torch.einsum("bhqk,bhkd->bhqd", F.softmax(scores, dim=-1), V.float()).to(Q.dtype)


def main(batch=1, heads=2, seq=256, dim=64, is_causal=False, tune=False):
    if tune:
        kernel = flashattn(batch, heads, seq, seq, dim, is_causal)
        print(f"Best config: {kernel.config}, {kernel.latency:.4f} ms modelled")
    else:
        kernel = flashattn(batch, heads, seq, seq, dim, is_causal, block_M=64, block_N=64, num_stages=1)
    q, k, v = (torch.randn(batch, heads, seq, dim, dtype=torch.float16) for _ in range(3))
    out = kernel(q, k, v)
    torch.testing.assert_close(out, ref_program(q, k, v, is_causal), rtol=1e-2, atol=1e-2)
    kernel.get_profiler().assert_allclose(
        functools.partial(ref_program, is_causal=is_causal), rtol=0.01, atol=0.01
    )
    print("All checks pass.")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--is_causal", action="store_true")
    parser.add_argument("--tune", action="store_true")
    args = parser.parse_args()
    main(is_causal=args.is_causal, tune=args.tune)
