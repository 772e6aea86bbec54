"""Block-float tensors ("bfloat8_b", "bfloat4_b" storage dtypes) end to end, on both simulated archs.

The host packs a block-float input as the SDK's host library does, which ``tilelang_tt.block_float.quantize``
models in numpy, and the device unpacks it exactly: a kernel that only adds two such inputs in fp32 gives the
sum of the quantized inputs bit for bit. A block-float output is packed by the device's packer, whose
rounding is tt-llk's golden model: ``golden_packer`` below is written from it, and with the pinned ttnn wheel
at hand (SDK_PYTHON, its venv's interpreter, as Bazel gives it) the outputs are also checked against the
wheel's own tt_metal/tt-llk/tests/python_tests/helpers/bfp_format_utils.py. A GEMM on bfloat8_b inputs
matches numpy's product of the quantized inputs.
"""

import importlib
import os
import subprocess
import sys
import types

import numpy as np
import pytest
import tilelang_tt
import tilelang_tt.language as T
from programs import gemm
from targets import one_target_each
from tilelang_tt.arguments import NUMPY_DTYPES
from tilelang_tt.block_float import quantize
from tilelang_tt.reference_check import MAX_RELATIVE_ERROR, MIN_PCC, compare

ARCHS = ["wormhole", "blackhole"]


def golden_packer(values: np.ndarray, dtype: str) -> np.ndarray:
    """The device packer's round trip: each value truncated to bfloat16, a 7-bit magnitude with its leading
    one, shifted to its 16-value group's largest exponent and rounded up on the first bit shifted out,
    then cut to the format's width (7 or 3 bits); zeros and subnormals 0."""
    bits = {"bfloat8_b": 7, "bfloat4_b": 3}[dtype]
    bf16 = (np.ascontiguousarray(values, np.float32).view(np.uint32) >> 16).astype(np.int64).reshape(-1, 16)
    exponents = (bf16 >> 7) & 0xFF
    magnitudes = np.where(exponents == 0, 0, ((bf16 & 0x7F) >> 1) | 0x40)
    shared = exponents.max(axis=1, keepdims=True)
    delta = shared - exponents
    guard = np.where(delta > 0, (magnitudes >> np.clip(delta - 1, 0, 40)) & 1, 0)
    rounded = np.where(delta > 7, 0, (magnitudes >> np.minimum(delta, 40)) + guard)
    value = np.ldexp(
        ((rounded & 0x7F) >> (7 - bits)).astype(np.float64), (shared - 126 - bits).astype(np.int32)
    )
    return np.where(bf16 >> 15 == 1, -value, value).astype(np.float32).reshape(values.shape)


def tt_llk_golden():
    """The ttnn wheel's tt-llk golden module (bfp_format_utils), loaded into this interpreter (it needs torch)
    without its package's __init__, which imports the card's debugger library."""
    sdk_python = os.environ.get("SDK_PYTHON")
    assert sdk_python, "SDK_PYTHON (the ttnn wheel's venv interpreter) is not set: run the test with Bazel"
    where = "import importlib.util, os; print(os.path.dirname(importlib.util.find_spec('ttnn').origin))"
    ttnn = subprocess.run(
        [sdk_python, "-c", where], check=True, capture_output=True, text=True
    ).stdout.strip()
    package = types.ModuleType("tt_llk_helpers")
    package.__path__ = [f"{ttnn}/tt_metal/tt-llk/tests/python_tests/helpers"]
    sys.modules["tt_llk_helpers"] = package
    return importlib.import_module("tt_llk_helpers.bfp_format_utils")


