"""Shared by the end-to-end tests: run a compiled GEMM on random inputs and compare with numpy."""

from __future__ import annotations

import numpy as np
from tilelang_tt.arguments import NUMPY_DTYPES
from tilelang_tt.reference_check import MAX_RELATIVE_ERROR, MIN_PCC, compare


def reference(a: np.ndarray, b: np.ndarray, trans_b: bool, trans_a: bool = False) -> np.ndarray:
    """fp32 accumulation of the (already rounded) inputs."""
    af, bf = a.astype(np.float32), b.astype(np.float32)
    return (af.T if trans_a else af) @ (bf.T if trans_b else bf)


def check(kernel, trans_b: bool = False, seed: int = 0, trans_a: bool = False) -> tuple[float, float]:
    """Run ``kernel`` (out_idx=[-1]) on random inputs; returns (max relative error, PCC) and asserts both."""
    rng = np.random.default_rng(seed)
    a_p, b_p, c_p = kernel.params
    a = rng.standard_normal(a_p["shape"]).astype(np.float32).astype(NUMPY_DTYPES[a_p["dtype"]])
    b = rng.standard_normal(b_p["shape"]).astype(np.float32).astype(NUMPY_DTYPES[b_p["dtype"]])
    c = kernel(a, b)
    assert c.dtype == NUMPY_DTYPES[c_p["dtype"]] and c.shape == tuple(c_p["shape"])
    ref = reference(a, b, trans_b, trans_a)
    rel, pcc = compare(c, ref)
    assert rel < MAX_RELATIVE_ERROR and pcc >= MIN_PCC, f"max rel err {rel:.3e}, PCC {pcc:.6f}"
    return rel, pcc
