"""Per-row statistics stored to and read from (B, H, S) tensors one row at a time, as TileLang's attention
programs keep their log-sum-exp: the forward of examples/flash_attention/example_mha_bwd_bhsd.py (output
and ``lse``), the backward's preprocess (``Delta``, the row sums of O * dO) and the backward's read of
``lse`` broadcast over a block's rows. Each grid point's row shares its tiles with the other heads' rows, so
these tensors are stored a page per row and each core moves only its own row (row_copies.py); run on both
simulated architectures against numpy."""

import ml_dtypes
import numpy as np
import pytest
import tilelang_tt as tilelang
import tilelang_tt.language as T
from targets import one_target_each
from tilelang_tt.errors import TTCompileError

TARGETS = ["wormhole", "blackhole"]
LOG2E = 1.44269504


def flashattn_fwd(batch, heads, seq_len, dim, is_causal, block_M, block_N):
    """flashattn_fwd of TileLang's examples/flash_attention/example_mha_bwd_bhsd.py (upstream decorates it
    with @tilelang.jit(out_idx=[3, 4], pass_configs=...); here the test compiles it per target)."""
    scale = (1.0 / dim) ** 0.5 * 1.44269504  # log2(e)
    shape = [batch, heads, seq_len, dim]
    dtype = T.float16
    accum_dtype = T.float32

    @T.prim_func
    def flash_fwd(
        Q: T.Tensor(shape, dtype),  # type: ignore
        K: T.Tensor(shape, dtype),  # type: ignore
        V: T.Tensor(shape, dtype),  # type: ignore
        Output: T.Tensor(shape, dtype),  # type: ignore
        lse: T.Tensor([batch, heads, seq_len], accum_dtype),  # type: ignore
    ):
        with T.Kernel(T.ceildiv(seq_len, block_M), heads, batch, threads=128) as (bx, by, bz):
            Q_shared = T.alloc_shared([block_M, dim], dtype)
            K_shared = T.alloc_shared([block_N, dim], dtype)
            V_shared = T.alloc_shared([block_N, dim], dtype)
            acc_s = T.alloc_fragment([block_M, block_N], accum_dtype)
            acc_s_cast = T.alloc_fragment([block_M, block_N], dtype)
            acc_o = T.alloc_fragment([block_M, dim], accum_dtype)
            scores_max = T.alloc_fragment([block_M], accum_dtype)
            scores_max_prev = T.alloc_fragment([block_M], accum_dtype)
            scores_scale = T.alloc_fragment([block_M], accum_dtype)
            scores_sum = T.alloc_fragment([block_M], accum_dtype)
            logsum = T.alloc_fragment([block_M], accum_dtype)

            T.copy(Q[bz, by, bx * block_M : (bx + 1) * block_M, :], Q_shared)
            T.fill(acc_o, 0)
            T.fill(logsum, 0)
            T.fill(scores_max, -T.infinity(accum_dtype))
            loop_range = T.ceildiv((bx + 1) * block_M, block_N) if is_causal else T.ceildiv(seq_len, block_N)
            for k in T.Pipelined(loop_range, num_stages=1):
                T.copy(K[bz, by, k * block_N : (k + 1) * block_N, :], K_shared)
                if is_causal:
                    for i, j in T.Parallel(block_M, block_N):
                        acc_s[i, j] = T.if_then_else(
                            bx * block_M + i >= k * block_N + j, 0, -T.infinity(acc_s.dtype)
                        )
                else:
                    for i, j in T.Parallel(block_M, block_N):
                        acc_s[i, j] = T.if_then_else(k * block_N + j >= seq_len, -T.infinity(acc_s.dtype), 0)
                T.gemm(Q_shared, K_shared, acc_s, transpose_B=True, policy=T.GemmWarpPolicy.FullRow)
                T.copy(V[bz, by, k * block_N : (k + 1) * block_N, :], V_shared)
                T.copy(scores_max, scores_max_prev)
                T.reduce_max(acc_s, scores_max, dim=1, clear=False)
                for i in T.Parallel(block_M):
                    scores_max[i] = T.max(scores_max[i], scores_max_prev[i])
                for i in T.Parallel(block_M):
                    scores_scale[i] = T.exp2(scores_max_prev[i] * scale - scores_max[i] * scale)
                for i, j in T.Parallel(block_M, dim):
                    acc_o[i, j] *= scores_scale[i]
                for i, j in T.Parallel(block_M, block_N):
                    acc_s[i, j] = T.exp2(acc_s[i, j] * scale - scores_max[i] * scale)
                T.copy(acc_s, acc_s_cast)
                T.gemm(acc_s_cast, V_shared, acc_o, policy=T.GemmWarpPolicy.FullRow)
                T.reduce_sum(acc_s, scores_sum, dim=1)
                for i in T.Parallel(block_M):
                    logsum[i] = logsum[i] * scores_scale[i] + scores_sum[i]
            for i, j in T.Parallel(block_M, dim):
                acc_o[i, j] /= logsum[i]
            T.copy(acc_o, Output[bz, by, bx * block_M : (bx + 1) * block_M, :])
            for i in T.Parallel(block_M):
                logsum[i] = T.log2(logsum[i]) + scores_max[i] * scale
            T.copy(logsum, lse[bz, by, bx * block_M : (bx + 1) * block_M])

    return flash_fwd


