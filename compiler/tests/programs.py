"""DSL programs and helpers shared by the compiler's tests."""

from __future__ import annotations

import tilelang_tt.language as T
import tvm
import tvm_ffi
from tilelang_tt import ops
from tilelang_tt.ir_utils import get_attr
from tilelang_tt.pipeline import tt_passes
from tvm import tirx


@T.prim_func
def page_table_gather(
    K: T.Tensor((256, 64), "bfloat16"), Pages: T.Tensor((2, 3), "int32"), O: T.Tensor((192, 64), "bfloat16")
):
    """Each of 2 sequences' 3 pages of K, in the order the int32 index table Pages names them (a paged KV
    cache), copied out contiguously."""
    with T.Kernel(3, 2) as (bx, by):
        K_s = T.alloc_shared((32, 64), "bfloat16")
        T.copy(K[Pages[by, bx] * 32, 0], K_s)
        T.copy(K_s, O[(by * 3 + bx) * 32, 0])


@T.prim_func
def cut_to_integers(A: T.Tensor((64, 64), "float32"), Ranks: T.Tensor((64, 64), "int32")):
    """A float tensor's values cut toward zero into an int32 tensor the kernel only writes (integer tiles)."""
    with T.Kernel(2) as bx:
        a = T.alloc_fragment((32, 64), "float32")
        ranks = T.alloc_fragment((32, 64), "int32")
        T.copy(A[bx * 32, 0], a)
        for i, j in T.Parallel(32, 64):
            ranks[i, j] = T.Cast("int32", a[i, j])
        T.copy(ranks, Ranks[bx * 32, 0])


def gemm(
    M=128,
    N=128,
    K=128,
    bM=64,
    bN=64,
    bK=32,
    dtype="bfloat16",
    out_dtype=None,
    accum="float",
    stages=2,
    trans_b=False,
    c_shared=True,
    trans_a=False,
):
    """A TileLang GEMM: C = op(A) @ op(B) (A given as (K, M) when trans_a, B as (N, K) when trans_b),
    staged through C_s when c_shared."""
    out_dtype = out_dtype or dtype
    a_shape, as_shape = ((K, M), (bK, bM)) if trans_a else ((M, K), (bM, bK))
    b_shape, bs_shape = ((N, K), (bN, bK)) if trans_b else ((K, N), (bK, bN))

    if c_shared:

        @T.prim_func
        def gemm_cs(A: T.Tensor(a_shape, dtype), B: T.Tensor(b_shape, dtype), C: T.Tensor((M, N), out_dtype)):
            with T.Kernel(T.ceildiv(N, bN), T.ceildiv(M, bM), threads=128) as (bx, by):
                A_s = T.alloc_shared(as_shape, dtype)
                B_s = T.alloc_shared(bs_shape, dtype)
                C_f = T.alloc_fragment((bM, bN), accum)
                C_s = T.alloc_shared((bM, bN), out_dtype)
                T.clear(C_f)
                for k in T.Pipelined(T.ceildiv(K, bK), num_stages=stages):
                    if trans_a:
                        T.copy(A[k * bK, by * bM], A_s)
                    else:
                        T.copy(A[by * bM, k * bK], A_s)
                    if trans_b:
                        T.copy(B[bx * bN, k * bK], B_s)
                    else:
                        T.copy(B[k * bK, bx * bN], B_s)
                    T.gemm(A_s, B_s, C_f, transpose_A=trans_a, transpose_B=trans_b)
                T.copy(C_f, C_s)
                T.copy(C_s, C[by * bM, bx * bN])

        return gemm_cs

    @T.prim_func
    def gemm_direct(A: T.Tensor(a_shape, dtype), B: T.Tensor(b_shape, dtype), C: T.Tensor((M, N), out_dtype)):
        with T.Kernel(T.ceildiv(N, bN), T.ceildiv(M, bM), threads=128) as (bx, by):
            A_s = T.alloc_shared(as_shape, dtype)
            B_s = T.alloc_shared(bs_shape, dtype)
            C_f = T.alloc_fragment((bM, bN), accum)
            T.clear(C_f)
            for k in T.Pipelined(T.ceildiv(K, bK), num_stages=stages):
                T.copy(A[by * bM : (by + 1) * bM, k * bK : (k + 1) * bK], A_s)
                if trans_b:
                    T.copy(B[bx * bN : (bx + 1) * bN, k * bK : (k + 1) * bK], B_s)
                else:
                    T.copy(B[k * bK : (k + 1) * bK, bx * bN : (bx + 1) * bN], B_s)
                T.gemm(A_s, B_s, C_f, transpose_B=trans_b)
            T.copy(C_f, C[by * bM, bx * bN])

    return gemm_direct


