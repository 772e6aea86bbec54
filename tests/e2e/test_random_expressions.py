"""Random element-wise expression trees, compiled, run and compared with numpy.

Each tree mixes tiles, row and column vectors, constants, binary ops, functions and value comparisons with
``T.if_then_else``; deep trees need more DST registers than the target has, which exercises the
schedule's spill to an intermediate circular buffer. Seeds are fixed (``--fuzz-seed`` is not used here);
the set includes trees that spill on fp32.
"""

import ml_dtypes
import numpy as np
import pytest
import tilelang_tt as tilelang
import tilelang_tt.language as T

M, N = 64, 64

# (DSL builder, numpy function) per operator; DSL operands are tile expressions, numpy ones float32 arrays.
BINARY = {
    "add": (lambda x, y: x + y, np.add),
    "sub": (lambda x, y: x - y, np.subtract),
    "mul": (lambda x, y: x * y, np.multiply),
    "max": (T.max, np.maximum),
    "min": (T.min, np.minimum),
    "div": (lambda x, y: x / (T.abs(y) + 1.0), lambda x, y: x / (np.abs(y) + 1)),
}
UNARY = {
    "tanh": (T.tanh, np.tanh),
    "sigmoid": (T.sigmoid, lambda x: 1 / (1 + np.exp(-x))),
    "exp": (lambda x: T.exp(x * 0.1), lambda x: np.exp(x * np.float32(0.1))),
    "abs": (T.abs, np.abs),
}
LEAVES = ("a", "b", "v", "w")


def random_tree(rng, depth):
    """A nested tuple: ("leaf", name) | ("const", c) | (op, children...)."""
    if depth == 0 or rng.random() < 0.2:
        if rng.random() < 0.2:
            return ("const", float(np.round(rng.uniform(-2, 2), 2)))
        return ("leaf", LEAVES[rng.integers(len(LEAVES))])
    kind = rng.random()
    if kind < 0.55:
        op = list(BINARY)[rng.integers(len(BINARY))]
        return (op, random_tree(rng, depth - 1), random_tree(rng, depth - 1))
    if kind < 0.8:
        op = list(UNARY)[rng.integers(len(UNARY))]
        return (op, random_tree(rng, depth - 1))
    return ("where", *(random_tree(rng, depth - 1) for _ in range(3)))


def evaluate(tree, leaves, binary, unary, where):
    op, *args = tree
    if op == "leaf":
        return leaves[args[0]]
    if op == "const":
        return args[0]
    values = [evaluate(a, leaves, binary, unary, where) for a in args]
    if op == "where":
        return where(*values)
    return binary[op](*values) if op in binary else unary[op](*values)


def dsl_expression(tree, a, b, v, w):
    """The tree as a DSL expression (evaluated while the kernel is parsed). Every loaded tile is read, as a
    tile loaded and never read is an error: the 1e-30 term keeps them without changing the result (a
    product with 0 would be simplified away)."""
    leaves = {"a": a, "b": b, "v": v, "w": w}
    value = evaluate(
        tree,
        leaves,
        {k: f for k, (f, _) in BINARY.items()},
        {k: f for k, (f, _) in UNARY.items()},
        lambda c, x, y: T.if_then_else(c > x, x, y),
    )
    return value + (a + b + v + w) * 1e-30


def program(tree, dtype):
    @T.prim_func
    def kernel(
        A: T.Tensor((M, N), dtype),
        B: T.Tensor((M, N), dtype),
        V: T.Tensor((M,), dtype),
        W: T.Tensor((N,), dtype),
        C: T.Tensor((M, N), "float32"),
    ):
        with T.Kernel(1, threads=128) as bx:
            A_s = T.alloc_shared((M, N), dtype)
            B_s = T.alloc_shared((M, N), dtype)
            V_s = T.alloc_shared((M,), dtype)
            W_s = T.alloc_shared((N,), dtype)
            C_f = T.alloc_fragment((M, N), "float32")
            T.copy(A[0, 0], A_s)
            T.copy(B[0, 0], B_s)
            T.copy(V[0], V_s)
            T.copy(W[0], W_s)
            for i, j in T.Parallel(M, N):
                C_f[i, j] = dsl_expression(tree, A_s[i, j], B_s[i, j], V_s[i], W_s[j])
            T.copy(C_f, C[0, 0])

    return kernel


# Seeds 4 (bf16), 12, 19 (three spills) and 30 need more DST registers than the target has.
SPILLING = [4, 12, 19, 30]


@pytest.mark.parametrize("seed", [2, 9, 13, 16] + SPILLING)
def test_random_expression_matches_numpy(seed):
    rng = np.random.default_rng(seed)
    tree = random_tree(rng, 3)
    dtype = "float32" if rng.random() < 0.6 else "bfloat16"
    np_dtype = np.float32 if dtype == "float32" else ml_dtypes.bfloat16
    a, b = (rng.standard_normal((M, N)).astype(np_dtype) for _ in range(2))
    v, w = rng.standard_normal(M).astype(np_dtype), rng.standard_normal(N).astype(np_dtype)
    kernel = tilelang.compile(program(tree, dtype), out_idx=[-1])
    spills = [e["name"] for e in kernel.plan["circular_buffers"] if "_part" in e["buffer"]]
    assert bool(spills) == (seed in SPILLING), f"seed {seed}: spill CBs {spills}"
    got = kernel(a, b, v, w)
    f32 = {"a": a.astype(np.float32), "b": b.astype(np.float32)}
    f32 |= {"v": v.astype(np.float32)[:, None], "w": w.astype(np.float32)[None, :]}
    expected = evaluate(
        tree,
        f32,
        {k: f for k, (_, f) in BINARY.items()},
        {k: f for k, (_, f) in UNARY.items()},
        lambda c, x, y: np.where(c > x, x, y),
    ) + np.zeros((M, N), np.float32)
    rel = float(np.abs(got - expected).max() / max(float(np.abs(expected).max()), 1e-6))
    tolerance = 1e-4 if dtype == "float32" else 2e-2
    assert rel <= tolerance, f"seed {seed}, {dtype}, tree {tree}: max relative error {rel:.3e}"
