"""Programs in the style of TileLang's ``testing/python/language`` tests and examples (clamp, alloc_var, the
``T.Tensor[...]`` annotation, ``T.Serial``, the kernel's own block index, macros, ``if`` in element loops,
``T.Persistent``, ``T.cumsum``, ``T.cummax``, ``T.reshape``, global-to-global copies), imports changed only,
compared with numpy: the programs that exercise the target (GEMMs, masks, persistent
kernels) on both simulated architectures, each smaller construct on one of them, alternating."""

import ml_dtypes
import numpy as np
import pytest
import tilelang_tt as tilelang
import tilelang_tt.language as T
from targets import one_target_each
from tilelang_tt.carver.arch import driver

TARGETS = ["wormhole", "blackhole"]


def clamp_within_bounds(N, block_N, dtype, min_val=None, max_val=None):
    @T.prim_func
    def main(A: T.Tensor((N,), dtype), B: T.Tensor((N,), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), threads=block_N) as bx:
            A_shared = T.alloc_shared([block_N], dtype)
            T.copy(A[bx * block_N], A_shared)
            for i in T.Parallel(block_N):
                A_shared[i] = T.clamp(A_shared[i], min_val=min_val, max_val=max_val)
            T.copy(A_shared, B[bx * block_N])

    return main