def flashattn_bwd_preprocess(batch, heads, seq_len, dim):
    """flashattn_bwd_preprocess of the same example (upstream: @tilelang.jit(out_idx=[2], ...))."""
    dtype = T.float16
    accum_dtype = T.float32
    shape = [batch, heads, seq_len, dim]
    blk = 32

    @T.prim_func
    def flash_bwd_prep(
        O: T.Tensor(shape, dtype),  # type: ignore
        dO: T.Tensor(shape, dtype),  # type: ignore
        Delta: T.Tensor([batch, heads, seq_len], accum_dtype),  # type: ignore
    ):
        with T.Kernel(heads, T.ceildiv(seq_len, blk), batch) as (bx, by, bz):
            o = T.alloc_fragment([blk, blk], dtype)
            do = T.alloc_fragment([blk, blk], dtype)
            acc = T.alloc_fragment([blk, blk], accum_dtype)
            delta = T.alloc_fragment([blk], accum_dtype)
            T.clear(acc)
            for k in range(T.ceildiv(dim, blk)):
                T.copy(O[bz, bx, by * blk : (by + 1) * blk, k * blk : (k + 1) * blk], o)
                T.copy(dO[bz, bx, by * blk : (by + 1) * blk, k * blk : (k + 1) * blk], do)
                for i, j in T.Parallel(blk, blk):
                    acc[i, j] += o[i, j] * do[i, j]
            T.reduce_sum(acc, delta, 1)
            T.copy(delta, Delta[bz, bx, by * blk : (by + 1) * blk])

    return flash_bwd_prep


