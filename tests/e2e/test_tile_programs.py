"""Tile programs beyond GEMM, compiled, run on the mock device and compared with numpy: every element-wise
operation and broadcast, reductions, fills and copies between scopes, and the example of each family on
both simulated architectures. This target depends on //compiler:tilelang_tt alone (the public target).
Programs of a few blocks whose lowering does not read the target (vector broadcasts, reshaped views) run
on one architecture each."""

import importlib.util
import math
import os

import ml_dtypes
import numpy as np
import pytest
import tilelang_tt as tilelang
import tilelang_tt.language as T
from programs import affine_blocks, cast_for_a_gemm, centred_rows, rescaled_sums
from targets import one_target_each

M, N = 64, 96
RNG = np.random.default_rng(0)


def _binary_program(body, dtype="float32", acc="float32"):
    @T.prim_func
    def program(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(1, threads=128) as bx:
            A_s = T.alloc_shared((M, N), dtype)
            B_s = T.alloc_shared((M, N), dtype)
            C_f = T.alloc_fragment((M, N), acc)
            T.copy(A[0, 0], A_s)
            T.copy(B[0, 0], B_s)
            for i, j in T.Parallel(M, N):
                C_f[i, j] = body(A_s[i, j], B_s[i, j])
            T.copy(C_f, C[0, 0])

    return program


def _four_outputs_program(f0, f1, f2, f3):
    """One kernel, four element-wise statements storing straight to four outputs (fewer builds per test)."""

    @T.prim_func
    def program(
        A: T.Tensor((M, N), "float32"),
        B: T.Tensor((M, N), "float32"),
        C0: T.Tensor((M, N), "float32"),
        C1: T.Tensor((M, N), "float32"),
        C2: T.Tensor((M, N), "float32"),
        C3: T.Tensor((M, N), "float32"),
    ):
        with T.Kernel(1, threads=128) as bx:
            A_s = T.alloc_shared((M, N), "float32")
            B_s = T.alloc_shared((M, N), "float32")
            T.copy(A[0, 0], A_s)
            T.copy(B[0, 0], B_s)
            for i, j in T.Parallel(M, N):
                C0[i, j] = f0(A_s[i, j], B_s[i, j])
                C1[i, j] = f1(A_s[i, j], B_s[i, j])
                C2[i, j] = f2(A_s[i, j], B_s[i, j])
                C3[i, j] = f3(A_s[i, j], B_s[i, j])

    return program


# (DSL body over a, b; numpy reference): every operand is read so no loaded tile is unused.
ELEMENTWISE = {
    "add": (lambda a, b: a + b, lambda a, b: a + b),
    "sub": (lambda a, b: a - b, lambda a, b: a - b),
    "mul": (lambda a, b: a * b, lambda a, b: a * b),
    "div": (lambda a, b: a / (T.abs(b) + 1), lambda a, b: a / (np.abs(b) + 1)),
    "scalars": (lambda a, b: (2.0 - a) * 0.5 + b / 4.0 - 1.0, lambda a, b: (2 - a) * 0.5 + b / 4 - 1),
    "reciprocal": (lambda a, b: 3.0 / (T.abs(a) + 1) + b, lambda a, b: 3 / (np.abs(a) + 1) + b),
    "max_min": (
        lambda a, b: T.max(a, b) + T.min(a, 0.25) + T.min(b, a),
        lambda a, b: np.maximum(a, b) + np.minimum(a, 0.25) + np.minimum(b, a),
    ),
    "relu": (lambda a, b: T.max(a, 0) + b, lambda a, b: np.maximum(a, 0) + b),
    "exp": (lambda a, b: T.exp(a) - T.exp2(b), lambda a, b: np.exp(a) - np.exp2(b)),
    "log": (
        lambda a, b: T.log(T.abs(a) + 1) + T.log2(T.abs(b) + 1),
        lambda a, b: np.log(np.abs(a) + 1) + np.log2(np.abs(b) + 1),
    ),
    "sqrt": (
        lambda a, b: T.sqrt(T.abs(a)) + T.rsqrt(T.abs(b) + 1),
        lambda a, b: np.sqrt(np.abs(a)) + 1 / np.sqrt(np.abs(b) + 1),
    ),
    "tanh_sigmoid": (lambda a, b: T.tanh(a) * T.sigmoid(b), lambda a, b: np.tanh(a) / (1 + np.exp(-b))),
    "gelu": (
        lambda a, b: 0.5 * a * (1 + T.tanh(0.7978845608 * (a + 0.044715 * a * a * a))) + b,
        lambda a, b: 0.5 * a * (1 + np.tanh(0.7978845608 * (a + 0.044715 * a**3))) + b,
    ),
    "compare_where": (lambda a, b: T.if_then_else(a > b, a * 2.0, b), lambda a, b: np.where(a > b, a * 2, b)),
    "leaky_relu": (
        lambda a, b: T.if_then_else(a > 0.0, a, 0.01 * a) + b,
        lambda a, b: np.where(a > 0, a, 0.01 * a) + b,
    ),
    "cast": (lambda a, b: T.Cast("float32", a) + T.Cast("float32", b), lambda a, b: a + b),
    "sin_cos": (lambda a, b: T.sin(a) * T.cos(b), lambda a, b: np.sin(a) * np.cos(b)),
    "tan": (lambda a, b: T.tan(a * 0.3) + b, lambda a, b: np.tan(a * np.float32(0.3)) + b),
    "inverse_trigonometry": (
        lambda a, b: T.asin(a / (T.abs(a) + 1)) + T.acos(b / (T.abs(b) + 1)) + T.atan(a * b),
        lambda a, b: np.arcsin(a / (np.abs(a) + 1)) + np.arccos(b / (np.abs(b) + 1)) + np.arctan(a * b),
    ),
    "hyperbolic": (
        lambda a, b: T.sinh(a) - T.cosh(b) + T.asinh(a * b) + T.acosh(T.abs(a) + 1),
        lambda a, b: np.sinh(a) - np.cosh(b) + np.arcsinh(a * b) + np.arccosh(np.abs(a) + 1),
    ),
    "atanh_erf_log1p": (
        lambda a, b: T.atanh(a / (T.abs(a) + 1)) + T.erf(b) + T.log1p(T.abs(a * b)),
        lambda a, b: np.arctanh(a / (np.abs(a) + 1)) + erf(b) + np.log1p(np.abs(a * b)),
    ),
    "rounding": (
        lambda a, b: T.floor(a * 3.0)
        + T.ceil(b * 3.0) * 10
        + T.trunc(a * 5.0) * 100
        + T.round(b * 7.0, "ties-away-from-zero") * 1000,
        lambda a, b: np.floor(a * 3) + np.ceil(b * 3) * 10 + np.trunc(a * 5) * 100 + _round(b * 7) * 1000,
    ),
    "powers": (
        lambda a, b: T.pow(T.abs(a) + 0.5, 1.5) + T.pow(b, 3.0) + T.pow(b, -2.0) * 0.01,
        lambda a, b: (np.abs(a) + 0.5) ** 1.5 + b**3 + 0.01 / b**2,
    ),
    "exp10_log10": (
        lambda a, b: T.__exp10(a * 0.5) + T.log10(T.abs(b) + 1),  # the fast-math spelling, the same function
        lambda a, b: 10 ** (a * np.float32(0.5)) + np.log10(np.abs(b) + 1),
    ),
}


def erf(x):
    """The error function in float64, as numpy has none."""
    return np.vectorize(math.erf)(x.astype(np.float64))


def _round(x):
    """C's roundf, T.round's "ties-away-from-zero": halves away from zero (numpy's rint takes them to
    even)."""
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


GROUPS = [sorted(ELEMENTWISE)[k : k + 4] for k in range(0, len(ELEMENTWISE), 4)]


@pytest.mark.parametrize("names", GROUPS, ids=["+".join(g) for g in GROUPS])
def test_elementwise_matches_numpy(names):
    kernel = tilelang.compile(
        _four_outputs_program(*(ELEMENTWISE[n][0] for n in names)), out_idx=[2, 3, 4, 5]
    )
    a, b = (RNG.standard_normal((M, N)).astype(np.float32) for _ in range(2))
    for name, got in zip(names, kernel(a, b), strict=True):
        expected = ELEMENTWISE[name][1](a, b)
        rel = float(np.abs(got - expected).max() / np.abs(expected).max())
        assert rel <= 1e-4, f"{name}: max relative error {rel:.3e} against numpy (fp32 needs ≤ 1e-4)"


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_16_bit_tiles_use_the_fpu_and_match_numpy(dtype):
    kernel = tilelang.compile(_binary_program(lambda a, b: a * b + a, dtype, dtype), out_idx=[-1])
    assert "mul_tiles(" in kernel.get_kernel_source(
        "compute.cpp"
    )  # the FPU path, checked by its numbers below
    np_dtype = ml_dtypes.bfloat16 if dtype == "bfloat16" else np.float16
    a, b = (RNG.standard_normal((M, N)).astype(np_dtype) for _ in range(2))
    expected = a.astype(np.float32) * b.astype(np.float32) + a.astype(np.float32)
    got = kernel(a, b).astype(np.float32)
    rel = float(np.abs(got - expected).max() / np.abs(expected).max())
    assert rel <= 1e-2, f"{dtype}: max relative error {rel:.3e}"


@T.prim_func
def clamp_below(A: T.Tensor((64, 64), "float32"), C: T.Tensor((64, 64), "float32")):
    with T.Kernel(1, threads=128) as bx:
        A_s = T.alloc_shared((64, 64), "float32")
        C_f = T.alloc_fragment((64, 64), "float32")
        T.copy(A[0, 0], A_s)
        for i, j in T.Parallel(64, 64):
            C_f[i, j] = T.min(A_s[i, j], 0.3)
        T.copy(C_f, C[0, 0])


def test_a_constant_operand_in_a_register_counts_against_dst():
    # 4 fp32 tiles, DST holds 4: min with a constant needs 2 registers per tile, so 2 tiles per acquire.
    kernel = tilelang.compile(clamp_below, out_idx=[-1])
    a = RNG.standard_normal((64, 64)).astype(np.float32)
    np.testing.assert_array_equal(kernel(a), np.minimum(a, np.float32(0.3)))


@T.prim_func
def broadcasts(
    X: T.Tensor((M, N), "float32"),
    w: T.Tensor((N,), "float32"),
    v: T.Tensor((M,), "float32"),
    Y: T.Tensor((M, N), "float32"),
):
    with T.Kernel(1, threads=128) as bx:
        X_s = T.alloc_shared((M, N), "float32")
        w_s = T.alloc_shared((N,), "float32")
        v_s = T.alloc_shared((M,), "float32")
        Y_f = T.alloc_fragment((M, N), "float32")
        T.copy(X[0, 0], X_s)
        T.copy(w[0], w_s)
        T.copy(v[0], v_s)
        for i, j in T.Parallel(M, N):
            Y_f[i, j] = X_s[i, j] * w_s[j] - v_s[i]
        T.copy(Y_f, Y[0, 0])


@pytest.mark.parametrize("target", ["blackhole"])
def test_row_and_column_vectors_broadcast_over_tiles(target):
    kernel = tilelang.compile(broadcasts, out_idx=[-1], target=target)
    x = RNG.standard_normal((M, N)).astype(np.float32)
    w, v = RNG.standard_normal(N).astype(np.float32), RNG.standard_normal(M).astype(np.float32)
    np.testing.assert_allclose(kernel(x, w, v), x * w[None, :] - v[:, None], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("target", ["blackhole"])
def test_row_vectors_are_read_one_row_per_tile_and_kept_across_blocks(target, monkeypatch):
    """Only each tile's first row of gamma and shift is read (the rest of their pages hold NaN under the
    poison fill), gamma once per core for all its blocks: the broadcasts still match numpy."""
    monkeypatch.setenv("RUNTIME_MOCK_L1_FILL", "poison")
    kernel = tilelang.compile(affine_blocks, out_idx=[-1], target=target)
    bf16 = ml_dtypes.bfloat16
    x = RNG.standard_normal((576, 256)).astype(bf16)
    g, b = RNG.standard_normal(32).astype(bf16), RNG.standard_normal(256).astype(np.float32)
    expected = x.astype(np.float32) * np.tile(g.astype(np.float32), 8)[None, :] + b[None, :]
    np.testing.assert_allclose(kernel(x, g, b), expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("target", ["wormhole"])
def test_blocks_a_second_pass_reads_again_are_kept_from_the_first(target, monkeypatch):
    """The second loop's blocks of X are the first loop's, kept in L1 (read once from DRAM): every engine
    that reads them (the reduction, the FPU product, the SFPU expression) reads its step's block."""
    monkeypatch.setenv("RUNTIME_MOCK_L1_FILL", "poison")
    kernel = tilelang.compile(centred_rows, out_idx=[-1], target=target)
    x = RNG.standard_normal((96, 512)).astype(ml_dtypes.bfloat16)
    x32 = x.astype(np.float32)
    expected = (x32 - x32.mean(axis=1, keepdims=True)) ** 2
    np.testing.assert_allclose(kernel(x), expected, rtol=1e-4, atol=1e-4)


def _reduce_program(dim, clear):
    """Every reduction kind over ``dim`` of one tile, into five outputs; ``clear=False`` starts from 0.5."""
    out_len = M if dim == 1 else N

    @T.prim_func
    def program(
        A: T.Tensor((M, N), "float32"),
        R_sum: T.Tensor((out_len,), "float32"),
        R_max: T.Tensor((out_len,), "float32"),
        R_min: T.Tensor((out_len,), "float32"),
        R_abssum: T.Tensor((out_len,), "float32"),
        R_absmax: T.Tensor((out_len,), "float32"),
    ):
        with T.Kernel(1, threads=128) as bx:
            A_s = T.alloc_shared((M, N), "float32")
            r_sum = T.alloc_fragment((out_len,), "float32")
            r_max = T.alloc_fragment((out_len,), "float32")
            r_min = T.alloc_fragment((out_len,), "float32")
            r_abssum = T.alloc_fragment((out_len,), "float32")
            r_absmax = T.alloc_fragment((out_len,), "float32")
            T.copy(A[0, 0], A_s)
            if not clear:
                T.fill(r_sum, 0.5)
                T.fill(r_max, 0.5)
                T.fill(r_min, 0.5)
                T.fill(r_abssum, 0.5)
                T.fill(r_absmax, 0.5)
            T.reduce_sum(A_s, r_sum, dim=dim, clear=clear)
            T.reduce_max(A_s, r_max, dim=dim, clear=clear)
            T.reduce_min(A_s, r_min, dim=dim, clear=clear)
            T.reduce_abssum(A_s, r_abssum, dim=dim, clear=clear)
            T.reduce_absmax(A_s, r_absmax, dim=dim, clear=clear)
            T.copy(r_sum, R_sum[0])
            T.copy(r_max, R_max[0])
            T.copy(r_min, R_min[0])
            T.copy(r_abssum, R_abssum[0])
            T.copy(r_absmax, R_absmax[0])

    return program


NUMPY_REDUCE = {
    "sum": np.sum,
    "max": np.max,
    "min": np.min,
    "abssum": lambda a, axis: np.abs(a).sum(axis),
    "absmax": lambda a, axis: np.abs(a).max(axis),
}
COMBINE = {"sum": np.add, "abssum": np.add, "max": np.maximum, "absmax": np.maximum, "min": np.minimum}


@pytest.mark.parametrize("dim", [0, 1])
@pytest.mark.parametrize("clear", [True, False])
def test_reductions_over_rows_and_columns(dim, clear):
    kernel = tilelang.compile(_reduce_program(dim, clear), out_idx=[1, 2, 3, 4, 5])
    a = RNG.standard_normal((M, N)).astype(np.float32)
    for kind, got in zip(["sum", "max", "min", "abssum", "absmax"], kernel(a), strict=True):
        expected = NUMPY_REDUCE[kind](a, axis=dim)
        if not clear:
            expected = COMBINE[kind](expected, 0.5)
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-4, err_msg=f"reduce_{kind}, dim={dim}")


def _short_reduction(rows, cols, kind, dim):
    """reduce_<kind> over ``dim`` of a (rows, cols) block with fewer than 32 entries along it (4 split-KV
    partial results per head, say), per (b, h): its tiles' padding must not enter the result."""
    reduce = getattr(T, f"reduce_{kind}")
    length = cols if dim == 0 else rows

    @T.prim_func
    def program(X: T.Tensor((2, 3, rows, cols), "float32"), Y: T.Tensor((6, length), "float32")):
        with T.Kernel(1, 3, 2) as (bx, by, bz):
            x = T.alloc_fragment((rows, cols), "float32")
            y = T.alloc_fragment((length,), "float32")
            T.copy(X[bz, by, :, :], x)
            reduce(x, y, dim=dim)
            T.copy(y, Y[bz * 3 + by, :])

    return program


@pytest.mark.parametrize(
    "target, rows, cols, kind, dim",
    [
        ("wormhole", 4, 128, "max", 0),
        ("blackhole", 4, 64, "min", 0),
        ("wormhole", 4, 64, "sum", 0),
        ("blackhole", 32, 16, "absmax", 1),
    ],
)
def test_a_reduction_over_fewer_than_32_entries_ignores_the_padding(target, rows, cols, kind, dim):
    """All values below -1: zeros from the tiles' padding would win a max; the reader's tile of which
    entries lie inside the extent turns the padding into the reduction's identity first."""
    kernel = tilelang.compile(_short_reduction(rows, cols, kind, dim), out_idx=[1], target=target)
    x = (RNG.uniform(-4, -1, (2, 3, rows, cols))).astype(np.float32)
    expected = NUMPY_REDUCE[kind](x, axis=2 + dim).reshape(6, -1)
    np.testing.assert_allclose(kernel(x), expected, rtol=1e-6, atol=1e-5, err_msg=f"reduce_{kind}, dim={dim}")


def weighted_rows(elementwise: bool):
    """Y[b] = sum over k of (k + 1) * X[b, k]: flash decoding's combine walks its table of split results one
    row at a time, ``T.copy(lse_local[k, :], lse_local_split)`` or, as its second loop writes it,
    ``lse_local_split[i] = lse_local[k, i]`` (``elementwise``)."""

    @T.prim_func
    def program(X: T.Tensor((6, 4, 64), "float32"), Y: T.Tensor((6, 64), "float32")):
        with T.Kernel(6) as bx:
            table = T.alloc_fragment((4, 64), "float32")
            row = T.alloc_fragment((64,), "float32")
            total = T.alloc_fragment((64,), "float32")
            T.copy(X[bx, :, :], table)
            T.clear(total)
            for k in T.serial(4):
                if elementwise:
                    for j in T.Parallel(64):
                        row[j] = table[k, j]
                else:
                    T.copy(table[k, :], row)
                for j in T.Parallel(64):
                    total[j] += row[j] * T.Cast("float32", k + 1)
            T.copy(total, Y[bx, :])

    return program


@pytest.mark.parametrize("elementwise, target", one_target_each([False, True], ids=["copy", "elementwise"]))
def test_a_row_of_a_tile_buffer_copied_into_a_vector(target, elementwise):
    """The row is the sum over the table's rows of its entries in row k only: exact."""
    kernel = tilelang.compile(weighted_rows(elementwise), out_idx=[1], target=target)
    x = RNG.standard_normal((6, 4, 64)).astype(np.float32)
    expected = (x * np.arange(1, 5, dtype=np.float32)[None, :, None]).sum(1)
    np.testing.assert_allclose(kernel(x), expected, rtol=1e-6, atol=1e-5)


@T.prim_func
def copies_and_fills(
    A: T.Tensor((M, N), "bfloat16"), B: T.Tensor((M, N), "bfloat16"), C: T.Tensor((M, N), "float32")
):
    with T.Kernel(1, threads=128) as bx:
        A_s = T.alloc_shared((M, N), "bfloat16")
        F = T.alloc_fragment((M, N), "float32")
        G = T.alloc_fragment((M, N), "float32")
        T.copy(A, B)  # global → global
        T.copy(A[0, 0], A_s)
        T.copy(A_s, F)  # shared → fragment, with a cast
        T.copy(F, G)  # fragment → fragment
        for i, j in T.Parallel(M, N):
            G[i, j] = G[i, j] + 1.5
        T.copy(G, C[0, 0])


@T.prim_func
def classified(
    A: T.Tensor((M, N), "float32"), B: T.Tensor((M, N), "float32"), C: T.Tensor((M, N), "float32")
):
    with T.Kernel(1, threads=128) as bx:
        A_s = T.alloc_shared((M, N), "float32")
        B_s = T.alloc_shared((M, N), "float32")
        T.copy(A[0, 0], A_s)
        T.copy(B[0, 0], B_s)
        for i, j in T.Parallel(M, N):
            C[i, j] = (
                T.if_then_else(T.isnan(A_s[i, j]), 1.0, 0.0)
                + T.if_then_else(T.isinf(A_s[i, j]), 10.0, 0.0)
                + T.if_then_else(T.isfinite(A_s[i, j]) and B_s[i, j] > 0, 100.0, 0.0)
                + T.if_then_else(
                    not (B_s[i, j] > 1) or T.round(B_s[i, j], "ties-away-from-zero") == 3, 1e3, 0.0
                )
                + T.round(B_s[i, j]) * 1e4
                + T.nearbyint(B_s[i, j]) * 1e5
                + T.Select(True, B_s[i, j], A_s[i, j]) * 1e6  # a constant condition picks its branch
            )


def test_classification_logic_selects_and_halfway_rounding():
    # NaN and both infinities among the values; B holds every multiple of 0.25 in [-4, 4), halves included,
    # where T.round's two modes differ (T.round and T.nearbyint take halves to even, as TVM's).
    a = RNG.standard_normal((M, N)).astype(np.float32)
    a.flat[::7], a.flat[1::11], a.flat[2::13] = np.nan, np.inf, -np.inf
    b = (np.arange(M * N) % 32 * 0.25 - 4).astype(np.float32).reshape(M, N)
    got = tilelang.compile(classified, out_idx=[-1])(a, b)
    expected = (
        np.isnan(a) * 1.0
        + np.isinf(a) * 10.0
        + (np.isfinite(a) & (b > 0)) * 100.0
        + (~(b > 1) | (_round(b) == 3)) * 1e3
        + np.rint(b) * 1e4
        + np.rint(b) * 1e5
        + b * 1e6
    )
    wrong = np.argwhere(got != expected)
    assert not len(wrong), (
        f"{len(wrong)} elements differ, first at {tuple(wrong[0])}: A {a[tuple(wrong[0])]}, "
        f"B {b[tuple(wrong[0])]}: {got[tuple(wrong[0])]} instead of {expected[tuple(wrong[0])]}"
    )


@T.prim_func
def plus_a_16_bit_position(A: T.Tensor((64, 64), "float16"), B: T.Tensor((64, 64), "float16")):
    with T.Kernel(1, threads=128):
        A_s = T.alloc_shared((64, 64), "float16")
        T.copy(A, A_s)
        for i, j in T.Parallel(64, 64):
            B[i, j] = A_s[i, j] + T.Cast("float16", T.Cast("float32", i) * 0.5 + T.Cast("float32", j))


def test_a_value_of_the_position_cast_to_16_bits():
    # the reader writes the position's values into a tile, computing in float32 (it has no 16-bit floats)
    a = RNG.standard_normal((64, 64)).astype(np.float16)
    i, j = np.meshgrid(np.arange(64), np.arange(64), indexing="ij")
    position = (i * 0.5 + j).astype(np.float16).astype(np.float32)
    expected = (a.astype(np.float32) + position).astype(np.float16)
    np.testing.assert_array_equal(tilelang.compile(plus_a_16_bit_position, out_idx=[1])(a), expected)


def test_copies_between_scopes_and_fills():
    kernel = tilelang.compile(copies_and_fills, out_idx=[1, 2])
    a = RNG.standard_normal((M, N)).astype(ml_dtypes.bfloat16)
    b, c = kernel(a)
    np.testing.assert_array_equal(b, a)
    np.testing.assert_allclose(c, a.astype(np.float32) + 1.5, rtol=1e-6)


def _on_target(kernel, target):
    """``kernel`` recompiled for ``target`` (an eager kernel's outputs come with its function)."""
    return tilelang.compile(kernel.func, out_idx=list(kernel.options.out_idx) or None, target=target)


@T.prim_func
def transposed(A: T.Tensor((64, 96), "bfloat16"), B: T.Tensor((96, 64), "bfloat16")):
    with T.Kernel(1, threads=128) as bx:
        A_s = T.alloc_shared((64, 96), "bfloat16")
        B_s = T.alloc_shared((96, 64), "bfloat16")
        T.copy(A[0, 0], A_s)
        T.transpose(A_s, B_s)
        T.copy(B_s, B[0, 0])


def test_transpose():
    kernel = tilelang.compile(transposed, out_idx=[-1])
    a = RNG.standard_normal((64, 96)).astype(ml_dtypes.bfloat16)
    np.testing.assert_array_equal(kernel(a), a.T)


@T.prim_func
def gemm_both_transposed_with_epilogue(
    A: T.Tensor((64, 96), "bfloat16"), B: T.Tensor((128, 64), "bfloat16"), C: T.Tensor((96, 128), "float32")
):
    with T.Kernel(1, threads=128) as bx:
        A_s = T.alloc_shared((64, 96), "bfloat16")
        B_s = T.alloc_shared((128, 64), "bfloat16")
        C_f = T.alloc_fragment((96, 128), "float32")
        T.copy(A[0, 0], A_s)
        T.copy(B[0, 0], B_s)
        T.gemm(A_s, B_s, C_f, transpose_A=True, transpose_B=True, clear_accum=True)
        for i, j in T.Parallel(96, 128):
            C_f[i, j] = T.max(C_f[i, j], 0)
        T.copy(C_f, C[0, 0])


def test_gemm_with_transposed_operands_and_relu_epilogue():
    kernel = tilelang.compile(gemm_both_transposed_with_epilogue, out_idx=[-1])
    a = RNG.standard_normal((64, 96)).astype(ml_dtypes.bfloat16)
    b = RNG.standard_normal((128, 64)).astype(ml_dtypes.bfloat16)
    expected = np.maximum(a.astype(np.float32).T @ b.astype(np.float32).T, 0)
    got = kernel(a, b)
    rel = float(np.abs(got - expected).max() / np.abs(expected).max())
    assert rel <= 1e-2, f"max relative error {rel:.3e}"


def flat_gemm(N, H, W, C, F, block_M=64, dtype="bfloat16", accum_dtype="float"):
    """A 1×1 convolution the way TileLang's convolution example writes its GEMM: NHWC data and the output
    seen through flat (N·H·W, C) / (N·H·W, F) views of their memory."""

    @T.prim_func
    def main(
        data: T.Tensor((N, H, W, C), dtype),
        kernel: T.Tensor((C, F), dtype),
        out: T.Tensor((N, H, W, F), dtype),
    ):
        with T.Kernel(T.ceildiv(N * H * W, block_M), threads=128) as bx:
            data_flat = T.Tensor((N * H * W, C), dtype, data.data)
            out_flat = T.Tensor((N * H * W, F), dtype, out.data)
            data_shared = T.alloc_shared((block_M, C), dtype)
            kernel_shared = T.alloc_shared((C, F), dtype)
            out_local = T.alloc_fragment((block_M, F), accum_dtype)
            T.clear(out_local)
            T.copy(data_flat[bx * block_M, 0], data_shared)
            T.copy(kernel, kernel_shared)
            T.gemm(data_shared, kernel_shared, out_local)
            T.copy(out_local, out_flat[bx * block_M, 0])

    return main


@pytest.mark.parametrize("target", ["wormhole"])
def test_tensors_seen_through_reshaped_views(target):
    kernel = tilelang.compile(flat_gemm(2, 8, 16, 64, 32), out_idx=[-1], target=target)
    data = RNG.standard_normal((2, 8, 16, 64)).astype(ml_dtypes.bfloat16)
    weights = RNG.standard_normal((64, 32)).astype(ml_dtypes.bfloat16)
    expected = data.astype(np.float32) @ weights.astype(np.float32)
    got = kernel(data, weights).astype(np.float32)
    assert got.shape == (2, 8, 16, 32), got.shape
    rel = float(np.abs(got - expected).max() / np.abs(expected).max())
    assert rel <= 1e-2, f"max relative error {rel:.3e}"


def _example(name):
    path = os.path.join(os.path.dirname(__file__), "..", "..", "examples", name + ".py")
    spec = importlib.util.spec_from_file_location(f"example_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    "family", ["elementwise", "gemm_epilogue", "reduction", "softmax", "rms_norm", "layer_norm"]
)
def test_example_family_on_blackhole(family, monkeypatch):
    monkeypatch.setenv("RUNTIME_MOCK_L1_FILL", "poison")  # NaN where nothing wrote: no read of it goes unseen
    module = _example(family)
    kernel = _on_target(module.kernel, "blackhole")
    result = tilelang.check_against_reference(kernel, module.ref_program)
    assert result.passed, f"{family} on blackhole: {result}"


@pytest.mark.parametrize("target, causal", [("wormhole", False), ("wormhole", True), ("blackhole", True)])
def test_flash_attention_forward(target, causal, monkeypatch):
    monkeypatch.setenv("RUNTIME_MOCK_L1_FILL", "poison")
    module = _example("flash_attention")
    factory = module.flashattn
    kernel = factory(1, 2, 512, 512, 64, causal, block_M=64, block_N=64, num_stages=1)
    if target != "wormhole":
        kernel = _on_target(kernel, target)
    result = tilelang.check_against_reference(kernel, lambda q, k, v: module.ref_program(q, k, v, causal))
    assert result.passed, f"flash attention (causal={causal}) on {target}: {result}"


def test_attention_with_the_approximate_exponential():
    """``tl.tt.approximate_exp``: the softmax's exponentials are the SDK's fast approximation (exp_tile<true>,
    within 3.2% of e^x), as Tenstorrent's own attention takes them. The output correlates with the
    reference as closely as TileLang's checks ask (PCC ≥ 0.999), though further from it than the accurate
    kernel's (which passes the 1e-2 bound), and the kernel models faster."""
    module = _example("flash_attention")
    func = module.flashattn.get_tir(1, 2, 256, 256, 64, False, block_M=64, block_N=64, num_stages=1)
    exact = tilelang.compile(func, out_idx=[3], target="wormhole")
    fast = tilelang.compile(
        func, out_idx=[3], target="wormhole", pass_configs={"tl.tt.approximate_exp": True}
    )
    assert "exp_tile<true>" in fast.get_kernel_source() and "exp_tile<true>" not in exact.get_kernel_source()
    reference = lambda q, k, v: module.ref_program(q, k, v, False)  # noqa: E731
    exact_result = tilelang.check_against_reference(exact, reference)
    assert exact_result.passed, exact_result
    result = tilelang.check_against_reference(fast, reference)
    assert result.pcc >= 0.999 and result.max_relative_error < 0.08, result
    assert result.max_relative_error > exact_result.max_relative_error, "the approximation should show"
    assert fast.get_profiler().do_bench() < exact.get_profiler().do_bench()


def test_the_cores_of_a_head_share_its_key_and_value_blocks():
    """Non-causal attention with a trip count named first (``loop_range``) steps alike on every core: the
    two query blocks of a head sit on one core row, and one of them reads each K/V block and multicasts it
    to the other. Q and each head's K and V are read from DRAM once (384 KB, not 640), and the output
    matches the reference."""
    module = _example("flash_attention")
    func = module.flashattn.get_tir(1, 2, 256, 256, 128, False, block_M=128, block_N=128, num_stages=2)
    kernel = tilelang.compile(func, out_idx=[3], target="wormhole")
    (reader,) = [k for k in kernel.plan["kernels"] if k["role"] == "reader"]
    assert reader["multicast"] == ["row"], reader["multicast"]
    result = tilelang.check_against_reference(kernel, lambda q, k, v: module.ref_program(q, k, v, False))
    assert result.passed, f"multicast flash attention: {result}"
    profile = kernel.get_profiler().profile()
    read = sum(run.dram_bytes_read for run in profile.session.runs)
    q_bytes = kv_bytes = 2 * 256 * 128 * 2  # two heads of fp16 rows
    assert read == q_bytes + 2 * kv_bytes, f"{read} bytes read from DRAM"


def _grouped_programs():
    """(PrimFunc, operand buffer, its rows, input shapes and dtypes) of the GEMM epilogue and the
    convolution examples with 32-wide K steps."""
    epilogue = _example("gemm_epilogue").matmul_bias_gelu.get_tir(256, 256, 1024, 128, 128, 32)
    conv = _example("convolution").convolution.get_tir(
        N=1, C=256, H=8, W=8, F=64, K=3, S=1, D=1, P=1, block_M=64, block_N=64, block_K=32, num_stages=2,
        threads=128,
    )  # fmt: skip
    bf16, f16 = ml_dtypes.bfloat16, np.float16
    epilogue_inputs = [((256, 1024), bf16), ((1024, 256), bf16), ((256,), bf16), ((256, 256), bf16)]
    conv_inputs = [((1, 8, 8, 256), f16), ((3, 3, 256, 64), f16)]
    return [
        (epilogue, "A_shared", 128, epilogue_inputs),
        (conv, "data_shared", 64, conv_inputs),
    ]


@pytest.mark.parametrize(
    "program, target", [(0, "wormhole"), (1, "blackhole")], ids=["gemm_epilogue", "convolution"]
)
def test_k_steps_taken_in_groups_give_the_same_bits(program, target, monkeypatch):
    """The GEMM epilogue and convolution examples with 32-wide K steps, grouped (k_groups.py: the lowering
    takes 8 steps at a time in both, the accumulator reloaded 8 times less; the convolution's gather then
    reads each row's 256 channels at once) and step by step: bit-identical outputs."""
    from tilelang_tt.passes import lower_tile_program_tt

    func, operand, rows, shapes = _grouped_programs()[program]
    rng = np.random.default_rng(5)
    inputs = [rng.standard_normal(shape).astype(dtype) for shape, dtype in shapes]
    outputs, widths = [], []
    for groups in (lower_tile_program_tt.K_GROUPS, ()):
        monkeypatch.setattr(lower_tile_program_tt, "K_GROUPS", groups)
        kernel = tilelang.compile(func, out_idx=[-1], target=target)
        (a,) = [cb for cb in kernel.plan["circular_buffers"] if cb["buffer"] == operand]
        widths.append(a["tiles"] // (rows // 32))  # K tiles per step
        outputs.append(np.asarray(kernel(*inputs)).view(np.uint16))
    assert widths == [8, 1], f"K tiles per step, grouped and not: {widths}"
    assert np.array_equal(*outputs), "grouping K steps changed the result"


def test_sums_rescaled_before_a_gemm_adds_to_them():
    """acc *= 0.5 applied as the second K step's GEMM loads its sums (no code of its own): the numbers are
    the statement-by-statement ones."""
    kernel = tilelang.compile(rescaled_sums, out_idx=[2], target="wormhole")
    rng = np.random.default_rng(9)
    a, b = (rng.standard_normal((64, 64)).astype(np.float16) for _ in range(2))
    af, bf = a.astype(np.float32), b.astype(np.float32)
    expected = af[:, :32] @ bf[:32] * 0.5 + af[:, 32:] @ bf[32:]
    np.testing.assert_allclose(kernel(a, b), expected, rtol=1e-3, atol=1e-3)


def test_a_cast_copy_packed_by_the_statement_that_made_its_values():
    """T.copy(s, s_cast) packed by the exponentials' statement (no pass of its own): the fp16 tiles the GEMM
    reads, and the fp32 ones the row sum read, are the ones the statements would make one by one."""
    kernel = tilelang.compile(cast_for_a_gemm, out_idx=[2], target="blackhole")
    rng = np.random.default_rng(4)
    a, b = (rng.standard_normal((64, 64)).astype(np.float16) for _ in range(2))
    s = np.exp2(a.astype(np.float32) * 0.125)
    expected = (s.astype(np.float16).astype(np.float32) @ b.astype(np.float32)) / s.sum(1, keepdims=True)
    np.testing.assert_allclose(kernel(a, b), expected, rtol=2e-3, atol=2e-3)


def _whole_vector_reduction(reduce, dtype):
    """A vector reduced to one value: as TileLang's test_tilelang_language_reduce_maxmin_nan.py writes it
    (a row: a 1-D tensor copied in), and a column (the row maxima of a tile) reduced again."""

    @T.prim_func
    def program(
        a: T.Tensor((64,), dtype),
        S: T.Tensor((64, 64), dtype),
        out: T.Tensor((1,), dtype),
        out_of_rows: T.Tensor((1,), dtype),
    ):
        with T.Kernel(1, threads=32):
            frag = T.alloc_fragment((64,), dtype)
            out_frag = T.alloc_fragment((1,), dtype)
            T.copy(a, frag)
            reduce(frag, out_frag)
            T.copy(out_frag, out)
            S_s = T.alloc_shared((64, 64), dtype)
            rows = T.alloc_fragment((64,), dtype)
            total = T.alloc_fragment((1,), dtype)
            T.copy(S, S_s)
            reduce(S_s, rows, dim=1)
            reduce(rows, total)
            T.copy(total, out_of_rows)

    return program


@pytest.mark.parametrize(
    "reduce, reference, dtype, target",
    [
        (T.reduce_min, np.min, "bfloat16", "blackhole"),
    ],
    ids=["min"],
)
def test_a_whole_vector_reduced_to_one_value(reduce, reference, dtype, target):
    kernel = tilelang.compile(_whole_vector_reduction(reduce, dtype), out_idx=[2, 3], target=target)
    np_dtype = {"float16": np.float16, "bfloat16": ml_dtypes.bfloat16, "float32": np.float32}[dtype]
    a = RNG.standard_normal(64).astype(np_dtype)
    s = RNG.standard_normal((64, 64)).astype(np_dtype)
    got, got_of_rows = (np.asarray(x, np.float32) for x in kernel(a, s))
    for value, expected, what in (
        (got, reference(a.astype(np.float32)), "the row"),
        (got_of_rows, reference(s.astype(np.float32)), "the column of row results"),
    ):
        assert abs(float(value[0]) - float(expected)) <= 1e-2 * max(1.0, abs(float(expected))), (
            f"{reduce.__name__} of {what}: {value[0]} instead of {expected}"
        )


def _local_reduction(reduce):
    """TileLang's test_tilelang_language_reduce.py test_reduce_local_packed_correctness program, imports
    changed: a vector filled element by element, reduced into a one-element local, stored as one element."""

    @T.prim_func
    def main(A: T.Tensor((8,), T.float16), B: T.Tensor((1,), T.float16)):
        with T.Kernel(1, threads=1):
            src = T.alloc_local((8,), T.float16)
            dst = T.alloc_local((1,), T.float16)
            for i in T.serial(8):
                src[i] = A[i]
            reduce(src, dst, dim=0)
            B[0] = dst[0]

    return main


@pytest.mark.parametrize("reduce, reference", [(T.reduce_sum, np.sum)], ids=["sum"])
def test_one_element_of_a_tensor_stored_outside_any_loop(reduce, reference):
    a = RNG.standard_normal(8).astype(np.float16)
    got = tilelang.compile(_local_reduction(reduce), out_idx=-1)(a)
    expected = reference(a.astype(np.float32))
    assert abs(float(got[0]) - float(expected)) <= 1e-2 * max(1.0, abs(float(expected))), (got, expected)


@T.prim_func
def transposed_and_scaled(
    X: T.Tensor((64, 96), "float16"), A: T.Tensor((2, 96), "float16"), Y: T.Tensor((96, 64), "float32")
):
    # TileLang's Mamba chunk state reads a tile buffer transposed (xt[i, j] = x[j, i] * scale[j]); its
    # chunk scan copies a row of a tensor into a vector that scales rows (a row vector made a column)
    with T.Kernel(1, threads=128) as bx:
        x = T.alloc_fragment((64, 96), "float16")
        a_row = T.alloc_shared((96,), "float16")
        scale = T.alloc_fragment((96,), "float32")
        y = T.alloc_fragment((96, 64), "float32")
        T.copy(X[0, 0], x)
        T.copy(A[1, 0:96], a_row)
        T.copy(a_row, scale)
        for i, j in T.Parallel(96, 64):
            y[i, j] = x[j, i] * scale[i]
        T.copy(y, Y[0, 0])


def test_a_tile_buffer_read_transposed_and_a_row_copied_into_a_column():
    kernel = tilelang.compile(transposed_and_scaled, out_idx=[2], target="blackhole")
    rng = np.random.default_rng(9)
    x, a = rng.random((64, 96)).astype(np.float16), rng.random((2, 96)).astype(np.float16)
    expected = x.astype(np.float32).T * a[1].astype(np.float32)[:, None]
    assert np.array_equal(kernel(x, a), expected), "x[j, i] * scale[i] differs from numpy's"
