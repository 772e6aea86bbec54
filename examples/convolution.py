"""2-D convolution in TileLang style: an implicit GEMM whose A operand is gathered by T.im2col.

    ./bazelw run //tools:compile -- examples/convolution.py --run
    python examples/convolution.py

The body is TileLang's examples/convolution/example_convolution.py with the imports changed (and its
dtype parameters honoured instead of reassigned). On Tenstorrent the NHWC image lives in DRAM as rows of
channels, one page per (n, h, w); the reader gathers each block's im2col rows with one NOC read per run of
32 channels (zeros in the padding) and compute tilizes them for the matrix engine. The weights and the
output are seen through flat views of their memory (``kernel_flat``, ``out_flat``).
"""

import numpy as np
import tilelang_tt as tilelang
import tilelang_tt.language as T


@tilelang.jit
def convolution(
    data,
    kernel,
    S,
    D,
    P,
    block_M,
    block_N,
    block_K,
    num_stages,
    threads,
    dtype=T.float16,
    accum_dtype=T.float32,
):  # noqa: E501
    N, C, H, W, F, K = T.const("N, C, H, W, F, K")
    KH, KW = K, K
    OH = (H + 2 * P - D * (K - 1) - 1) // S + 1
    OW = (W + 2 * P - D * (K - 1) - 1) // S + 1

    data: T.Tensor((N, H, W, C), dtype)
    kernel: T.Tensor((KH, KW, C, F), dtype)
    out = T.empty((N, OH, OW, F), dtype)

    with T.Kernel(T.ceildiv(F, block_N), T.ceildiv(N * OH * OW, block_M), threads=threads) as (bx, by):
        data_shared = T.alloc_shared((block_M, block_K), dtype)
        kernel_shared = T.alloc_shared((block_K, block_N), dtype)
        out_local = T.alloc_fragment((block_M, block_N), accum_dtype)
        out_shared = T.alloc_shared((block_M, block_N), dtype)

        kernel_flat = T.Tensor((KH * KW * C, F), dtype, kernel.data)
        out_flat = T.Tensor((N * OH * OW, F), dtype, out.data)

        T.clear(out_local)
        for k_iter in T.Pipelined(T.ceildiv(KH * KW * C, block_K), num_stages=num_stages):
            T.im2col(data, data_shared, by, k_iter, KH, S, D, P)
            T.copy(kernel_flat[k_iter * block_K, bx * block_N], kernel_shared)
            T.gemm(data_shared, kernel_shared, out_local)

        T.copy(out_local, out_shared)
        T.copy(out_shared, out_flat[by * block_M, bx * block_N])

    return out


def conv2d_nhwc(data, kernel, stride, padding, dilation):
    """numpy reference: NHWC data, (KH, KW, C, F) weights, float32 accumulation."""
    n, h, w, _ = data.shape
    k, f = kernel.shape[0], kernel.shape[3]
    oh = (h + 2 * padding - dilation * (k - 1) - 1) // stride + 1
    ow = (w + 2 * padding - dilation * (k - 1) - 1) // stride + 1
    padded = np.pad(data.astype(np.float32), ((0, 0), (padding, padding), (padding, padding), (0, 0)))
    out = np.zeros((n, oh, ow, f), np.float32)
    for kh in range(k):
        for kw in range(k):
            rows = slice(kh * dilation, kh * dilation + stride * (oh - 1) + 1, stride)
            cols = slice(kw * dilation, kw * dilation + stride * (ow - 1) + 1, stride)
            out += padded[:, rows, cols, :] @ kernel[kh, kw].astype(np.float32)
    return out


STRIDE, DILATION, PADDING = 1, 1, 1


def ref_program(data, kernel):
    return conv2d_nhwc(data, kernel, STRIDE, PADDING, DILATION).astype(data.dtype)


kernel = convolution.compile(
    N=2, C=64, H=14, W=14, F=128, K=3, S=STRIDE, D=DILATION, P=PADDING,
    block_M=64, block_N=64, block_K=32, num_stages=2, threads=128,
)  # fmt: skip

if __name__ == "__main__":
    result = tilelang.check_against_reference(kernel, ref_program)
    print(f"convolution 3x3 (2x14x14x64 → 128 channels): {kernel.cores_used} cores, check: {result}")
    if not result.passed:
        raise SystemExit(1)