def add(M, N, block, in_dtype, out_dtype):
    """C = A + B, accumulated in an fp32 fragment and stored as ``out_dtype``."""

    @T.prim_func
    def add_kernel(
        A: T.Tensor((M, N), in_dtype), B: T.Tensor((M, N), in_dtype), C: T.Tensor((M, N), out_dtype)
    ):
        with T.Kernel(N // block, M // block) as (bx, by):
            A_s = T.alloc_shared((block, block), in_dtype)
            B_s = T.alloc_shared((block, block), in_dtype)
            C_f = T.alloc_fragment((block, block), "float")
            T.copy(A[by * block, bx * block], A_s)
            T.copy(B[by * block, bx * block], B_s)
            for i, j in T.Parallel(block, block):
                C_f[i, j] = A_s[i, j] + B_s[i, j]
            T.copy(C_f, C[by * block, bx * block])

    return add_kernel


def _inputs(shape, seed=0):
    rng = np.random.default_rng(seed)
    # several binades per 16-value group, so the shared exponent shifts most values' magnitudes
    return [
        (rng.standard_normal(shape) * 2.0 ** rng.integers(-4, 4, shape)).astype(np.float32) for _ in range(2)
    ]


@pytest.mark.parametrize("dtype, arch", one_target_each(["bfloat8_b", "bfloat4_b"]))
def test_block_float_inputs_reach_the_kernel_as_the_host_library_packs_them(arch, dtype):
    kernel = tilelang_tt.compile(add(64, 96, 32, dtype, "float32"), out_idx=[-1], target=arch)
    a, b = _inputs((64, 96))
    result = kernel(a, b)
    expected = quantize(a, dtype) + quantize(b, dtype)
    mismatched = np.flatnonzero(result != expected)
    assert mismatched.size == 0, (
        f"{mismatched.size} of {result.size} sums differ from the sums of the quantized inputs, first at "
        f"flat index {mismatched[0]}: {result.flat[mismatched[0]]} != {expected.flat[mismatched[0]]}"
    )


@pytest.mark.parametrize("dtype, arch", one_target_each(["bfloat4_b", "bfloat8_b"]))  # the other pairs
def test_block_float_outputs_are_rounded_as_the_packer_rounds(arch, dtype):
    kernel = tilelang_tt.compile(add(64, 64, 32, "float32", dtype), out_idx=[-1], target=arch)
    a, b = _inputs((64, 64), seed=1)
    result = kernel(a, b)
    expected = golden_packer(a + b, dtype)
    mismatched = np.flatnonzero(result != expected)
    assert mismatched.size == 0, (
        f"{mismatched.size} of {result.size} outputs differ from tt-llk's golden packer, first at flat index "
        f"{mismatched[0]}: {result.flat[mismatched[0]]} != {expected.flat[mismatched[0]]}"
    )


def test_block_float_outputs_match_the_wheels_golden_model():
    import torch

    golden = tt_llk_golden()
    kernel = tilelang_tt.compile(add(64, 64, 32, "float32", "bfloat8_b"), out_idx=[-1])
    a, b = _inputs((64, 64), seed=3)
    result = kernel(a, b)
    # the golden model quantizes its operand's rows 16 values at a time, as the tile's face rows hold them
    expected = golden.bfp8b_to_float16b(torch.from_numpy(a + b)).float().numpy().reshape(64, 64)
    mismatched = np.flatnonzero(result != expected)
    assert mismatched.size == 0, (
        f"{mismatched.size} of {result.size} outputs differ from bfp8b_to_float16b, first at flat index "
        f"{mismatched[0]}: {result.flat[mismatched[0]]} != {expected.flat[mismatched[0]]}"
    )


@pytest.mark.parametrize("arch", ARCHS)
def test_gemm_on_bfloat8_b_inputs_matches_numpy_on_the_quantized_inputs(arch):
    func = gemm(M=128, N=96, K=256, bM=64, bN=32, bK=64, dtype="bfloat8_b", out_dtype="bfloat16")
    kernel = tilelang_tt.compile(func, out_idx=[-1], target=arch, math_fidelity="HiFi2")
    assert [p["dtype"] for p in kernel.params] == ["bfloat8_b", "bfloat8_b", "bfloat16"]
    rng = np.random.default_rng(2)
    a, b = (
        rng.standard_normal((128, 256)).astype(np.float32),
        rng.standard_normal((256, 96)).astype(np.float32),
    )
    result = np.asarray(kernel(a, b), np.float32)
    error, pcc = compare(result, quantize(a, "bfloat8_b") @ quantize(b, "bfloat8_b"))
    assert error <= MAX_RELATIVE_ERROR and pcc >= MIN_PCC, f"max relative error {error:.2e}, PCC {pcc:.5f}"
    error, pcc = compare(result, a @ b)  # bfloat8_b's own error: 6 fraction bits at most
    assert error <= 5e-2 and pcc >= MIN_PCC, f"against the unquantized product: {error:.2e}, PCC {pcc:.5f}"


def attention(heads, seq, dim, block, kv_dtype):
    """Flash attention forward (examples/flash_attention.py's online softmax, non-causal) on bfloat16 queries
    and a K/V cache stored as ``kv_dtype``."""
    scale = (1.0 / dim) ** 0.5 * 1.44269504  # log2(e)
    shape, accum = [1, heads, seq, dim], "float32"

    @T.prim_func
    def main(
        Q: T.Tensor(shape, "bfloat16"),
        K: T.Tensor(shape, kv_dtype),
        V: T.Tensor(shape, kv_dtype),
        Output: T.Tensor(shape, "bfloat16"),
    ):
        with T.Kernel(seq // block, heads, 1) as (bx, by, bz):
            Q_shared = T.alloc_shared([block, dim], "bfloat16")
            K_shared = T.alloc_shared([block, dim], kv_dtype)
            V_shared = T.alloc_shared([block, dim], kv_dtype)
            acc_s = T.alloc_fragment([block, block], accum)
            acc_s_cast = T.alloc_fragment([block, block], "bfloat16")
            acc_o = T.alloc_fragment([block, dim], accum)
            scores_max = T.alloc_fragment([block], accum)
            scores_max_prev = T.alloc_fragment([block], accum)
            scores_scale = T.alloc_fragment([block], accum)
            scores_sum = T.alloc_fragment([block], accum)
            logsum = T.alloc_fragment([block], accum)
            T.copy(Q[bz, by, bx * block : (bx + 1) * block, :], Q_shared)
            T.fill(acc_o, 0)
            T.fill(logsum, 0)
            T.fill(scores_max, -T.infinity(accum))
            for k in T.Pipelined(seq // block, num_stages=1):
                T.copy(K[bz, by, k * block : (k + 1) * block, :], K_shared)
                T.clear(acc_s)
                T.gemm(Q_shared, K_shared, acc_s, transpose_B=True)
                T.copy(scores_max, scores_max_prev)
                T.reduce_max(acc_s, scores_max, dim=1, clear=False)
                for i in T.Parallel(block):
                    scores_scale[i] = T.exp2(scores_max_prev[i] * scale - scores_max[i] * scale)
                for i, j in T.Parallel(block, block):
                    acc_s[i, j] = T.exp2(acc_s[i, j] * scale - scores_max[i] * scale)
                T.reduce_sum(acc_s, scores_sum, dim=1)
                for i in T.Parallel(block):
                    logsum[i] = logsum[i] * scores_scale[i] + scores_sum[i]
                T.copy(acc_s, acc_s_cast)
                for i, j in T.Parallel(block, dim):
                    acc_o[i, j] *= scores_scale[i]
                T.copy(V[bz, by, k * block : (k + 1) * block, :], V_shared)
                T.gemm(acc_s_cast, V_shared, acc_o)
            for i, j in T.Parallel(block, dim):
                acc_o[i, j] /= logsum[i]
            T.copy(acc_o, Output[bz, by, bx * block : (bx + 1) * block, :])

    return main


@pytest.mark.parametrize("arch", ARCHS)
def test_attention_on_a_bfloat8_b_kv_cache_matches_numpy(arch):
    kernel = tilelang_tt.compile(attention(2, 128, 64, 64, "bfloat8_b"), out_idx=[-1], target=arch)
    rng = np.random.default_rng(4)
    q, k, v = (rng.standard_normal((1, 2, 128, 64)).astype(np.float32) for _ in range(3))
    q = q.astype(NUMPY_DTYPES["bfloat16"])
    result = np.asarray(kernel(q, k, v), np.float32)
    k, v = quantize(k, "bfloat8_b"), quantize(v, "bfloat8_b")
    scores = np.einsum("bhqd,bhkd->bhqk", q.astype(np.float32), k) / np.sqrt(64)
    weights = np.exp(scores - scores.max(-1, keepdims=True))
    expected = np.einsum("bhqk,bhkd->bhqd", weights / weights.sum(-1, keepdims=True), v)
    error, pcc = compare(result, expected)
    assert error <= MAX_RELATIVE_ERROR and pcc >= MIN_PCC, f"max relative error {error:.2e}, PCC {pcc:.5f}"


def test_a_block_float_tensor_cannot_be_read_as_rows():
    @T.prim_func
    def gather_rows(
        img: T.Tensor((1, 8, 8, 32), "bfloat8_b"),
        w: T.Tensor((288, 32), "bfloat16"),
        out: T.Tensor((64, 32), "bfloat16"),
    ):
        with T.Kernel(1, 2) as (bx, by):
            col = T.alloc_shared((32, 288), "bfloat16")
            w_s = T.alloc_shared((288, 32), "bfloat16")
            acc = T.alloc_fragment((32, 32), "float")
            T.im2col(img, col, by * 32, 3, 1, 1, 1, 0)
            T.copy(w, w_s)
            T.gemm(col, w_s, acc, clear_accum=True)
            T.copy(acc, out[by * 32, 0])

    with pytest.raises(
        tilelang_tt.TTCompileError, match=r"test_block_float.py:\d+.*img is stored as bfloat8_b"
    ):
        tilelang_tt.compile(gather_rows, out_idx=[-1])
