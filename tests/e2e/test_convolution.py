"""TileLang's im2col convolution (examples/convolution.py, the body of TileLang's own example) on the mock
device against numpy: 1×1, 3×3 and 5×5 windows, stride 1 and 2, with and without padding, dilation,
bfloat16 and float16, both architectures; and the located errors of what the gather cannot do yet."""

import importlib.util
import os

import ml_dtypes
import numpy as np
import pytest
import tilelang_tt as tilelang
import tilelang_tt.language as T
from tilelang_tt.errors import TTCompileError


def _example():
    path = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "convolution.py")
    spec = importlib.util.spec_from_file_location("convolution_example", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


EXAMPLE = _example()
DTYPES = {"bfloat16": (ml_dtypes.bfloat16, T.bfloat16), "float16": (np.float16, T.float16)}


@pytest.mark.parametrize(
    "n, c, h, w, f, k, stride, dilation, pad, dtype, target",
    [
        (1, 32, 8, 8, 64, 1, 1, 1, 0, "bfloat16", "wormhole"),
        (2, 32, 9, 7, 64, 3, 1, 1, 1, "float16", "wormhole"),
        (1, 64, 10, 10, 64, 3, 2, 1, 1, "bfloat16", "wormhole"),
        (1, 32, 11, 9, 32, 5, 1, 1, 2, "float16", "wormhole"),
        (1, 32, 12, 12, 64, 5, 2, 1, 0, "bfloat16", "wormhole"),
        (1, 32, 9, 9, 64, 3, 1, 2, 2, "float16", "wormhole"),
        (2, 32, 9, 7, 64, 3, 1, 1, 1, "bfloat16", "blackhole"),
        (1, 32, 12, 12, 64, 5, 2, 1, 2, "float16", "blackhole"),
    ],
)
def test_convolution_matches_numpy(n, c, h, w, f, k, stride, dilation, pad, dtype, target):
    np_dtype, tt_dtype = DTYPES[dtype]
    kernel = EXAMPLE.convolution.compile(
        N=n, C=c, H=h, W=w, F=f, K=k, S=stride, D=dilation, P=pad,
        block_M=64, block_N=64, block_K=32, num_stages=2, threads=128, dtype=tt_dtype,
    )  # fmt: skip
    if target != "wormhole":
        kernel = tilelang.compile(kernel.func, out_idx=list(kernel.options.out_idx), target=target)
    rng = np.random.default_rng(k * 10 + stride)
    data = rng.standard_normal((n, h, w, c)).astype(np_dtype)
    weights = rng.standard_normal((k, k, c, f)).astype(np_dtype)
    expected = EXAMPLE.conv2d_nhwc(data, weights, stride, pad, dilation)
    got = kernel(data, weights).astype(np.float32)
    assert got.shape == expected.shape, f"output shape {got.shape}, expected {expected.shape}"
    rel = float(np.abs(got - expected).max() / np.abs(expected).max())
    assert rel <= 1e-2, f"max relative error {rel:.3e} for {k}x{k} stride {stride} pad {pad} on {target}"


def _gather(channels, block_k):
    @T.prim_func
    def gather(data: T.Tensor((1, 8, 8, channels), "bfloat16"), out: T.Tensor((64, block_k), "bfloat16")):
        with T.Kernel(1) as bx:
            cols = T.alloc_shared((64, block_k), "bfloat16")
            T.im2col(data, cols, bx, 0, 1, 1, 1, 0)
            T.copy(cols, out[0, 0])

    return gather


def test_channels_that_are_not_whole_runs_are_a_located_error():
    with pytest.raises(TTCompileError, match=r"T.im2col of data \(C = 16\).*multiples of 32") as err:
        tilelang.compile(_gather(16, 32), out_idx=[-1])
    assert "T.im2col(data, cols" in str(err.value), str(err.value)


@T.prim_func
def gathered_and_copied(data: T.Tensor((1, 8, 8, 32), "bfloat16"), out: T.Tensor((64, 32), "bfloat16")):
    with T.Kernel(1) as bx:
        cols = T.alloc_shared((64, 32), "bfloat16")
        T.im2col(data, cols, bx, 0, 1, 1, 1, 0)
        T.copy(data[0, 0, 0:32, 0:32], cols[0:32, 0:32])
        T.copy(cols, out[0, 0])


def test_a_tensor_gathered_and_copied_as_tiles_is_a_located_error():
    with pytest.raises(TTCompileError, match="data is gathered by T.im2col and also copied as tiles"):
        tilelang.compile(gathered_and_copied, out_idx=[-1])


def test_the_gather_of_the_example_matches_numpy_im2col():
    """Single 1x1 window: the gathered tile is the image's (n·h·w, c) matrix, copied out unchanged."""
    kernel = tilelang.compile(_gather(32, 32), out_idx=[-1])
    data = np.random.default_rng(1).standard_normal((1, 8, 8, 32)).astype(ml_dtypes.bfloat16)
    np.testing.assert_array_equal(kernel(data), data.reshape(64, 32))
