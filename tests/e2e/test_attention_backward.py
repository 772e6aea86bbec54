"""Flash-attention backward as TileLang writes it (examples/flash_attention/example_mha_bwd_bhsd.py): one grid
point per key block walks the query blocks and adds its share of their gradient into ``dQ`` with
``T.atomic_add`` at a position that moves with that loop. The compiler makes those adds stores into a
workspace of shares, one copy of ``dQ`` per key block, and adds the copies into ``dQ`` in a second program
(atomic_shares.py). The kernels below are upstream's, imports changed only; ``lse`` and ``Delta`` (the
forward's and the preprocess's outputs, whose kernels tests/e2e/test_row_copies.py runs) come from numpy
here, so the gradients test the backward alone, against numpy: MHA causal on Blackhole (the causal mask
leaves some shares zero), GQA on Wormhole."""

import numpy as np
import pytest
import tilelang_tt as tilelang
import tilelang_tt.language as T

LOG2E = 1.44269504


def make_dq_layout(dQ):
    # atomicAdd can not be vectorized, so we need to reorder dq to match the 8x8 gemm fragment
    return T.Layout(dQ.shape, lambda b, h, l, d: [b, h, l // 8, d // 8, (d % 2), 4 * (l % 8) + (d % 8) // 2])


def flashattn_bwd_postprocess(batch, heads, seq_len, dim):
    """Upstream decorates it with @tilelang.jit(out_idx=[1], pass_configs=...); the test compiles it."""
    dtype = T.float16
    accum_dtype = T.float32
    shape = [batch, heads, seq_len, dim]
    blk = 64

    @T.prim_func
    def flash_bwd_post(
        dQ: T.Tensor(shape, accum_dtype),  # type: ignore
        dQ_out: T.Tensor(shape, dtype),  # type: ignore
    ):
        with T.Kernel(T.ceildiv(seq_len, blk), heads, batch, threads=128) as (bx, by, bz):
            T.annotate_layout({dQ: make_dq_layout(dQ)})
            T.copy(
                dQ[bz, by, bx * blk : (bx + 1) * blk, :],
                dQ_out[bz, by, bx * blk : (bx + 1) * blk, :],
            )

    return flash_bwd_post


def flashattn_bwd(batch, heads, seq_len, dim, is_causal, block_M, block_N):
    """Upstream decorates it with @tilelang.jit(pass_configs=...); the test compiles it."""
    sm_scale = (1.0 / dim) ** 0.5
    scale = (1.0 / dim) ** 0.5 * 1.44269504  # log2(e)
    shape = [batch, heads, seq_len, dim]
    dtype = T.float16
    accum_dtype = T.float32

    @T.prim_func
    def flash_bwd(
        Q: T.Tensor(shape, dtype),  # type: ignore
        K: T.Tensor(shape, dtype),  # type: ignore
        V: T.Tensor(shape, dtype),  # type: ignore
        dO: T.Tensor(shape, dtype),  # type: ignore
        lse: T.Tensor([batch, heads, seq_len], accum_dtype),  # type: ignore
        Delta: T.Tensor([batch, heads, seq_len], accum_dtype),  # type: ignore
        dQ: T.Tensor(shape, accum_dtype),  # type: ignore
        dK: T.Tensor(shape, dtype),  # type: ignore
        dV: T.Tensor(shape, dtype),  # type: ignore
    ):
        with T.Kernel(heads, T.ceildiv(seq_len, block_M), batch, threads=128) as (bx, by, bz):
            K_shared = T.alloc_shared([block_M, dim], dtype)
            dsT_shared = T.alloc_shared([block_M, block_N], dtype)
            # should not store K to local if dim is large
            # K_local = T.alloc_fragment([block_M, dim], dtype)
            # K_local_T = T.alloc_fragment([block_M, dim], dtype)
            # V_local = T.alloc_fragment([block_M, dim], dtype)
            q = T.alloc_shared([block_N, dim], dtype)
            V_shared = T.alloc_shared([block_M, dim], dtype)
            qkT = T.alloc_fragment([block_M, block_N], accum_dtype)
            dsT = T.alloc_fragment([block_M, block_N], accum_dtype)
            qkT_cast = T.alloc_fragment([block_M, block_N], dtype)
            dsT_cast = T.alloc_fragment([block_M, block_N], dtype)
            lse_shared = T.alloc_shared([block_N], accum_dtype)
            delta = T.alloc_shared([block_N], accum_dtype)
            do = T.alloc_shared([block_N, dim], dtype)
            dv = T.alloc_fragment([block_M, dim], accum_dtype)
            dk = T.alloc_fragment([block_M, dim], accum_dtype)
            dq = T.alloc_fragment([block_N, dim], accum_dtype)
            dv_shared = T.alloc_shared([block_M, dim], dtype)
            dk_shared = T.alloc_shared([block_M, dim], dtype)

            T.annotate_layout(
                {
                    dQ: make_dq_layout(dQ),
                }
            )
            T.copy(K[bz, bx, by * block_M : (by + 1) * block_M, :], K_shared)
            T.copy(V[bz, bx, by * block_M : (by + 1) * block_M, :], V_shared)
            T.clear(dv)
            T.clear(dk)
            loop_st = T.floordiv(by * block_M, block_N) if is_causal else 0
            loop_ed = T.ceildiv(seq_len, block_N)
            for k in T.Pipelined(loop_st, loop_ed, num_stages=2):
                T.copy(Q[bz, bx, k * block_N : (k + 1) * block_N, :], q)
                T.clear(qkT)
                T.gemm(K_shared, q, qkT, transpose_B=True, policy=T.GemmWarpPolicy.FullRow)
                T.copy(lse[bz, bx, k * block_N : (k + 1) * block_N], lse_shared)
                for i, j in T.Parallel(block_M, block_N):
                    qkT[i, j] = T.exp2(qkT[i, j] * scale - lse_shared[j])
                if is_causal:
                    for i, j in T.Parallel(block_M, block_N):
                        qkT[i, j] = T.if_then_else(by * block_M + i <= k * block_N + j, qkT[i, j], 0)
                # We don't need to handle OOB positions for non-causal cases,
                # since OOB values won't affect other positions here.
                T.copy(dO[bz, bx, k * block_N : (k + 1) * block_N, :], do)
                T.clear(dsT)
                T.gemm(V_shared, do, dsT, transpose_B=True, policy=T.GemmWarpPolicy.FullRow)
                T.copy(qkT, qkT_cast)
                T.gemm(qkT_cast, do, dv, policy=T.GemmWarpPolicy.FullRow)

                T.copy(Delta[bz, bx, k * block_N : (k + 1) * block_N], delta)

                for i, j in T.Parallel(block_M, block_N):
                    dsT_cast[i, j] = qkT[i, j] * (dsT[i, j] - delta[j]) * sm_scale
                T.gemm(dsT_cast, q, dk, policy=T.GemmWarpPolicy.FullRow)

                T.copy(dsT_cast, dsT_shared)
                T.clear(dq)
                T.gemm(dsT_shared, K_shared, dq, transpose_A=True)
                for i, j in T.Parallel(block_N, dim):
                    T.atomic_add(dQ[bz, bx, k * block_N + i, j], dq[i, j])
            T.copy(dv, dv_shared)
            T.copy(dk, dk_shared)
            T.copy(dv_shared, dV[bz, bx, by * block_M : (by + 1) * block_M, :])
            T.copy(dk_shared, dK[bz, bx, by * block_M : (by + 1) * block_M, :])

    return flash_bwd


def make_dq_layout_bshd(dQ):
    """The GQA example's make_dq_layout (BSHD), renamed beside the BHSD example's."""
    # atomicAdd can not be vectorized, so we need to reorder dq to match the 8x8 gemm fragment
    return T.Layout(dQ.shape, lambda b, l, h, d: [b, l // 8, h, d // 8, (d % 2), 4 * (l % 8) + (d % 8) // 2])


def flashattn_bwd_atomic_add(
    batch, heads, seq_len, dim_qk, dim_v, is_causal, block_M, block_N, threads=256, num_stages=2, groups=1
):
    """examples/flash_attention/example_gqa_bwd.py's atomic-add variant (BSHD; heads in groups sharing a
    key/value head). Upstream decorates it with @tilelang.jit(pass_configs=...); the test compiles it."""
    sm_scale = (1.0 / dim_qk) ** 0.5
    scale = (1.0 / dim_qk) ** 0.5 * 1.44269504  # log2(e)
    head_kv = heads // groups
    q_shape = [batch, seq_len, heads, dim_qk]
    k_shape = [batch, seq_len, head_kv, dim_qk]
    v_shape = [batch, seq_len, head_kv, dim_v]
    dtype = T.float16
    accum_dtype = T.float32

    @T.prim_func
    def flash_bwd(
        Q: T.Tensor(q_shape, dtype),  # type: ignore
        K: T.Tensor(k_shape, dtype),  # type: ignore
        V: T.Tensor(v_shape, dtype),  # type: ignore
        dO: T.Tensor([batch, seq_len, heads, dim_v], dtype),  # type: ignore
        lse: T.Tensor([batch, heads, seq_len], accum_dtype),  # type: ignore
        Delta: T.Tensor([batch, heads, seq_len], accum_dtype),  # type: ignore
        dQ: T.Tensor(q_shape, accum_dtype),  # type: ignore
        dK: T.Tensor(k_shape, accum_dtype),  # type: ignore
        dV: T.Tensor(v_shape, accum_dtype),  # type: ignore
    ):
        with T.Kernel(heads, T.ceildiv(seq_len, block_M), batch, threads=threads) as (bx, by, bz):
            K_shared = T.alloc_shared([block_M, dim_qk], dtype)
            dsT_shared = T.alloc_shared([block_M, block_N], dtype)
            q = T.alloc_shared([block_N, dim_qk], dtype)
            V_shared = T.alloc_shared([block_M, dim_v], dtype)
            qkT = T.alloc_fragment([block_M, block_N], accum_dtype)
            dsT = T.alloc_fragment([block_M, block_N], accum_dtype)
            qkT_cast = T.alloc_fragment([block_M, block_N], dtype)
            dsT_cast = T.alloc_fragment([block_M, block_N], dtype)
            lse_shared = T.alloc_shared([block_N], accum_dtype)
            delta = T.alloc_shared([block_N], accum_dtype)
            do = T.alloc_shared([block_N, dim_v], dtype)
            dv = T.alloc_fragment([block_M, dim_v], accum_dtype)
            dk = T.alloc_fragment([block_M, dim_qk], accum_dtype)
            dq = T.alloc_fragment([block_N, dim_qk], accum_dtype)
            dk_shared = T.alloc_shared([block_M, dim_qk], accum_dtype)
            dv_shared = T.alloc_shared([block_M, dim_v], accum_dtype)

            T.annotate_layout(
                {
                    dQ: make_dq_layout_bshd(dQ),
                }
            )

            T.copy(K[bz, by * block_M : (by + 1) * block_M, bx // groups, :], K_shared)
            T.copy(V[bz, by * block_M : (by + 1) * block_M, bx // groups, :], V_shared)
            T.clear(dv)
            T.clear(dk)
            loop_st = T.floordiv(by * block_M, block_N) if is_causal else 0
            loop_ed = T.ceildiv(seq_len, block_N)
            for k in T.Pipelined(loop_st, loop_ed, num_stages=num_stages):
                T.copy(Q[bz, k * block_N : (k + 1) * block_N, bx, :], q)
                T.clear(qkT)
                T.gemm(K_shared, q, qkT, transpose_B=True, policy=T.GemmWarpPolicy.FullRow)
                T.copy(lse[bz, bx, k * block_N : (k + 1) * block_N], lse_shared)
                for i, j in T.Parallel(block_M, block_N):
                    qkT[i, j] = T.exp2(qkT[i, j] * scale - lse_shared[j])
                if is_causal:
                    for i, j in T.Parallel(block_M, block_N):
                        qkT[i, j] = T.if_then_else(by * block_M + i <= k * block_N + j, qkT[i, j], 0)
                T.copy(dO[bz, k * block_N : (k + 1) * block_N, bx, :], do)
                T.clear(dsT)
                T.gemm(V_shared, do, dsT, transpose_B=True, policy=T.GemmWarpPolicy.FullRow)
                T.copy(qkT, qkT_cast)
                T.gemm(qkT_cast, do, dv, policy=T.GemmWarpPolicy.FullRow)

                T.copy(Delta[bz, bx, k * block_N : (k + 1) * block_N], delta)

                for i, j in T.Parallel(block_M, block_N):
                    dsT_cast[i, j] = qkT[i, j] * (dsT[i, j] - delta[j]) * sm_scale
                T.gemm(dsT_cast, q, dk, policy=T.GemmWarpPolicy.FullRow)

                T.copy(dsT_cast, dsT_shared)
                T.clear(dq)
                T.gemm(dsT_shared, K_shared, dq, transpose_A=True)
                for i, j in T.Parallel(block_N, dim_qk):
                    T.atomic_add(dQ[bz, k * block_N + i, bx, j], dq[i, j])
            T.copy(dv, dv_shared)
            T.atomic_add(dV[bz, by * block_M : (by + 1) * block_M, bx // groups, :], dv_shared)
            T.copy(dk, dk_shared)
            T.atomic_add(dK[bz, by * block_M : (by + 1) * block_M, bx // groups, :], dk_shared)

    return flash_bwd


def _reference(q, k, v, do, is_causal):
    """(lse in log2 units, Delta, dQ, dK, dV) of softmax attention, in float64."""
    q, k, v, do = (x.astype(np.float64) for x in (q, k, v, do))
    sm_scale = 1.0 / np.sqrt(q.shape[-1])
    scores = q @ k.transpose(0, 1, 3, 2) * sm_scale
    if is_causal:
        scores = np.where(np.tril(np.ones(scores.shape[-2:], bool)), scores, -np.inf)
    top = scores.max(-1, keepdims=True)
    weights = np.exp(scores - top)
    total = weights.sum(-1, keepdims=True)
    p = weights / total
    o = p @ v
    delta = (o * do).sum(-1)
    ds = p * (do @ v.transpose(0, 1, 3, 2) - delta[..., None])
    dq = ds @ k * sm_scale
    dk = ds.transpose(0, 1, 3, 2) @ q * sm_scale
    dv = p.transpose(0, 1, 3, 2) @ do
    return (np.log(total) + top)[..., 0] * LOG2E, delta, dq, dk, dv


@pytest.mark.parametrize("target, is_causal", [("blackhole", True)])
def test_dq_shares_of_each_key_block_add_up_to_the_gradient(target, is_causal):
    """Three key blocks (so three shares of each dQ row block, fewer under the causal mask) and two heads."""
    batch, heads, seq_len, dim = 1, 2, 192, 64
    kernel = tilelang.compile(flashattn_bwd(batch, heads, seq_len, dim, is_causal, 64, 64), target=target)
    stages = [(stage.name, stage.workspaces) for stage in kernel.stages]
    assert stages == [("flash_bwd_kernel1", ("dQ_shares",)), ("flash_bwd_kernel2", ("dQ_shares",))], stages
    post = tilelang.compile(flashattn_bwd_postprocess(batch, heads, seq_len, dim), out_idx=[1], target=target)
    rng = np.random.default_rng(3)
    q, k, v, do = (rng.standard_normal((batch, heads, seq_len, dim)).astype(np.float16) for _ in range(4))
    lse, delta, want_dq, want_dk, want_dv = _reference(q, k, v, do, is_causal)
    shape = (batch, heads, seq_len, dim)
    dq = np.zeros(shape, np.float32)  # upstream zeroes it: the adds accumulate into it
    dk, dv = np.empty(shape, np.float16), np.empty(shape, np.float16)
    kernel(q, k, v, do, lse.astype(np.float32), delta.astype(np.float32), dq, dk, dv)
    for name, got, want in (("dQ", post(dq), want_dq), ("dK", dk, want_dk), ("dV", dv, want_dv)):
        error = np.abs(got.astype(np.float64) - want).max() / np.abs(want).max()
        assert error < 1e-2, f"{name} off by {error:.3g} of its largest value"


@pytest.mark.parametrize("target, is_causal", [("wormhole", False)])
def test_gqa_heads_of_a_group_take_turns_adding_dk_and_dv(target, is_causal):
    """Four query heads in two groups: dQ by shares (one copy per key block), dK and dV, which a group's
    heads add into together (``bx // groups``), by the group's heads taking turns on its core."""
    batch, heads, groups, seq_len, dim = 1, 4, 2, 128, 64
    kernel = tilelang.compile(
        flashattn_bwd_atomic_add(batch, heads, seq_len, dim, dim, is_causal, 64, 32, groups=groups),
        target=target,
    )
    rng = np.random.default_rng(4)
    q, do = (rng.standard_normal((batch, seq_len, heads, dim)).astype(np.float16) for _ in range(2))
    k, v = (rng.standard_normal((batch, seq_len, heads // groups, dim)).astype(np.float16) for _ in range(2))
    bhsd = lambda x: x.transpose(0, 2, 1, 3)  # noqa: E731
    shared = lambda x: np.repeat(bhsd(x), groups, axis=1)  # noqa: E731  (each head's key/value head)
    lse, delta, want_dq, want_dk, want_dv = _reference(bhsd(q), shared(k), shared(v), bhsd(do), is_causal)
    per_group = lambda x: bhsd(x.reshape(batch, heads // groups, groups, seq_len, dim).sum(2))  # noqa: E731
    dq = np.zeros(q.shape, np.float32)
    dk, dv = np.zeros(k.shape, np.float32), np.zeros(v.shape, np.float32)
    kernel(q, k, v, do, lse.astype(np.float32), delta.astype(np.float32), dq, dk, dv)
    for name, got, want in (
        ("dQ", dq, bhsd(want_dq)),
        ("dK", dk, per_group(want_dk)),
        ("dV", dv, per_group(want_dv)),
    ):
        error = np.abs(got.astype(np.float64) - want).max() / np.abs(want).max()
        assert error < 1e-2, f"{name} off by {error:.3g} of its largest value"