def clamp_value_range(N, block_N, dtype):
    @T.prim_func
    def main(A: T.Tensor((1, N), dtype), B: T.Tensor((1, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), threads=block_N) as bx:
            A_frag = T.alloc_fragment([1, block_N], dtype=dtype)
            min_frag = T.alloc_fragment([1], dtype=dtype)
            max_frag = T.alloc_fragment([1], dtype=dtype)
            T.copy(A[0, bx * block_N], A_frag)
            T.reduce_min(A_frag, min_frag, dim=1)
            T.reduce_max(A_frag, max_frag, dim=1)
            for i in T.Parallel(block_N):
                A_frag[0, i] = T.clamp(A_frag[0, i], min_frag[0] * 0.5, max_frag[0] * 0.5)
            T.copy(A_frag, B[0, bx * block_N])

    return main


def alloc_var_add(N, block_N, dtype):
    @T.prim_func
    def main(A: T.Tensor((N,), dtype), B: T.Tensor((N,), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), threads=block_N) as bx:
            A_shared = T.alloc_shared([block_N], dtype)
            tmp = T.alloc_var(dtype)
            tmp = 1  # noqa: F841
            T.copy(A[bx * block_N], A_shared)
            for i in T.Parallel(block_N):
                A_shared[i] = A_shared[i] + tmp
            T.copy(A_shared, B[bx * block_N])

    return main


def alloc_var_with_init(N, block_N, dtype):
    @T.prim_func
    def main(A: T.Tensor((N,), dtype), B: T.Tensor((N,), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), threads=block_N) as bx:
            A_shared = T.alloc_shared([block_N], dtype)
            tmp = T.alloc_var(dtype, init=3)
            T.copy(A[bx * block_N], A_shared)
            for i in T.Parallel(block_N):
                A_shared[i] = A_shared[i] * tmp
            T.copy(A_shared, B[bx * block_N])

    return main


def _bf16(shape, seed):
    return np.random.default_rng(seed).standard_normal(shape).astype(ml_dtypes.bfloat16)


def _close(actual, expected):
    actual, expected = np.asarray(actual, np.float32), np.asarray(expected, np.float32)
    assert np.allclose(actual, expected, atol=1e-2, rtol=1e-2), (
        f"max error {np.abs(actual - expected).max()} (values up to {np.abs(expected).max()})"
    )


@pytest.mark.parametrize("target", ["wormhole"])
def test_clamp_with_constant_bounds(target):
    kernel = tilelang.compile(
        clamp_within_bounds(1024, 128, T.float16, -0.5, 0.75), out_idx=[1], target=target
    )
    a = np.random.default_rng(0).standard_normal(1024).astype(np.float16)
    _close(kernel(a), np.clip(a, -0.5, 0.75))


@pytest.mark.parametrize("target", ["blackhole"])
def test_clamp_with_one_open_bound(target):
    kernel = tilelang.compile(
        clamp_within_bounds(512, 128, T.bfloat16, None, 0.25), out_idx=[1], target=target
    )
    a = _bf16(512, 1)
    _close(kernel(a), np.minimum(a.astype(np.float32), 0.25))


@pytest.mark.parametrize("target", ["wormhole"])
def test_clamp_to_bounds_computed_by_reductions(target):
    kernel = tilelang.compile(clamp_value_range(1024, 128, T.float32), out_idx=[1], target=target)
    a = np.random.default_rng(2).standard_normal((1, 1024)).astype(np.float32)
    blocks = a.reshape(8, 128)
    lo, hi = blocks.min(axis=1, keepdims=True) * 0.5, blocks.max(axis=1, keepdims=True) * 0.5
    _close(kernel(a), np.clip(blocks, lo, hi).reshape(1, 1024))


@pytest.mark.parametrize("target", ["blackhole"])
def test_alloc_var_assigned_then_read(target):
    kernel = tilelang.compile(alloc_var_add(1024, 128, T.float16), out_idx=[1], target=target)
    a = np.random.default_rng(3).standard_normal(1024).astype(np.float16)
    _close(kernel(a), a.astype(np.float32) + 1)


@pytest.mark.parametrize("target", ["wormhole"])
def test_alloc_var_with_initial_value(target):
    kernel = tilelang.compile(alloc_var_with_init(512, 128, T.bfloat16), out_idx=[1], target=target)
    a = _bf16(512, 4)
    _close(kernel(a), a.astype(np.float32) * 3)


M, N, K = 128, 128, 128


@T.macro
def scale_rows(acc, factor):
    for i, j in T.Parallel(64, 64):
        acc[i, j] = acc[i, j] * factor


@T.prim_func
def gemm_in_2026_spelling(
    A: T.Tensor[(M, K), T.bfloat16], B: T.Tensor[(K, N), T.bfloat16], C: T.Tensor[(M, N), T.bfloat16]
):
    with T.Kernel(T.ceildiv(N, 64), T.ceildiv(M, 64), threads=128):
        bx, by = T.get_block_binding(0), T.get_block_binding(1)
        T.disable_warp_group_reg_alloc()
        T.annotate_l2_hit_ratio({A: 0.5})
        A_s = T.alloc_shared((64, 32), T.bfloat16)
        B_s = T.alloc_shared((32, 64), T.bfloat16)
        acc = T.alloc_fragment((64, 64), T.float32)
        T.clear(acc)
        for k in T.Serial(T.ceildiv(K, 32)):
            T.copy(A[by * 64, k * 32], A_s)
            T.copy(B[k * 32, bx * 64], B_s)
            T.gemm(A_s, B_s, acc)
        scale_rows(acc, 0.5)
        T.copy(acc, C[by * 64, bx * 64])


@pytest.mark.parametrize("target", ["wormhole"])
def test_gemm_with_subscript_annotations_block_bindings_serial_loop_and_macro(target):
    kernel = tilelang.compile(gemm_in_2026_spelling, out_idx=[2], target=target)
    a, b = _bf16((M, K), 5), _bf16((K, N), 6)
    _close(kernel(a, b), 0.5 * (a.astype(np.float32) @ b.astype(np.float32)))


def masked_update(M, N, block_M, block_N):
    """``if`` in ``T.Parallel``: a masked select on the data, an if/else on the position, and a bounds
    guard on a named row index (TileLang's element-wise kernels on shapes that are not multiples)."""

    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), B: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            a = T.alloc_fragment((block_M, block_N), "float32")
            b = T.alloc_fragment((block_M, block_N), "float32")
            T.copy(A[by * block_M, bx * block_N], a)
            T.fill(b, 5.0)
            for i, j in T.Parallel(block_M, block_N):
                if a[i, j] > 0:
                    b[i, j] = a[i, j] * 2.0
            for i, j in T.Parallel(block_M, block_N):
                if i < j:
                    b[i, j] = b[i, j] + 1.0
                else:
                    b[i, j] = b[i, j] - 1.0
            for i, j in T.Parallel(block_M, block_N):
                row = by * block_M + i
                col = bx * block_N + j
                if row < M and col < N:
                    B[row, col] = b[i, j]

    return main


@pytest.mark.parametrize("target", ["blackhole"])
def test_if_in_parallel_masks_positions_and_guards_bounds(target):
    M, N, block = 100, 90, 32
    kernel = tilelang.compile(masked_update(M, N, block, block), out_idx=[1], target=target)
    a = np.random.default_rng(7).standard_normal((M, N)).astype(np.float32)
    expected = np.where(a > 0, 2 * a, 5.0)
    rows, cols = np.indices((M, N)) % block
    expected = np.where(rows < cols, expected + 1, expected - 1)
    _close(kernel(a), expected)


