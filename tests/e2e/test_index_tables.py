"""Tensors read one value at a time, as TileLang programs use them: tables read on the data-movement cores.

A block-sparse GEMM skips the K blocks its bool mask clears (TileLang's
examples/blocksparse_gemm/example_blocksparse_gemm.py, imports changed): the reader fetches only the
selected tiles and the compute kernel takes the same branches. A paged gather reads the pages an int32
block table names (a paged KV cache, MoE routing by token index). A grid index enters element-wise math
(one value of a float tensor per block does too: tests/e2e/test_attention_variants.py). Every result is
checked against numpy on both simulated architectures; misuses are located errors."""

import ml_dtypes
import numpy as np
import pytest
import tilelang_tt as tilelang
import tilelang_tt.language as T
from tilelang_tt.errors import TTCompileError

TARGETS = ["wormhole", "blackhole"]


def blocksparse_matmul(
    A,
    B,
    BlockMask,
    block_M,
    block_N,
    block_K,
    num_stages,
    thread_num,
    enable_rasteration,
    dtype=T.float16,
    accum_dtype=T.float32,
):
    M, N, K = T.const("M, N, K")
    block_mask_shape = (M // block_M, N // block_N, K // block_K)

    A: T.Tensor((M, K), dtype)
    B: T.Tensor((K, N), dtype)
    BlockMask: T.Tensor(block_mask_shape, "bool")
    C = T.empty((M, N), dtype)

    with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=thread_num) as (bx, by):
        A_shared = T.alloc_shared((block_M, block_K), dtype)
        B_shared = T.alloc_shared((block_K, block_N), dtype)
        C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
        C_shared = T.alloc_shared((block_M, block_N), dtype)

        T.use_swizzle(panel_size=10, enable=enable_rasteration)
        T.clear(C_local)

        for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
            if BlockMask[by, bx, k]:
                T.copy(A[by * block_M, k * block_K], A_shared)
                T.copy(B[k * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)

        T.copy(C_local, C_shared)
        T.copy(C_shared, C[by * block_M, bx * block_N])

    return C


# Upstream decorates it with @tilelang.autotune(configs=...) and @tilelang.jit; here one jit per target.
BLOCKSPARSE_MATMUL = {target: tilelang.jit(target=target)(blocksparse_matmul) for target in TARGETS}


def blocksparse_reference(a, b, mask, block_M, block_N, block_K):
    c = np.zeros((a.shape[0], b.shape[1]), np.float32)
    for i, j, k in zip(*np.nonzero(mask), strict=True):
        rows, cols = slice(i * block_M, (i + 1) * block_M), slice(j * block_N, (j + 1) * block_N)
        depth = slice(k * block_K, (k + 1) * block_K)
        c[rows, cols] += a[rows, depth].astype(np.float32) @ b[depth, cols].astype(np.float32)
    return c


@pytest.mark.parametrize("target", ["wormhole"])
def test_blocksparse_gemm_skips_the_blocks_its_mask_clears(target):
    M = N = K = 128
    block_M, block_N, block_K = 64, 64, 32
    rng = np.random.default_rng(1)
    a = rng.standard_normal((M, K)).astype(np.float16)
    b = rng.standard_normal((K, N)).astype(np.float16)
    mask = rng.random((M // block_M, N // block_N, K // block_K)) > 0.5
    mask[1, 0, :] = False  # an output block no K step reaches: zeros
    mask[0, 1, :] = True
    kernel = BLOCKSPARSE_MATMUL[target].compile(
        M=M,
        N=N,
        K=K,
        block_M=block_M,
        block_N=block_N,
        block_K=block_K,
        num_stages=2,
        thread_num=128,
        enable_rasteration=True,
    )
    c = kernel(a, b, mask).astype(np.float32)
    expected = blocksparse_reference(a, b, mask, block_M, block_N, block_K)
    error = np.abs(c - expected).max() / np.abs(expected).max()
    assert error < 1e-2, f"block-sparse GEMM on {target}: max relative error {error:.3g}"
    assert not c[64:, :64].any(), "the output block whose mask is all False must be zeros"


def blocksparse_matmul_all_of(M, N, K, condition_dim, block_M, block_N, block_K, dtype=T.float16):
    """TileLang's testing/python/language/test_tilelang_language_all_of.py blocksparse_matmul_global,
    imports changed (GPU arguments left out): a K step runs where every entry of its mask row is set."""
    block_mask_shape = (M // block_M, N // block_N, K // block_K, condition_dim)

    @T.prim_func
    def main(
        A: T.Tensor((M, K), dtype),
        B: T.Tensor((K, N), dtype),
        BlockMask: T.Tensor(block_mask_shape, "bool"),
        C: T.Tensor((M, N), dtype),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), T.float32)
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):
                if T.all_of(BlockMask[by, bx, k, :]):
                    T.copy(A[by * block_M, k * block_K], A_shared)
                    T.copy(B[k * block_K, bx * block_N], B_shared)
                    T.gemm(A_shared, B_shared, C_local)
            T.copy(C_local, C[by * block_M, bx * block_N])

    return main


def test_blocksparse_gemm_runs_the_steps_whose_whole_mask_row_is_set():
    target = "blackhole"
    kernel = tilelang.compile(blocksparse_matmul_all_of(128, 128, 128, 2, 64, 64, 32), target=target)
    rng = np.random.default_rng(2)
    a = rng.standard_normal((128, 128)).astype(np.float16)
    b = rng.standard_normal((128, 128)).astype(np.float16)
    mask = rng.random((2, 2, 4, 2)) > 0.3
    c = np.zeros((128, 128), np.float16)
    kernel(a, b, mask, c)
    expected = blocksparse_reference(a, b, mask.all(axis=-1), 64, 64, 32)
    error = np.abs(c.astype(np.float32) - expected).max() / np.abs(expected).max()
    assert error < 1e-2, f"T.all_of block-sparse GEMM on {target}: max relative error {error:.3g}"


# TileLang's examples/blocksparse_attention/example_tilelang_block_sparse_attn.py, imports changed (upstream
# decorates it with @tilelang.jit(out_idx=[4], pass_configs=...); here the test compiles it per target). It
# copies its row of the bool block mask into a fragment, ``T.copy(BlockSparseMask[bz, by, bx, :],
# block_mask)``, and tests ``block_mask[k]`` per key block: read from the index table in place.
# SeerAttention's copy of it (examples/seer_attention/block_sparse_attn_tilelang.py) differs only in an
# int8 mask.
def blocksparse_flashattn(batch, heads, seq_len, dim, downsample_len, is_causal, block_mask_dtype=T.bool):
    block_M = 64
    block_N = 64
    num_stages = 1
    threads = 128
    scale = (1.0 / dim) ** 0.5 * 1.44269504  # log2(e)
    shape = [batch, heads, seq_len, dim]
    block_mask_shape = [batch, heads, downsample_len, downsample_len]

    dtype = T.float16
    accum_dtype = T.float32

    def kernel_func(block_M, block_N, num_stages, threads):
        @T.prim_func
        def blocksparse_flashattn(
            Q: T.Tensor(shape, dtype),
            K: T.Tensor(shape, dtype),
            V: T.Tensor(shape, dtype),
            BlockSparseMask: T.Tensor(block_mask_shape, block_mask_dtype),
            Output: T.Tensor(shape, dtype),
        ):
            with T.Kernel(T.ceildiv(seq_len, block_M), heads, batch, threads=threads) as (bx, by, bz):
                Q_shared = T.alloc_shared([block_M, dim], dtype)
                K_shared = T.alloc_shared([block_N, dim], dtype)
                V_shared = T.alloc_shared([block_N, dim], dtype)
                O_shared = T.alloc_shared([block_M, dim], dtype)
                acc_s = T.alloc_fragment([block_M, block_N], accum_dtype)
                acc_s_cast = T.alloc_fragment([block_M, block_N], dtype)
                acc_o = T.alloc_fragment([block_M, dim], accum_dtype)
                scores_max = T.alloc_fragment([block_M], accum_dtype)
                scores_max_prev = T.alloc_fragment([block_M], accum_dtype)
                scores_scale = T.alloc_fragment([block_M], accum_dtype)
                scores_sum = T.alloc_fragment([block_M], accum_dtype)
                logsum = T.alloc_fragment([block_M], accum_dtype)
                block_mask = T.alloc_fragment([downsample_len], block_mask_dtype)

                T.copy(Q[bz, by, bx * block_M : (bx + 1) * block_M, :], Q_shared)
                T.fill(acc_o, 0)
                T.fill(logsum, 0)
                T.fill(scores_max, -T.infinity(accum_dtype))

                T.copy(BlockSparseMask[bz, by, bx, :], block_mask)

                loop_range = (
                    T.min(T.ceildiv(seq_len, block_N), T.ceildiv((bx + 1) * block_M, block_N))
                    if is_causal
                    else T.ceildiv(seq_len, block_N)
                )

                for k in T.Pipelined(loop_range, num_stages=num_stages):
                    if block_mask[k] != 0:
                        T.copy(K[bz, by, k * block_N : (k + 1) * block_N, :], K_shared)
                        if is_causal:
                            for i, j in T.Parallel(block_M, block_N):
                                acc_s[i, j] = T.if_then_else(
                                    bx * block_M + i >= k * block_N + j, 0, -T.infinity(acc_s.dtype)
                                )
                        else:
                            T.clear(acc_s)
                        T.gemm(Q_shared, K_shared, acc_s, transpose_B=True, policy=T.GemmWarpPolicy.FullRow)

                        T.copy(scores_max, scores_max_prev)
                        T.fill(scores_max, -T.infinity(accum_dtype))
                        T.reduce_max(acc_s, scores_max, dim=1, clear=False)
                        # (upstream's commented-out Check_inf step left out)
                        for i in T.Parallel(block_M):
                            scores_scale[i] = T.exp2(scores_max_prev[i] * scale - scores_max[i] * scale)
                        for i, j in T.Parallel(block_M, block_N):
                            # Instead of computing exp(x - max), we compute exp2(x * log_2(e) -
                            # max * log_2(e)) This allows the compiler to use the ffma
                            # instruction instead of fadd and fmul separately.
                            acc_s[i, j] = T.exp2(acc_s[i, j] * scale - scores_max[i] * scale)
                        T.reduce_sum(acc_s, scores_sum, dim=1)
                        for i in T.Parallel(block_M):
                            logsum[i] = logsum[i] * scores_scale[i] + scores_sum[i]
                        T.copy(acc_s, acc_s_cast)

                        for i, j in T.Parallel(block_M, dim):
                            acc_o[i, j] *= scores_scale[i]

                        T.copy(V[bz, by, k * block_N : (k + 1) * block_N, :], V_shared)
                        T.gemm(acc_s_cast, V_shared, acc_o, policy=T.GemmWarpPolicy.FullRow)

                for i, j in T.Parallel(block_M, dim):
                    acc_o[i, j] /= logsum[i]
                T.copy(acc_o, O_shared)
                T.copy(O_shared, Output[bz, by, bx * block_M : (bx + 1) * block_M, :])

        return blocksparse_flashattn

    return kernel_func(block_M, block_N, num_stages, threads)


def blocksparse_attention_reference(q, k, v, block_mask, block, is_causal):
    q, k, v = (x.astype(np.float64) for x in (q, k, v))
    scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(q.shape[-1])
    visible = np.kron(block_mask, np.ones((block, block))).astype(bool)
    if is_causal:
        visible &= np.tril(np.ones(scores.shape[-2:], bool))
    scores = np.where(visible, scores, -np.inf)
    weights = np.exp(scores - scores.max(-1, keepdims=True))
    return weights @ v / weights.sum(-1, keepdims=True)


@pytest.mark.parametrize(
    "target, is_causal, mask_dtype",
    [("wormhole", True, "bool"), ("blackhole", False, "int8")],
)
def test_blocksparse_attention_reads_its_copied_mask_row_in_place(target, is_causal, mask_dtype):
    batch, heads, seq_len, dim, block = 1, 2, 256, 64, 64
    blocks = seq_len // block
    rng = np.random.default_rng(3)
    mask = rng.random((batch, heads, blocks, blocks)) < 0.5
    mask[..., np.arange(blocks), np.arange(blocks)] = True  # every query block sees its own keys
    func = blocksparse_flashattn(batch, heads, seq_len, dim, blocks, is_causal, mask_dtype)
    kernel = tilelang.compile(func, out_idx=[4], target=target)
    q, k, v = (rng.standard_normal((batch, heads, seq_len, dim)).astype(np.float16) for _ in range(3))
    want = blocksparse_attention_reference(q, k, v, mask, block, is_causal)
    error = np.abs(kernel(q, k, v, mask.astype(mask_dtype)).astype(np.float64) - want).max()
    assert error < 1e-2, f"max error {error:.3g}"


def paged_gather(num_pages, page, pages_per_seq, batch, dim, dtype=T.bfloat16):
    """Each sequence's pages, in the order its row of BlockTable names them, copied out contiguously."""

    @T.prim_func
    def main(
        KCache: T.Tensor((num_pages * page, dim), dtype),
        BlockTable: T.Tensor((batch, pages_per_seq), T.int32),
        Out: T.Tensor((batch * pages_per_seq * page, dim), dtype),
    ):
        with T.Kernel(pages_per_seq, batch) as (bx, by):
            K_shared = T.alloc_shared((page, dim), dtype)
            T.copy(KCache[BlockTable[by, bx] * page, 0], K_shared)
            T.copy(K_shared, Out[(by * pages_per_seq + bx) * page, 0])

    return main


@pytest.mark.parametrize("target", ["blackhole"])
def test_pages_named_by_an_int32_block_table_are_gathered(target):
    num_pages, page, pages_per_seq, batch, dim = 8, 32, 3, 2, 64
    kernel = tilelang.compile(
        paged_gather(num_pages, page, pages_per_seq, batch, dim), out_idx=[-1], target=target
    )
    rng = np.random.default_rng(2)
    cache = rng.standard_normal((num_pages * page, dim)).astype(ml_dtypes.bfloat16)
    table = rng.permutation(num_pages)[: batch * pages_per_seq].reshape(batch, pages_per_seq).astype(np.int32)
    out = kernel(cache, table)
    expected = cache.reshape(num_pages, page, dim)[table.reshape(-1)].reshape(-1, dim)
    assert np.array_equal(out, expected), f"pages {table.tolist()} gathered wrongly on {target}"
    # A page number outside the cache (past its end, or negative) reads zeros, as a region past a tensor's
    # edge does, and never another page.
    table[0, 1], table[1, 2] = num_pages + 5, -1
    out = kernel(cache, table)
    assert not out[page : 2 * page].any() and not out[-page:].any(), "out-of-range pages must read zeros"
    assert np.array_equal(out[:page], expected[:page]), "the in-range pages must still be gathered"


@T.prim_func
def scaled_by_block_index(A: T.Tensor((128, 64), "float32"), B: T.Tensor((128, 64), "float32")):
    with T.Kernel(4) as bx:
        A_s = T.alloc_shared((32, 64), "float32")
        B_f = T.alloc_fragment((32, 64), "float32")
        T.copy(A[bx * 32, 0], A_s)
        for i, j in T.Parallel(32, 64):
            B_f[i, j] = A_s[i, j] * T.Cast("float32", bx + 1) - T.Cast("float32", bx) * 0.5
        T.copy(B_f, B[bx * 32, 0])


def test_a_grid_index_in_element_wise_math():
    kernel = tilelang.compile(scaled_by_block_index, out_idx=[1], target="wormhole")
    a = np.random.default_rng(4).standard_normal((128, 64)).astype(np.float32)
    block = np.repeat(np.arange(4, dtype=np.float32), 32)[:, None]
    expected = a * (block + 1) - block * 0.5
    assert np.allclose(kernel(a), expected, rtol=1e-6, atol=1e-6), "B = A * (bx + 1) - bx / 2 per block"


@T.prim_func
def store_depends_on_mask(
    A: T.Tensor((64, 64), "float32"), Mask: T.Tensor((2, 1), "bool"), B: T.Tensor((64, 64), "float32")
):
    with T.Kernel(2) as bx:
        S = T.alloc_shared((32, 64), "float32")
        T.copy(A[bx * 32, 0], S)
        if Mask[bx, 0]:
            T.copy(S, B[bx * 32, 0])


@T.prim_func  # an int8 tensor: an int32 one the kernel only writes is a tensor of integer tiles
def store_to_table(A: T.Tensor((64, 64), "float32"), Idx: T.Tensor((2, 1), "int8")):
    with T.Kernel(2) as bx:
        S = T.alloc_shared((32, 64), "float32")
        T.copy(A[bx * 32, 0], S)
        Idx[bx, 0] = 1


@pytest.mark.parametrize(
    "program, message, statement",
    [
        (
            store_depends_on_mask,
            "a store to a global tensor depends on an index table's value",
            "if Mask[bx, 0]",
        ),
        (
            store_to_table,
            "a store to Idx: integer and bool tensors are read-only index tables",
            "T.Kernel(2)",
        ),
    ],
)
def test_index_table_misuses_are_located_errors(program, message, statement):
    with pytest.raises(TTCompileError, match=message) as err:
        tilelang.compile(program)
    assert err.value.lineno is not None, f"the error names no DSL line: {err.value}"
