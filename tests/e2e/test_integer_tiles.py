"""Integer tiles, as TileLang programs use them: top-k's indices, float values cut to integers.

The compute engines hold an integer tile as float32 (exact to 2^24) and the SFPU's typecast turns it into
the Int32 words of the tensor it is written to (compiler/tilelang_tt/integer_tiles.py). TileLang's top-k
(examples/topk/example_topk.py, imports changed) gathers its k-th result into column k of its outputs
inside the k loop: those columns gather in a fragment and leave in one region after the loop. Every result
is compared with numpy; a statement that could leave the exact range is a located error."""

import numpy as np
import pytest
import tilelang_tt as tilelang
import tilelang_tt.language as T
from tilelang_tt.errors import TTCompileError


def tl_topk(logits, topk, blk_m, threads=128):
    M, N = T.const("M, N")
    dtype = T.float32

    logits: T.Tensor([M, N], dtype)
    topk_gates = T.empty([M, topk], dtype)
    topk_indices = T.empty([M, topk], T.int32)

    with T.Kernel(T.ceildiv(M, blk_m), threads=threads) as bx:
        logits_frag = T.alloc_fragment([blk_m, N], dtype=dtype)
        max_val = T.alloc_fragment([blk_m], dtype=dtype)
        expand_max_idx = T.alloc_fragment([blk_m, N], T.int32)
        max_idx = T.alloc_fragment([blk_m], T.int32)

        T.copy(logits[bx * blk_m, 0], logits_frag)

        for k in T.serial(topk):
            T.fill(expand_max_idx, -1)
            T.reduce_max(logits_frag, max_val, dim=1, clear=True)

            for i, j in T.Parallel(blk_m, N):
                expand_max_idx[i, j] = T.if_then_else(
                    max_val[i] == logits_frag[i, j], j, expand_max_idx[i, j]
                )

            T.reduce_max(expand_max_idx, max_idx, dim=1, clear=True)

            for i, j in T.Parallel(blk_m, N):
                logits_frag[i, j] = T.if_then_else(
                    max_val[i] == logits_frag[i, j], -10000.0, logits_frag[i, j]
                )

            for i in T.Parallel(blk_m):
                topk_gates[bx * blk_m + i, k] = max_val[i]
                topk_indices[bx * blk_m + i, k] = max_idx[i]

    return topk_gates, topk_indices


# Upstream decorates it with @tilelang.autotune(configs=...) and @tilelang.jit; here one jit per target.
TOPK = {target: tilelang.jit(target=target)(tl_topk) for target in ("wormhole", "blackhole")}


@pytest.mark.parametrize(
    "target, M, N, topk, blk_m",
    [("wormhole", 320, 128, 6, 64), ("blackhole", 300, 96, 8, 32)],  # upstream main()'s shape; ragged rows
)
def test_top_k_gives_the_largest_values_and_their_indices(target, M, N, topk, blk_m):
    rng = np.random.default_rng(0)
    logits = rng.random((M, N), dtype=np.float32)
    gates, indices = TOPK[target](logits, topk, blk_m=blk_m)
    expected = np.argsort(-logits, axis=1, kind="stable")[:, :topk]
    assert indices.dtype == np.int32, f"top-k indices on {target} came back as {indices.dtype}, not int32"
    wrong = np.argwhere(indices != expected)
    assert not len(wrong), f"top-k on {target}: {len(wrong)} wrong indices, first at {wrong[0].tolist()}"
    assert np.array_equal(gates, np.take_along_axis(logits, expected, axis=1)), f"top-k values on {target}"


def integer_program(kind: str, M: int = 64, N: int = 64):
    """An int32 result of each kind of value an integer tile can hold, or cannot."""

    @T.prim_func
    def main(X: T.Tensor((M, N), "float32"), Y: T.Tensor((M, N), "int32")):
        with T.Kernel(M // 32, threads=128) as bx:
            xs = T.alloc_fragment((32, N), "float32")
            ys = T.alloc_fragment((32, N), "int32")
            T.copy(X[bx * 32, 0], xs)
            if kind == "cut":  # float values cut toward zero, as C casts; positions and maxima of them
                for i, j in T.Parallel(32, N):
                    ys[i, j] = T.max(T.Cast("int32", xs[i, j] * 3.7), bx * 32 + i - j * 1000)
            elif kind == "sum of tiles":
                T.fill(ys, 1)
                for i, j in T.Parallel(32, N):
                    ys[i, j] = ys[i, j] + T.Cast("int32", xs[i, j])
            elif kind == "fill beyond 2^24":
                T.fill(ys, 1 << 25)
                for i, j in T.Parallel(32, N):
                    ys[i, j] = T.max(ys[i, j], T.Cast("int32", xs[i, j]))
            elif kind == "sum of a row":
                T.fill(ys, 1)
                sums = T.alloc_fragment((32,), "int32")
                T.reduce_sum(ys, sums, dim=1)
                for i, j in T.Parallel(32, N):
                    ys[i, j] = T.max(sums[i], T.Cast("int32", xs[i, j]))
            elif kind == "product of tiles":
                T.fill(ys, 1)
                zs = T.alloc_fragment((N, N), "int32")
                T.fill(zs, 2)
                T.gemm(ys, zs, ys)
            elif kind == "position beyond 2^24":
                for i, j in T.Parallel(32, N):
                    ys[i, j] = T.Cast("int32", xs[i, j]) * 0 + (bx * 32 + i) * 1000000 + j
            T.copy(ys, Y[bx * 32, 0])

    return main


@pytest.mark.parametrize("target", ["blackhole"])
def test_floats_cut_to_integers_toward_zero_reach_an_int32_tensor_exactly(target):
    x = ((np.random.default_rng(1).random((64, 64), dtype=np.float32) - 0.5) * 2000).astype(np.float32)
    y = tilelang.compile(integer_program("cut"), out_idx=[1], target=target)(x)
    positions = np.arange(64)[:, None] - np.arange(64)[None, :] * 1000
    expected = np.maximum((x * np.float32(3.7)).astype(np.int32), positions)
    assert y.dtype == np.int32 and np.array_equal(y, expected), (
        f"int32 values on {target}: {np.count_nonzero(y != expected)} differ from numpy's"
    )


@pytest.mark.parametrize(
    "kind, message",
    [
        ("sum of tiles", 'ys[i, j] + T.Cast("int32", xs[i, j]) is arithmetic on tile values'),
        ("fill beyond 2^24", "T.fill(ys, 33554432): ys is an integer tile buffer"),
        ("position beyond 2^24", "beyond 2^24"),
        ("sum of a row", "T.reduce_sum of ys, an integer tile buffer"),
        ("product of tiles", "T.gemm on ys, an integer tile buffer"),
    ],
)
def test_integer_tiles_that_could_leave_float32s_exact_range_are_located_errors(kind, message):
    with pytest.raises(TTCompileError) as error:
        tilelang.compile(integer_program(kind), out_idx=[1], target="wormhole")
    assert message in str(error.value), str(error.value)
    assert "test_integer_tiles.py:" in str(error.value), f"no DSL location in: {error.value}"