@T.prim_func
def guarded_scalar_loops(A: T.Tensor((100, 90), "float32"), C: T.Tensor((100, 90), "float32")):
    with T.Kernel(T.ceildiv(90, 32), T.ceildiv(100, 32), threads=128) as (bx, by):
        for i, j in T.grid(32, 32):
            if by * 32 + i < 100 and bx * 32 + j < 90:
                C[by * 32 + i, bx * 32 + j] = A[by * 32 + i, bx * 32 + j] * 3.0


@pytest.mark.parametrize("target", ["blackhole"])
def test_scalar_loops_with_guarded_element_stores(target):
    kernel = tilelang.compile(guarded_scalar_loops, out_idx=[1], target=target)
    a = np.random.default_rng(8).standard_normal((100, 90)).astype(np.float32)
    _close(kernel(a), 3 * a)


@tilelang.jit
def matmul_persistent(
    A, B, block_M, block_N, block_K, threads, num_stages, dtype=T.float16, accum_dtype=T.float32
):
    """TileLang's examples/gemm/example_gemm_persistent.py (the T.Persistent kernel), imports changed: on
    Tenstorrent the loop is the launch grid, and the work partition spreads its blocks over the cores
    (``driver.get_num_sms()`` is the default target's core count)."""
    M, N, K = T.const("M, N, K")

    A: T.Tensor((M, K), dtype)
    B: T.Tensor((K, N), dtype)
    C = T.empty((M, N), dtype)

    sm_num = driver.get_num_sms()

    with T.Kernel(sm_num, threads=threads) as (block_id):
        A_shared = T.alloc_shared((block_M, block_K), dtype)
        B_shared = T.alloc_shared((block_K, block_N), dtype)
        C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
        C_shared = T.alloc_shared((block_M, block_N), dtype)

        for bx, by in T.Persistent([T.ceildiv(M, block_M), T.ceildiv(N, block_N)], sm_num, block_id):
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
                T.copy(A[bx * block_M, k * block_K], A_shared)
                T.copy(B[k * block_K, by * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)

            T.copy(C_local, C_shared)
            T.copy(C_shared, C[bx * block_M, by * block_N])

    return C


@pytest.mark.parametrize("target", ["wormhole"])
def test_persistent_gemm(target):
    rng = np.random.default_rng(9)
    a, b = (
        rng.standard_normal((256, 128)).astype(np.float16),
        rng.standard_normal((128, 192)).astype(np.float16),
    )
    compiled = matmul_persistent.compile(a, b, 64, 64, 32, 128, 2)
    kernel = tilelang.compile(compiled.func, out_idx=list(compiled.options.out_idx), target=target)
    assert kernel.cores_used == 12, f"4 x 3 output blocks, one core each; used {kernel.cores_used}"
    _close(kernel(a, b), a.astype(np.float32) @ b.astype(np.float32))


@T.prim_func
def copy_blocks_between_tensors(A: T.Tensor((128, 96), "float32"), B: T.Tensor((128, 96), "float32")):
    with T.Kernel(3, 4, threads=128) as (bx, by):
        T.copy(
            A[by * 32 : (by + 1) * 32, bx * 32 : (bx + 1) * 32],
            B[by * 32 : (by + 1) * 32, bx * 32 : (bx + 1) * 32],
        )


@pytest.mark.parametrize("target", ["wormhole"])
def test_copy_from_global_to_global_with_slices(target):
    kernel = tilelang.compile(copy_blocks_between_tensors, out_idx=[1], target=target)
    a = np.random.default_rng(10).standard_normal((128, 96)).astype(np.float32)
    assert np.array_equal(kernel(a), a), "the blocks copied between global tensors differ from the input"


def copy_converting(dtype_in, dtype_out):
    """TileLang's flash-attention backward post-processing: an fp32 dQ block copied into an fp16 tensor."""

    @T.prim_func
    def post(dQ: T.Tensor((2, 4, 128, 64), dtype_in), dQ_out: T.Tensor((2, 4, 128, 64), dtype_out)):  # noqa: N803
        with T.Kernel(T.ceildiv(128, 64), 4, 2, threads=128) as (bx, by, bz):
            T.copy(dQ[bz, by, bx * 64 : (bx + 1) * 64, :], dQ_out[bz, by, bx * 64 : (bx + 1) * 64, :])

    return post


@pytest.mark.parametrize(
    "dtype_in, dtype_out, target", one_target_each([("float32", "float16"), ("bfloat16", "float32")])
)
def test_copy_between_global_tensors_converts_the_dtype(target, dtype_in, dtype_out):
    kernel = tilelang.compile(copy_converting(dtype_in, dtype_out), out_idx=[1], target=target)
    q = np.random.default_rng(11).standard_normal((2, 4, 128, 64)).astype(np.float32)
    q = q.astype(ml_dtypes.bfloat16) if dtype_in == "bfloat16" else q
    out = kernel(q)
    expected = q.astype(np.float32).astype(np.float16) if dtype_out == "float16" else q.astype(np.float32)
    assert out.dtype == np.dtype(dtype_out), out.dtype
    assert np.array_equal(np.asarray(out, np.float32), np.asarray(expected, np.float32)), (
        f"{dtype_in} → {dtype_out}: the copy differs from numpy's conversion"
    )


def scan_test(scan, M, N, block_M, block_N, dim=0, reverse=False, dtype=T.float32, scope="smem"):
    """TileLang's testing/python/language/test_tilelang_language_scan.py cumsum_smem_test,
    cumsum_fragment_test and cummax_smem_out_test (``scope``: in place in shared or fragment memory, or into
    a second shared buffer), imports changed, for ``scan`` T.cumsum or T.cummax."""

    @T.prim_func
    def main(
        A: T.Tensor((M, N), dtype),
        B: T.Tensor((M, N), dtype),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=256) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_N), dtype)
            T.copy(A[by * block_M, bx * block_N], A_shared)
            if scope == "smem":
                scan(src=A_shared, dim=dim, reverse=reverse)
                T.copy(A_shared, B[by * block_M, bx * block_N])
            elif scope == "fragment":
                A_fragment = T.alloc_fragment((block_M, block_N), dtype)
                T.copy(A_shared, A_fragment)
                scan(src=A_fragment, dim=dim, reverse=reverse)
                T.copy(A_fragment, B[by * block_M, bx * block_N])
            else:
                B_shared = T.alloc_shared((block_M, block_N), dtype)
                scan(src=A_shared, dst=B_shared, dim=dim, reverse=reverse)
                T.copy(B_shared, B[by * block_M, bx * block_N])

    return main


