"""Block-float tensors ("bfloat8_b", "bfloat4_b" storage dtypes) end to end, on both simulated archs.

The host packs a block-float input as the SDK's host library does, which ``tilelang_tt.block_float.quantize``
models in numpy, and the device unpacks it exactly: a kernel that only adds two such inputs in fp32 gives the
sum of the quantized inputs bit for bit. A block-float output is packed by the device's packer, whose
rounding is tt-llk's golden model (``golden_packer`` below, written from
tt_metal/tt-llk/tests/python_tests/helpers/bfp_format_utils.py). A GEMM on bfloat8_b inputs matches numpy's
product of the quantized inputs.
"""

import numpy as np
import pytest
import tilelang_tt
import tilelang_tt.language as T
from programs import gemm
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


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("dtype", ["bfloat8_b", "bfloat4_b"])
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


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("dtype", ["bfloat8_b", "bfloat4_b"])
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