def batched_gemm(batch, M, N, K, bM, bN, bK, dtype="bfloat16", accum="float"):  # noqa: N803
    """C[b] = A[b] @ B[b] over (batch, M, K) @ (batch, K, N) tensors, ``bz`` on the batch (a 3-D grid)."""

    @T.prim_func
    def bmm(
        A: T.Tensor((batch, M, K), dtype),
        B: T.Tensor((batch, K, N), dtype),
        C: T.Tensor((batch, M, N), dtype),
    ):
        with T.Kernel(T.ceildiv(N, bN), T.ceildiv(M, bM), batch, threads=128) as (bx, by, bz):
            A_shared = T.alloc_shared((bM, bK), dtype)
            B_shared = T.alloc_shared((bK, bN), dtype)
            C_local = T.alloc_fragment((bM, bN), accum)
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, bK), num_stages=2):
                T.copy(A[bz, by * bM, k * bK], A_shared)
                T.copy(B[bz, k * bK, bx * bN], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(C_local, C[bz, by * bM, bx * bN])

    return bmm


def box_stencil(shape, reach):
    """C = the sum of A's 32 x 32 blocks within ``reach`` (rows, columns) blocks of each block, inside the
    tensor: a stencil over blocks, reading its neighbours' tiles."""
    rows, cols = shape
    block_rows, block_cols = rows // 32, cols // 32
    reach_rows, reach_cols = reach

    @T.prim_func
    def box(A: T.Tensor(shape, "bfloat16"), C: T.Tensor(shape, "bfloat16")):
        with T.Kernel(block_cols, block_rows) as (bx, by):
            A_s = T.alloc_shared((32, 32), "bfloat16")
            C_f = T.alloc_fragment((32, 32), "float")
            T.clear(C_f)
            for i in T.serial(T.max(by - reach_rows, 0), T.min(by + reach_rows + 1, block_rows)):
                for j in T.serial(T.max(bx - reach_cols, 0), T.min(bx + reach_cols + 1, block_cols)):
                    T.copy(A[i * 32, j * 32], A_s)
                    for r, c in T.Parallel(32, 32):
                        C_f[r, c] += A_s[r, c]
            T.copy(C_f, C[by * 32, bx * 32])

    return box


@T.prim_func
def scaled_and_column_sums(
    A: T.Tensor((128, 64), "float32"), B: T.Tensor((128, 64), "float32"), S: T.Tensor((64,), "float32")
):
    """B = 2 A block by block, and every block adds its column sums into S (LayerNorm's backward does this
    with dX and dGamma): bx selects B's block but not S's elements."""
    with T.Kernel(4) as bx:
        a = T.alloc_fragment((32, 64), "float32")
        s = T.alloc_fragment((64,), "float32")
        T.copy(A[bx * 32, 0], a)
        T.reduce_sum(a, s, dim=0)
        for j in T.Parallel(64):
            T.atomic_add(S[j], s[j])
        for i, j in T.Parallel(32, 64):
            a[i, j] = a[i, j] * 2.0
        T.copy(a, B[bx * 32, 0])


@T.prim_func
def affine_blocks(
    X: T.Tensor((576, 256), "bfloat16"),
    gamma: T.Tensor((32,), "bfloat16"),
    shift: T.Tensor((256,), "float32"),
    Y: T.Tensor((576, 256), "float32"),
):
    # 144 blocks, more than either chip has cores: gamma is the same for every block (read once per core),
    # shift's part follows the block's columns
    with T.Kernel(8, 18) as (bx, by):
        X_s = T.alloc_shared((32, 32), "bfloat16")
        G_s = T.alloc_shared((32,), "bfloat16")
        S_s = T.alloc_shared((32,), "float32")
        Y_f = T.alloc_fragment((32, 32), "float32")
        T.copy(X[by * 32, bx * 32], X_s)
        T.copy(gamma, G_s)
        T.copy(shift[bx * 32], S_s)
        for i, j in T.Parallel(32, 32):
            Y_f[i, j] = X_s[i, j] * G_s[j] + S_s[j]
        T.copy(Y_f, Y[by * 32, bx * 32])


@T.prim_func
def centred_rows(X: T.Tensor((96, 512), "bfloat16"), Y: T.Tensor((96, 512), "float32")):
    # two passes over each row's blocks, as a two-pass LayerNorm reads them: the row sums, then each
    # element's squared deviation from the row mean, x*x - (2x - mean) * mean (x*x on the FPU)
    with T.Kernel(3) as bx:
        x = T.alloc_shared((32, 128), "bfloat16")
        total = T.alloc_fragment((32,), "float32")
        part = T.alloc_fragment((32,), "float32")
        sq = T.alloc_fragment((32, 128), "float32")
        dev = T.alloc_fragment((32, 128), "float32")
        T.fill(total, 0)
        for k in T.serial(4):
            T.copy(X[bx * 32, k * 128], x)
            T.reduce_sum(x, part, dim=1)
            for i in T.Parallel(32):
                total[i] += part[i]
        for k in T.serial(4):
            T.copy(X[bx * 32, k * 128], x)
            for i, j in T.Parallel(32, 128):
                sq[i, j] = x[i, j] * x[i, j]
            for i, j in T.Parallel(32, 128):
                dev[i, j] = sq[i, j] - (2 * x[i, j] - total[i] / 512) * (total[i] / 512)
            T.copy(dev, Y[bx * 32, k * 128])


@T.prim_func
def heads_added_per_group(X: T.Tensor((4, 64, 64), "float32"), Y: T.Tensor((2, 64, 64), "float32")):
    # GQA's dK and dV: heads bx and bx + 1 share output head bx // 2, so they add into the same block
    with T.Kernel(4, 2) as (bx, by):
        x = T.alloc_fragment((32, 64), "float32")
        T.copy(X[bx, by * 32, 0], x)
        T.atomic_add(Y[bx // 2, by * 32, 0], x)


def conv_3x3(channels: int):
    """A 3x3 convolution of an 8x8 image with ``channels`` channels in 32-wide K steps (TileLang's
    examples/convolution form)."""
    window = 9 * channels

    @T.prim_func
    def conv(
        data: T.Tensor((1, 8, 8, channels), "float16"),
        kernel: T.Tensor((window, 32), "float16"),
        out: T.Tensor((64, 32), "float32"),
    ):
        with T.Kernel(1, 2) as (bx, by):
            data_s = T.alloc_shared((32, 32), "float16")
            kernel_s = T.alloc_shared((32, 32), "float16")
            acc = T.alloc_fragment((32, 32), "float32")
            T.clear(acc)
            for k in T.serial(window // 32):
                T.im2col(data, data_s, by, k, 3, 1, 1, 1)
                T.copy(kernel[k * 32, 0], kernel_s)
                T.gemm(data_s, kernel_s, acc)
            T.copy(acc, out[by * 32, 0])

    return conv


def lower(func, until: str, **options) -> tvm.IRModule:
    """Run the pipeline on ``func`` up to and including the pass named ``until``."""
    mod = tvm.IRModule({"gemm": func})
    for p in tt_passes(**options):
        mod = p(mod)
        if p.info.name == until:
            return mod
    raise ValueError(f"no pass named {until}")


def attr(mod: tvm.IRModule, key: str, func: str = "gemm"):
    return get_attr(mod[func], key)


def extern_calls(func) -> list[str]:
    """Names of the ``call_extern``s in ``func``'s body, in program order."""
    names = []
    tvm_ffi.structural_walk(
        func.body,
        (tirx.Evaluate, lambda e: names.append(e.value.args[0].value) if ops.is_extern(e) else None),
    )
    return names


@T.prim_func
def rescaled_sums(
    A: T.Tensor((64, 64), "float16"), B: T.Tensor((64, 64), "float16"), C: T.Tensor((64, 64), "float32")
):
    """Sums halved before each K step adds to them (flash attention's ``acc_o *= scores_scale`` before its
    second GEMM): C = A[:, :32] @ B[:32] / 2 + A[:, 32:] @ B[32:]."""
    with T.Kernel(1) as bx:
        a = T.alloc_shared((64, 32), "float16")
        b = T.alloc_shared((32, 64), "float16")
        acc = T.alloc_fragment((64, 64), "float32")
        T.clear(acc)
        for k in T.Pipelined(2):
            T.copy(A[bx * 64, k * 32], a)
            T.copy(B[k * 32, 0], b)
            for i, j in T.Parallel(64, 64):
                acc[i, j] *= 0.5
            T.gemm(a, b, acc)
        T.copy(acc, C[0, 0])


@T.prim_func
def cast_for_a_gemm(
    A: T.Tensor((64, 64), "float16"), B: T.Tensor((64, 64), "float16"), C: T.Tensor((64, 64), "float32")
):
    """Exponentials made in fp32 and cast to fp16 for a GEMM (flash attention's ``acc_s`` →
    ``acc_s_cast``), a row sum of them in between: C = exp2(A / 8) @ B, rowsum = exp2(A / 8).sum(1)."""
    with T.Kernel(1) as bx:
        a = T.alloc_shared((64, 64), "float16")
        b = T.alloc_shared((64, 64), "float16")
        s = T.alloc_fragment((64, 64), "float32")
        s_cast = T.alloc_fragment((64, 64), "float16")
        sums = T.alloc_fragment((64,), "float32")
        acc = T.alloc_fragment((64, 64), "float32")
        T.copy(A[bx * 64, 0], a)
        T.copy(B[0, 0], b)
        for i, j in T.Parallel(64, 64):
            s[i, j] = T.exp2(a[i, j] * 0.125)
        T.reduce_sum(s, sums, dim=1)
        T.copy(s, s_cast)
        T.clear(acc)
        T.gemm(s_cast, b, acc)
        for i, j in T.Parallel(64, 64):
            acc[i, j] = acc[i, j] / sums[i]
        T.copy(acc, C[0, 0])