def probabilities(batch, heads, rows, cols, block_rows, block_cols):
    """P = exp2(S - lse[j]) over blocks of S, the backward's ``qkT[i, j] = T.exp2(qkT[i, j] * scale -
    lse_shared[j])``: a row of lse read per block and broadcast down its rows; (batch, head) from one grid
    index, as TileLang's decoding kernels split theirs."""

    @T.prim_func
    def main(
        S: T.Tensor([batch, heads, rows, cols], "float32"),
        lse: T.Tensor([batch, heads, cols], "float32"),
        P: T.Tensor([batch, heads, rows, cols], "float32"),
    ):
        with T.Kernel(T.ceildiv(cols, block_cols), rows // block_rows, batch * heads) as (bx, by, bz):
            bid = bz // heads
            hid = bz % heads
            s = T.alloc_fragment([block_rows, block_cols], "float32")
            lse_shared = T.alloc_shared([block_cols], "float32")
            T.copy(
                S[bid, hid, by * block_rows : (by + 1) * block_rows, bx * block_cols : (bx + 1) * block_cols],
                s,
            )
            T.copy(lse[bid, hid, bx * block_cols : (bx + 1) * block_cols], lse_shared)
            for i, j in T.Parallel(block_rows, block_cols):
                s[i, j] = T.exp2(s[i, j] - lse_shared[j])
            T.copy(
                s,
                P[bid, hid, by * block_rows : (by + 1) * block_rows, bx * block_cols : (bx + 1) * block_cols],
            )

    return main


def _attention_reference(q, k, v, is_causal):
    """(output, log2-sum-exp of the scaled scores) in float64."""
    q, k, v = (x.astype(np.float64) for x in (q, k, v))
    scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(q.shape[-1])
    if is_causal:
        scores = np.where(np.tril(np.ones(scores.shape[-2:], bool)), scores, -np.inf)
    top = scores.max(-1, keepdims=True)
    weights = np.exp(scores - top)
    total = weights.sum(-1, keepdims=True)
    return weights @ v / total, (np.log(total) + top)[..., 0] * LOG2E


@pytest.mark.parametrize("target, is_causal", [("wormhole", False), ("blackhole", True)])
def test_attention_forward_stores_its_log_sum_exp_row_by_row(target, is_causal):
    """Three heads: a core's lse row shares its tiles with the other heads' rows, written by other cores."""
    batch, heads, seq_len, dim = 2, 3, 128, 64
    kernel = tilelang.compile(
        flashattn_fwd(batch, heads, seq_len, dim, is_causal, 64, 64), out_idx=[3, 4], target=target
    )
    rng = np.random.default_rng(0)
    q, k, v = (rng.standard_normal((batch, heads, seq_len, dim)).astype(np.float16) for _ in range(3))
    output, lse = kernel(q, k, v)
    want_output, want_lse = _attention_reference(q, k, v, is_causal)
    assert lse.shape == (batch, heads, seq_len) and lse.dtype == np.float32
    lse_error = np.abs(lse - want_lse).max()
    assert lse_error < 1e-3, f"log-sum-exp off by {lse_error:.3g}"
    output_error = np.abs(output.astype(np.float64) - want_output).max()
    assert output_error < 1e-2, f"output off by {output_error:.3g}"
    assert next(t for t in kernel.plan["tensors"] if t["name"] == "lse")["page_layout"] == "row_major"


@pytest.mark.parametrize("target", ["wormhole"])
def test_backward_preprocess_stores_delta_row_by_row(target):
    """Delta = rowsum(O * dO): grid (heads, row blocks, batch), so the row a grid point stores is picked by
    blockIdx.x and blockIdx.z and its columns by blockIdx.y."""
    batch, heads, seq_len, dim = 2, 3, 96, 64
    kernel = tilelang.compile(
        flashattn_bwd_preprocess(batch, heads, seq_len, dim), out_idx=[2], target=target
    )
    rng = np.random.default_rng(1)
    o, do = (rng.standard_normal((batch, heads, seq_len, dim)).astype(np.float16) for _ in range(2))
    delta = kernel(o, do)
    want = (o.astype(np.float64) * do.astype(np.float64)).sum(-1)
    error = np.abs(delta - want).max()
    assert error < 1e-3, f"Delta off by {error:.3g}"


@pytest.mark.parametrize("target, cols", [("blackhole", 128), ("wormhole", 96)])
def test_a_row_read_per_block_broadcasts_down_its_rows(target, cols):
    """At 96 columns the last 64-column block reaches past the rows' end: the row read leaves its last 32
    values zero (not the next row's), the tile store drops them."""
    batch, heads, rows = 2, 3, 64
    kernel = tilelang.compile(probabilities(batch, heads, rows, cols, 32, 64), out_idx=[2], target=target)
    rng = np.random.default_rng(2)
    s = rng.standard_normal((batch, heads, rows, cols)).astype(np.float32)
    lse = rng.standard_normal((batch, heads, cols)).astype(np.float32)
    want = np.exp2(s.astype(np.float64) - lse[:, :, None, :])
    error = np.abs(kernel(s, lse) - want).max() / np.abs(want).max()
    assert error < 1e-3, f"relative error {error:.3g}"


def column_sums(batch, heads, rows, cols, block_cols):
    """S[b, h, j] = sum over i of X[b, h, i, j], block_cols columns per grid point, stored one row each."""

    @T.prim_func
    def main(
        X: T.Tensor([batch, heads, rows, cols], "float32"), S: T.Tensor([batch, heads, cols], "float32")
    ):
        with T.Kernel(T.ceildiv(cols, block_cols), heads, batch) as (bx, by, bz):
            x = T.alloc_fragment([rows, block_cols], "float32")
            s = T.alloc_fragment([block_cols], "float32")
            T.copy(X[bz, by, :, bx * block_cols : (bx + 1) * block_cols], x)
            T.reduce_sum(x, s, dim=0)
            T.copy(s, S[bz, by, bx * block_cols : (bx + 1) * block_cols])

    return main


def test_a_row_store_past_the_rows_end_drops_what_lies_beyond():
    """96 columns in blocks of 64: the last block's row store would run 32 values into the next head's row;
    it writes only the runs inside its own."""
    batch, heads, rows, cols = 2, 3, 32, 96
    kernel = tilelang.compile(column_sums(batch, heads, rows, cols, 64), out_idx=[1], target="blackhole")
    x = np.random.default_rng(6).standard_normal((batch, heads, rows, cols)).astype(np.float32)
    error = np.abs(kernel(x) - x.astype(np.float64).sum(2)).max()
    assert error < 1e-3, f"column sums off by {error:.3g}"


def row_plus_block(rows, cols, picked, dtype="float32"):
    """O = G's 32-row block plus its row ``picked`` (of the block), broadcast down: G is copied one row at a
    time and as a block of 32 rows, so it is stored a page per row and the block is read row by row."""

    @T.prim_func
    def main(G: T.Tensor((rows, cols), dtype), O: T.Tensor((rows, cols), "float32")):
        with T.Kernel(rows // 32) as bx:
            r = T.alloc_fragment((1, cols), "float32")
            t = T.alloc_fragment((32, cols), "float32")
            T.copy(G[bx * 32 + picked : bx * 32 + picked + 1, 0:cols], r)
            T.copy(G[bx * 32 : bx * 32 + 32, 0:cols], t)
            for i, j in T.Parallel(32, cols):
                t[i, j] = t[i, j] + r[0, j]
            T.copy(t, O[bx * 32 : bx * 32 + 32, 0:cols])

    return main


@pytest.mark.parametrize("target", ["blackhole"])
def test_a_tensor_copied_as_a_row_and_as_tiles_reads_its_block_row_by_row(target):
    """Each of the block's 32 rows lands in its place in the tiles' faces (two 16-value runs per row per
    tile): the sums are exact."""
    kernel = tilelang.compile(row_plus_block(64, 96, 5), out_idx=[1], target=target)
    g = np.random.default_rng(8).standard_normal((64, 96)).astype(np.float32)
    blocks = g.reshape(2, 32, 96)
    want = (blocks + blocks[:, 5:6, :]).reshape(64, 96)
    np.testing.assert_array_equal(kernel(g), want)


def split_rows_plus_second(batch, heads, splits, cols, dtype):
    """S[b, h] = the sum of X[b, h]'s ``splits`` rows plus its row 1: X is copied one row at a time (a row
    inside other rows' tiles: stored a page per row) and as a block of rows (the shape of split-KV
    decoding's log-sum-exp table)."""

    @T.prim_func
    def main(X: T.Tensor((batch, heads, splits, cols), dtype), S: T.Tensor((batch, heads, cols), "float32")):
        with T.Kernel(heads, batch) as (by, bz):
            x = T.alloc_fragment((splits, cols), "float32")
            second = T.alloc_fragment((cols,), "float32")
            s = T.alloc_fragment((cols,), "float32")
            T.copy(X[bz, by, :, :], x)
            T.copy(X[bz, by, 1, :], second)
            T.reduce_sum(x, s, dim=0)
            for j in T.Parallel(cols):
                s[j] = s[j] + second[j]
            T.copy(s, S[bz, by, :])

    return main


@pytest.mark.parametrize("target", TARGETS)
def test_16_bit_rows_are_read_whole_where_dram_reads_need_64_bytes(target):
    """float16 rows: 16 values are 32 bytes, but Blackhole reads DRAM from 64-byte boundaries, so there each
    row's 32 values land in the tile's free lower half and are copied to their faces within L1."""
    kernel = tilelang.compile(split_rows_plus_second(2, 3, 4, 64, "float16"), out_idx=[1], target=target)
    assert next(t for t in kernel.plan["tensors"] if t["name"] == "X")["page_layout"] == "row_major"
    x = np.random.default_rng(9).standard_normal((2, 3, 4, 64)).astype(np.float16)
    want = x.astype(np.float32).sum(2) + x[:, :, 1, :].astype(np.float32)
    np.testing.assert_allclose(kernel(x), want, rtol=1e-6, atol=1e-6)


def test_more_16_bit_rows_than_blackhole_can_stage_is_a_located_error():
    """A block of 32 float16 rows cannot land in its tiles' free half on Blackhole; Wormhole reads them."""
    with pytest.raises(
        TTCompileError, match="reads DRAM from 64-byte boundaries only, and more than 16 rows"
    ) as err:
        tilelang.compile(row_plus_block(64, 96, 5, "float16"), out_idx=[1], target="blackhole")
    assert "test_row_copies.py" in str(err.value), err.value
    kernel = tilelang.compile(row_plus_block(64, 96, 5, "float16"), out_idx=[1], target="wormhole")
    g = np.random.default_rng(9).standard_normal((64, 96)).astype(np.float16)
    blocks = g.astype(np.float32).reshape(2, 32, 96)
    np.testing.assert_array_equal(kernel(g), (blocks + blocks[:, 5:6, :]).reshape(64, 96))


def rows_scaled_and_summed(rows, cols, block_rows=32):
    """Y[r, :] = X[r, :] * G and S = sum over r of X[r, :] * G, one row at a time as TileLang's LayerNorm
    backward (examples/norm/layernorm.py) walks its block: each (1, cols) statement stores Y's row and
    adds into the (cols,) accumulator, which the T.Parallel(1, cols) variable i does not index."""

    @T.prim_func
    def main(
        X: T.Tensor((rows, cols), "bfloat16"),
        G: T.Tensor((cols,), "bfloat16"),
        Y: T.Tensor((rows, cols), "bfloat16"),
        S: T.Tensor((cols,), "float32"),
    ):
        with T.Kernel(T.ceildiv(rows, block_rows)) as bx:
            x_s = T.alloc_shared((1, cols), "bfloat16")
            y_s = T.alloc_shared((1, cols), "bfloat16")
            g_s = T.alloc_shared((cols,), "bfloat16")
            acc = T.alloc_fragment((cols,), "float32")
            T.copy(G, g_s)
            T.clear(acc)
            for k in T.serial(block_rows):
                row = bx * block_rows + k
                T.copy(X[row, 0], x_s)
                for i, j in T.Parallel(1, cols):
                    y_s[i, j] = x_s[i, j] * g_s[j]
                    acc[j] += T.Cast("float32", x_s[i, j]) * T.Cast("float32", g_s[j])
                T.copy(y_s, Y[row, 0])
            for j in T.Parallel(cols):
                T.atomic_add(S[j], acc[j])

    return main


@pytest.mark.parametrize("target", ["wormhole"])
def test_a_row_statement_adds_into_an_accumulator_its_row_variable_does_not_index(target):
    rows, cols = 64, 128
    kernel = tilelang.compile(rows_scaled_and_summed(rows, cols), out_idx=[2], target=target)
    rng = np.random.default_rng(8)
    x, g = (rng.standard_normal(shape).astype(ml_dtypes.bfloat16) for shape in ((rows, cols), (cols,)))
    s = np.zeros(cols, np.float32)
    y = kernel(x, g, s)
    product = x.astype(np.float32) * g.astype(np.float32)
    assert np.array_equal(np.asarray(y, np.float32), product.astype(ml_dtypes.bfloat16).astype(np.float32))
    error = np.abs(s - product.astype(np.float64).sum(0)).max()
    assert error < 1e-3, f"the accumulated column sums are off by {error:.3g}"


# TileLang's examples/norm/layernorm.py backward kernel, imports changed only: one row per iteration of a
# T.serial loop over the block's rows, its mean and rstd read as named values (``m_v = Mean[row]``: each a
# row of the column vector Mean, copied alone), dX stored row by row, dGamma and dBeta accumulated in a
# (D,) fragment the (1, D) statement does not index by its row variable, then atomically added.
@tilelang.jit(out_idx=[-3])
def _layernorm_bwd(N, D, blk_m=32, threads=256, in_dtype="bfloat16"):
    assert N % blk_m == 0, f"N={N} must be a multiple of blk_m={blk_m}"
    accum_dtype = "float"

    @T.prim_func
    def main(
        DY: T.Tensor((N, D), in_dtype),
        X: T.Tensor((N, D), in_dtype),
        gamma: T.Tensor((D,), in_dtype),
        Mean: T.Tensor((N,), accum_dtype),
        Rstd: T.Tensor((N,), accum_dtype),
        DX: T.Tensor((N, D), in_dtype),
        DGamma: T.Tensor((D,), accum_dtype),
        DBeta: T.Tensor((D,), accum_dtype),
    ):
        with T.Kernel(T.ceildiv(N, blk_m), threads=threads) as bx:
            DY_smem = T.alloc_shared((1, D), in_dtype)
            X_smem = T.alloc_shared((1, D), in_dtype)
            G_smem = T.alloc_shared((D,), in_dtype)
            DX_smem = T.alloc_shared((1, D), in_dtype)

            x_hat = T.alloc_fragment((1, D), accum_dtype)
            dx_hat = T.alloc_fragment((1, D), accum_dtype)
            dx_hat_x_hat = T.alloc_fragment((1, D), accum_dtype)
            sum_dx_hat = T.alloc_fragment((1,), accum_dtype)
            sum_dx_hat_x_hat = T.alloc_fragment((1,), accum_dtype)
            dgamma_acc = T.alloc_fragment((D,), accum_dtype)
            dbeta_acc = T.alloc_fragment((D,), accum_dtype)

            T.copy(gamma, G_smem)
            T.clear(dgamma_acc)
            T.clear(dbeta_acc)

            inv_D = T.float32(1.0) / T.Cast(accum_dtype, D)

            for k in T.serial(blk_m):
                row = bx * blk_m + k
                T.copy(DY[row, 0], DY_smem)
                T.copy(X[row, 0], X_smem)
                m_v = Mean[row]
                r_v = Rstd[row]

                for i, j in T.Parallel(1, D):
                    xv = T.Cast(accum_dtype, X_smem[i, j])
                    dy_v = T.Cast(accum_dtype, DY_smem[i, j])
                    g_v = T.Cast(accum_dtype, G_smem[j])
                    x_hat[i, j] = (xv - m_v) * r_v
                    dx_hat[i, j] = dy_v * g_v
                    dx_hat_x_hat[i, j] = dx_hat[i, j] * x_hat[i, j]

                T.reduce_sum(dx_hat, sum_dx_hat, dim=1)
                T.reduce_sum(dx_hat_x_hat, sum_dx_hat_x_hat, dim=1)

                for i, j in T.Parallel(1, D):
                    c1 = sum_dx_hat_x_hat[0] * inv_D
                    c2 = sum_dx_hat[0] * inv_D
                    dx_v = r_v * (dx_hat[i, j] - c2 - x_hat[i, j] * c1)
                    DX_smem[i, j] = T.Cast(in_dtype, dx_v)
                    dy_v = T.Cast(accum_dtype, DY_smem[i, j])
                    dgamma_acc[j] += dy_v * x_hat[i, j]
                    dbeta_acc[j] += dy_v

                T.copy(DX_smem, DX[row, 0])

            for j in T.Parallel(D):
                T.atomic_add(DGamma[j], dgamma_acc[j], memory_order="relaxed")
                T.atomic_add(DBeta[j], dbeta_acc[j], memory_order="relaxed")

    return main


@pytest.mark.parametrize("target", ["blackhole"])
def test_layernorm_backward_reads_each_rows_statistics_as_named_values(target):
    n, d = 64, 256
    kernel = tilelang.compile(_layernorm_bwd.get_tir(n, d), out_idx=[-3], target=target)
    rng = np.random.default_rng(9)
    x, dy = (rng.standard_normal((n, d)).astype(ml_dtypes.bfloat16) for _ in range(2))
    gamma = rng.standard_normal(d).astype(ml_dtypes.bfloat16)
    xf, dyf, gf = (a.astype(np.float64) for a in (x, dy, gamma))
    mean, rstd = xf.mean(1), 1 / np.sqrt(xf.var(1) + 1e-5)
    dgamma, dbeta = np.zeros(d, np.float32), np.zeros(d, np.float32)
    dx = kernel(dy, x, gamma, mean.astype(np.float32), rstd.astype(np.float32), dgamma, dbeta)
    x_hat = (xf - mean[:, None]) * rstd[:, None]
    dx_hat = dyf * gf
    want_dx = rstd[:, None] * (
        dx_hat - dx_hat.mean(1, keepdims=True) - x_hat * (dx_hat * x_hat).mean(1, keepdims=True)
    )
    error = np.abs(np.asarray(dx, np.float64) - want_dx).max() / np.abs(want_dx).max()
    assert error < 1e-2, f"dX relative error {error:.3g}"
    assert np.abs(dgamma - (dyf * x_hat).sum(0)).max() < 1e-3 * np.abs((dyf * x_hat).sum(0)).max()
    assert np.abs(dbeta - dyf.sum(0)).max() < 1e-4, "dBeta: column sums of dY"


def rows_minus_named_value(rows, cols, dtype, also_as_tiles=False):
    """Y[r, :] = X[r, :] - M[r], a row per iteration with ``m_v = M[r]`` read as a named value; with
    ``also_as_tiles`` M is copied as a block of tiles too."""

    @T.prim_func
    def main(
        X: T.Tensor((rows, cols), "float32"),
        M: T.Tensor((rows,), dtype),
        Y: T.Tensor((rows, cols), "float32"),
    ):
        with T.Kernel(T.ceildiv(rows, 32)) as bx:
            x_s = T.alloc_shared((1, cols), "float32")
            m_block = T.alloc_fragment((32,), dtype)
            if also_as_tiles:
                T.copy(M[bx * 32 : bx * 32 + 32], m_block)
            for k in T.serial(32):
                row = bx * 32 + k
                T.copy(X[row, 0], x_s)
                m_v = M[row]
                for i, j in T.Parallel(1, cols):
                    x_s[i, j] = x_s[i, j] - T.Cast("float32", m_v)
                T.copy(x_s, Y[row, 0])

    return main


@pytest.mark.parametrize("dtype, target", one_target_each(["float32", "float16"]))
def test_a_value_per_row_of_a_vector_is_read_alone(target, dtype):
    """Each m_v is one value of M, stored as a column a page per row: one transfer from the page's aligned
    start, whatever the arch's DRAM alignment and however few bytes the value holds."""
    kernel = tilelang.compile(rows_minus_named_value(64, 96, dtype), out_idx=[2], target=target)
    rng = np.random.default_rng(10)
    x, m = rng.standard_normal((64, 96)).astype(np.float32), rng.standard_normal(64).astype(dtype)
    np.testing.assert_array_equal(kernel(x, m), x - m.astype(np.float32)[:, None])


def test_a_vector_read_per_row_and_as_tiles_is_a_located_error():
    with pytest.raises(
        TTCompileError, match="M is copied one row at a time, but its rows hold 1 values"
    ) as err:
        tilelang.compile(rows_minus_named_value(64, 96, "float32", also_as_tiles=True), out_idx=[2])
    assert "test_row_copies.py" in str(err.value), err.value