def _blockwise(a, block_M, block_N, dim, reverse, accumulate):
    """numpy's running ``accumulate`` within each block along ``dim``, forwards or reversed."""
    M, N = a.shape
    blocks = a.reshape(M // block_M, block_M, N // block_N, block_N)
    axis = 1 if dim == 0 else 3
    running = accumulate(np.flip(blocks, axis) if reverse else blocks, axis=axis)
    return (np.flip(running, axis) if reverse else running).reshape(M, N)


@pytest.mark.parametrize(
    "target, scope, dim, reverse",
    [
        ("wormhole", "smem", 0, False),
        ("wormhole", "smem", 1, True),
        ("blackhole", "fragment", 0, True),
        ("blackhole", "fragment", 1, False),
    ],
)
def test_cumsum_along_rows_and_columns(target, scope, dim, reverse):
    M, N, block = 128, 128, 64
    kernel = tilelang.compile(
        scan_test(T.cumsum, M, N, block, block, dim, reverse, scope=scope), out_idx=-1, target=target
    )
    a = np.random.default_rng(11).standard_normal((M, N)).astype(np.float32)
    _close(kernel(a), _blockwise(a, block, block, dim, reverse, np.cumsum))


@pytest.mark.parametrize(
    "target, scope, dim, reverse, shape",
    [
        ("wormhole", "fragment", 1, True, (128, 128, 64, 64)),
        ("blackhole", "smem_out", 0, True, (192, 160, 64, 32)),  # upstream's blocks narrower than tall
    ],
)
def test_cummax_along_rows_and_columns(target, scope, dim, reverse, shape):
    M, N, block_M, block_N = shape
    kernel = tilelang.compile(
        scan_test(T.cummax, M, N, block_M, block_N, dim, reverse, scope=scope), out_idx=-1, target=target
    )
    a = np.random.default_rng(12).standard_normal((M, N)).astype(np.float32)
    expected = _blockwise(a, block_M, block_N, dim, reverse, np.maximum.accumulate)
    got = kernel(a)
    assert np.array_equal(got, expected), f"max |difference| {np.abs(got - expected).max()} (cummax is exact)"


def reshape_test(N, M, dtype):
    """TileLang's testing/python/language/test_tilelang_language_reshape.py reshape_test, imports changed."""

    @T.prim_func
    def main(
        A: T.Tensor((N,), dtype),
        B: T.Tensor((N // M, M), dtype),
    ):
        with T.Kernel(1) as _:
            A_reshaped = T.reshape(A, [N // M, M])
            T.copy(A_reshaped, B)

    return main


@pytest.mark.parametrize(
    "target, N, M, dtype", [("wormhole", 1024, 32, "float32"), ("blackhole", 2048, 64, "float16")]
)
def test_reshape_of_a_global_tensor(target, N, M, dtype):
    kernel = tilelang.compile(reshape_test(N, M, dtype), out_idx=-1, target=target)
    a = np.random.default_rng(12).standard_normal(N).astype(dtype)
    assert np.array_equal(kernel(a), a.reshape(N // M, M)), "the reshaped copy differs from numpy's reshape"


@T.prim_func
def one_name_in_two_element_loops(A: T.Tensor((64, 64), T.float32), B: T.Tensor((64, 64), T.float32)):
    """As TileLang's LayerNorm backward names ``dy_v = ...`` in two T.Parallel nests: two values, one name."""
    with T.Kernel(2) as bx:
        a = T.alloc_fragment((32, 64), T.float32)
        b = T.alloc_fragment((32, 64), T.float32)
        T.copy(A[bx * 32, 0], a)
        for i, j in T.Parallel(32, 64):
            v = a[i, j] * 2.0
            b[i, j] = v + 1.0
        for i, j in T.Parallel(32, 64):
            v = b[i, j] * a[i, j]
            a[i, j] = v - b[i, j]
        T.copy(a, B[bx * 32, 0])


def test_a_name_given_to_values_in_two_loops_names_two_values():
    kernel = tilelang.compile(one_name_in_two_element_loops, out_idx=[1], target="blackhole")
    a = np.random.default_rng(5).standard_normal((64, 64)).astype(np.float32)
    b = a * 2 + 1
    np.testing.assert_allclose(kernel(a), b * a - b, rtol=1e-5, atol=1e-5)


def _reduce_op(T, op, src, dst, dim, batch=1):
    """TileLang's testing/python/language/test_tilelang_language_reduce.py calls the reductions from a plain
    Python helper (not a T.macro), passing its GPU knob ``batch`` only when it is not 1."""
    kwargs = {} if batch == 1 else {"batch": batch}
    getattr(T, f"reduce_{op}")(src, dst, dim=dim, **kwargs)


@tilelang.jit(out_idx=-1)
def reduce_through_a_helper(M, N, op, batch):
    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), B: T.Tensor((M,), "float32")):
        with T.Kernel(1, threads=32):
            src = T.alloc_fragment((M, N), "float32")
            dst = T.alloc_fragment((M,), "float32")
            T.copy(A, src, disable_tma=False)
            _reduce_op(T, op, src, dst, dim=1, batch=batch)
            T.copy(dst, B)

    return main


@pytest.mark.parametrize("op, batch", [("sum", 1), ("max", 4), ("absmax", 2)])
def test_tile_operations_called_from_a_python_helper_are_emitted(op, batch):
    a = np.random.default_rng(3).standard_normal((64, 96)).astype(np.float32)
    expected = {"sum": a.sum(1), "max": a.max(1), "absmax": np.abs(a).max(1)}[op]
    np.testing.assert_allclose(reduce_through_a_helper(64, 96, op, batch)(a), expected, rtol=1e-5, atol=1e-4)


@T.prim_func
def add_one_with_a_one_element_tuple(A: T.Tensor((256,), "float32"), B: T.Tensor((256,), "float32")):
    # TileLang's testing/python/language/test_tilelang_language_pdl.py binds a 1-D grid's index as `(bx,)`.
    with T.Kernel(T.ceildiv(256, 128), threads=128) as (bx,):
        for i in T.Parallel(128):
            B[bx * 128 + i] = A[bx * 128 + i] + 1.0


@pytest.mark.parametrize("target", ["blackhole"])
def test_a_one_dimensional_grid_index_binds_as_a_one_element_tuple(target):
    a = np.arange(256, dtype=np.float32)
    kernel = tilelang.compile(add_one_with_a_one_element_tuple, out_idx=[1], target=target)
    np.testing.assert_array_equal(kernel(a), a + 1)


@T.prim_func
def copy_with_a_swizzle_hint(A: T.Tensor((64, 64), "float16"), B: T.Tensor((64, 64), "float16")):
    # TileLang's linear-attention and GDN examples swizzle their shared tiles this way.
    with T.Kernel(1, threads=128):
        A_shared = T.alloc_shared((64, 64), "float16")
        T.annotate_layout({A_shared: tilelang.layout.make_swizzled_layout(A_shared)})
        T.copy(A, A_shared)
        T.copy(A_shared, B)


def test_gpu_layouts_from_tilelang_layout_are_accepted_and_ignored():
    a = np.random.default_rng(5).standard_normal((64, 64)).astype(np.float16)
    np.testing.assert_array_equal(tilelang.compile(copy_with_a_swizzle_hint, out_idx=[1])(a), a)
    assert tilelang.layout.make_wgmma_swizzled_layout(None, continuity=64).kind == "wgmma_swizzled"
    # upstream's tilelang/layout/__init__.py exports these too (ldmatrix fragments take no buffer)
    assert tilelang.layout.make_gemm_fragment_8x8_transposed().kind == "gemm_fragment_8x8_transposed"
    assert (
        tilelang.layout.make_fully_replicated_layout_fragment(None, 128).kind == "fully_replicated_fragment"
    )


def copy_mask(M, N, block_M, block_N, threads_take, parallel, dtype=T.float16):
    """TileLang's testing/python/language/test_tilelang_language_mask_op.py programs, imports changed: the
    copy in is done by the threads ``threads_take`` names (warp specialisation's producers), as a
    ``T.Parallel`` nest or a ``T.copy``."""

    @T.prim_func
    def main(
        A: T.Tensor((M, N), dtype),
        B: T.Tensor((M, N), dtype),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=256) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_N), dtype)

            tx = T.get_thread_binding(0)

            if threads_take(tx):
                if parallel:
                    for i, k in T.Parallel(block_M, block_N):
                        A_shared[i, k] = A[by * block_M + i, bx * block_N + k]
                else:
                    T.copy(A[by * block_M, bx * block_N], A_shared)

            T.copy(A_shared, B[by * block_M, bx * block_N])

    return main


@pytest.mark.parametrize(
    "target, parallel, threads_take",
    [
        ("blackhole", False, lambda tx: T.And(tx >= 128, tx < 256)),
    ],
    ids=["second_half_copy"],
)
def test_a_copy_some_threads_do_is_done_once(target, parallel, threads_take):
    kernel = tilelang.compile(
        copy_mask(256, 256, 128, 128, threads_take, parallel), out_idx=[1], target=target
    )
    a = np.random.default_rng(13).standard_normal((256, 256)).astype(np.float16)
    np.testing.assert_array_equal(kernel(a), a)


def if_range(M, N, block_M, block_N, dtype=T.float16):
    """TileLang's testing/python/language/test_tilelang_language_if_range.py tilelang_if_range, imports
    changed: named element positions, a chained comparison, and both branches storing the element."""

    @T.prim_func
    def main(
        A: T.Tensor((M, N), dtype),
        B: T.Tensor((M, N), dtype),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            for i, j in T.Parallel(block_M, block_N):
                row_idx = by * block_M + i
                col_idx = bx * block_N + j
                if 16 < row_idx < 96:
                    B[row_idx, col_idx] = A[row_idx, col_idx] * 2.0
                else:
                    B[row_idx, col_idx] = A[row_idx, col_idx] * 0.5

    return main


def test_branches_storing_one_element_from_a_chained_comparison():
    kernel = tilelang.compile(if_range(128, 128, 32, 32), out_idx=[1], target="blackhole")
    a = np.random.default_rng(14).standard_normal((128, 128)).astype(np.float16)
    rows = np.arange(128)[:, None]
    expected = np.where((rows > 16) & (rows < 96), a * np.float16(2), a * np.float16(0.5))
    np.testing.assert_array_equal(kernel(a), expected)


def infinity_kernel(dtype):
    """TileLang's testing/python/language/test_tilelang_language_infinity.py get_inf_kernel, imports
    changed: T.fill straight into a global tensor."""

    @T.prim_func
    def main(A: T.Tensor((32,), dtype)):
        with T.Kernel(1, threads=32):
            T.fill(A, T.infinity(dtype))

    return main


@pytest.mark.parametrize("dtype", ["bfloat16"])  # the dtype TVM's own T.infinity knows not
def test_a_global_tensor_filled_with_infinity(dtype):
    output = tilelang.compile(infinity_kernel(dtype), out_idx=-1, target=TARGETS[len(dtype) % 2])()
    assert str(output.dtype) == dtype and np.all(np.asarray(output, np.float32) == np.inf), output


@T.prim_func
def clear_rows_of_a_global_tensor(A: T.Tensor((64, 96), "float32")):
    with T.Kernel(2, threads=32) as bx:
        T.clear(A[bx * 32 : bx * 32 + 32, 0:96])


def test_blocks_clear_their_rows_of_a_global_tensor():
    a = np.ones((64, 96), np.float32)
    tilelang.compile(clear_rows_of_a_global_tensor)(a)
    np.testing.assert_array_equal(a, 0)


def chain_equal(N, block_size, dtype=T.float32):
    """TileLang's testing/python/language/test_tilelang_language_chain_equal.py chain_equal, imports
    changed: one value assigned to three tensors in one statement."""

    @T.prim_func
    def main(
        A: T.Tensor((N,), dtype),
        B: T.Tensor((N,), dtype),
        C: T.Tensor((N,), dtype),
    ):
        with T.Kernel(T.ceildiv(N, block_size), threads=block_size) as bx:
            for lane in T.Parallel(block_size):
                idx = bx * block_size + lane
                A[idx] = B[idx] = C[idx] = 1

    return main


@T.prim_func
def chained_value_read_from_a_target(A: T.Tensor((64, 64), "float32"), B: T.Tensor((64, 64), "float32")):
    with T.Kernel(1, threads=128):
        A_f = T.alloc_fragment((64, 64), "float32")
        B_f = T.alloc_fragment((64, 64), "float32")
        T.copy(A, A_f)
        for i, j in T.Parallel(64, 64):
            A_f[i, j] = B_f[i, j] = A_f[i, j] * 2.0  # as Python: the value once, then A_f, then B_f
        for i, j in T.Parallel(64, 64):
            B[i, j] = A_f[i, j] + B_f[i, j]


def test_chained_assignments_assign_one_value_left_to_right():
    a, b, c = (np.zeros(128, np.float32) for _ in range(3))
    tilelang.compile(chain_equal(128, 64), target="blackhole")(a, b, c)
    for name, x in zip("ABC", (a, b, c), strict=True):
        np.testing.assert_array_equal(x, 1, err_msg=name)
    x = np.random.default_rng(15).standard_normal((64, 64)).astype(np.float32)
    np.testing.assert_array_equal(tilelang.compile(chained_value_read_from_a_target, out_idx=[1])(x), 4 * x)


def matmul_through_aliases(M, N, K, block_M, block_N, block_K, dtype=T.float16, accum_dtype=T.float32):
    """TileLang's testing/python/language/test_tilelang_language_alias.py matmul, imports changed: regions
    named as buffers (``X_shared = A_shared[:block_M, :block_K]``) and an offset bound by ``T.let``."""

    @T.prim_func
    def main(
        A: T.Tensor((M, K), dtype),
        B: T.Tensor((N, K), dtype),
        C: T.Tensor((M, N), dtype),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_N, block_K), dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)

            T.clear(C_local)

            X_shared = A_shared[:block_M, :block_K]
            X_local = C_local[:block_M, :block_K]
            T.clear(X_local)

            for ko in T.Pipelined(T.ceildiv(K, block_K), num_stages=0):
                aliased_offset = T.int32()
                T.let(aliased_offset, ko * block_K)
                T.copy(A[by * block_M, aliased_offset], X_shared)
                T.copy(B[bx * block_N, ko * block_K], B_shared[:block_N, :block_K])
                T.gemm(X_shared, B_shared, C_local, transpose_B=True)

            T.copy(C_local, C[by * block_M, bx * block_N])

    return main


def test_regions_named_as_buffers_and_an_offset_bound_by_let():
    kernel = tilelang.compile(matmul_through_aliases(128, 128, 128, 64, 64, 32), out_idx=[2])
    rng = np.random.default_rng(16)
    a, b = (rng.standard_normal((128, 128)).astype(np.float16) for _ in range(2))
    _close(kernel(a, b), a.astype(np.float32) @ b.astype(np.float32).T)
    assert np.asarray(kernel.run_once()).shape == (128, 128)  # upstream's own test only runs it once


def scan_1d_test(op, N, block_N, reverse=False, dtype=T.float32, scope="smem"):
    """TileLang's test_tilelang_language_scan.py cumsum_smem_test_1d / cumsum_fragment_test_1d (and their
    cummax twins), imports changed; the scan is picked in the body, as its strided tests do."""

    @T.prim_func
    def main(
        A: T.Tensor((N,), dtype),
        B: T.Tensor((N,), dtype),
    ):
        with T.Kernel(T.ceildiv(N, block_N), threads=block_N) as bx:
            A_shared = T.alloc_shared((block_N,), dtype)
            T.copy(A[bx * block_N], A_shared)
            scan = T.cumsum if op == "cumsum" else T.cummax
            if scope == "smem":
                scan(src=A_shared, dim=0, reverse=reverse)
                T.copy(A_shared, B[bx * block_N])
            else:
                A_fragment = T.alloc_fragment((block_N,), dtype)
                T.copy(A_shared, A_fragment)
                scan(src=A_fragment, dim=0, reverse=reverse)
                T.copy(A_fragment, B[bx * block_N])

    return main


@pytest.mark.parametrize(
    "target, op, reverse, scope",
    [
        ("blackhole", "cumsum", True, "fragment"),
        ("wormhole", "cummax", False, "smem"),
    ],
)
def test_scans_of_a_vector(target, op, reverse, scope):
    kernel = tilelang.compile(scan_1d_test(op, 256, 64, reverse, scope=scope), out_idx=-1, target=target)
    a = np.random.default_rng(17).standard_normal(256).astype(np.float32)
    accumulate = np.cumsum if op == "cumsum" else np.maximum.accumulate
    expected = _blockwise(a[None, :], 1, 64, 1, reverse, accumulate)[0]
    got = kernel(a)
    if op == "cummax":
        np.testing.assert_array_equal(got, expected)
    else:
        _close(got, expected)


def finalize_reducer_kernel(block_M, block_N, dtype, op, batch):
    """TileLang's test_tilelang_language_reduce.py _make_finalize_reducer_kernel, imports changed: a
    reducer of each kind, updated in ``T.Parallel`` and finalized (the reducer starts cleared, at 0)."""

    @T.prim_func
    def kernel(A: T.Tensor((block_M, block_N), dtype), B: T.Tensor((block_M,), dtype)):
        with T.Kernel(1, threads=256):
            o_reducer = T.alloc_reducer(block_M, dtype, op=op, replication="all")
            T.clear(o_reducer)
            A_smem = T.alloc_shared((block_M, block_N), dtype)
            T.copy(A, A_smem)
            A_frag = T.alloc_fragment((block_M, block_N), dtype)
            T.copy(A_smem, A_frag)
            for i, j in T.Parallel(block_M, block_N):
                if op == "sum":
                    o_reducer[i] += A_frag[i, j]
                elif op == "max":
                    o_reducer[i] = T.max(o_reducer[i], A_frag[i, j])
                else:
                    o_reducer[i] = T.min(o_reducer[i], A_frag[i, j])
            T.finalize_reducer(o_reducer, batch=batch)
            T.copy(o_reducer, B)

    return kernel


@pytest.mark.parametrize(
    "op, dtype, block_M, block_N, batch, target",
    [
        ("max", "float16", 64, 128, 8, "blackhole"),
        ("min", "float32", 128, 128, 16, "wormhole"),
    ],
)
def test_reducers_of_each_kind(op, dtype, block_M, block_N, batch, target):
    kernel = tilelang.compile(
        finalize_reducer_kernel(block_M, block_N, dtype, op, batch), out_idx=-1, target=target
    )
    a = np.random.default_rng(18).standard_normal((block_M, block_N)).astype(dtype)
    rows = a.astype(np.float32)
    expected = {
        "sum": rows.sum(1),
        "max": np.maximum(rows.max(1), 0),  # the cleared reducer's 0 takes part
        "min": np.minimum(rows.min(1), 0),
    }[op]
    _close(kernel(a).astype(np.float32), expected)
