"""Functions of several ``T.Kernel`` blocks with ``T.alloc_global`` workspaces (the shape of TileLang's
split-KV decoding: a split kernel writes partial results, a second kernel combines them), and vectors a
program uses both as a column and as a row, on the simulated device against numpy."""

import numpy as np
import pytest
import tilelang_tt as tilelang
import tilelang_tt.language as T
from tilelang_tt.errors import TTCompileError
from tilelang_tt.staged_kernel import StagedKernel


def split_k_through_a_workspace(M, N, K, split, block_M=32, block_N=32, block_K=32):
    """Split-K GEMM in two kernels: partial products into a workspace, then their sum."""
    per_split = K // split

    @T.prim_func
    def split_k_gemm(
        A: T.Tensor((M, K), T.float16),
        B: T.Tensor((K, N), T.float16),
        C: T.Tensor((M, N), T.float32),
    ):
        partial = T.alloc_global((split, M, N), T.float32)
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), split, threads=128) as (bx, by, bz):
            A_shared = T.alloc_shared((block_M, block_K), T.float16)
            B_shared = T.alloc_shared((block_K, block_N), T.float16)
            C_local = T.alloc_fragment((block_M, block_N), T.float32)
            T.clear(C_local)
            for ko in T.Pipelined(T.ceildiv(per_split, block_K), num_stages=2):
                T.copy(A[by * block_M, bz * per_split + ko * block_K], A_shared)
                T.copy(B[bz * per_split + ko * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(C_local, partial[bz, by * block_M, bx * block_N])
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            total = T.alloc_fragment((block_M, block_N), T.float32)
            part = T.alloc_fragment((block_M, block_N), T.float32)
            T.clear(total)
            for s in T.serial(split):
                T.copy(partial[s, by * block_M, bx * block_N], part)
                for i, j in T.Parallel(block_M, block_N):
                    total[i, j] += part[i, j]
            T.copy(total, C[by * block_M, bx * block_N])

    return split_k_gemm


@pytest.mark.parametrize("target", ["wormhole"])
def test_two_kernels_share_a_workspace(target):
    kernel = tilelang.compile(split_k_through_a_workspace(64, 96, 256, 4), out_idx=[2], target=target)
    assert isinstance(kernel, StagedKernel), type(kernel)
    assert [p.name for p in kernel.programs] == ["split_k_gemm_kernel1", "split_k_gemm_kernel2"]
    # the workspace is no parameter of the function: the caller passes A and B and gets C
    assert [(p["name"], p["access"]) for p in kernel.params] == [("A", "read"), ("B", "read"), ("C", "write")]
    assert [w["name"] for w in kernel.workspaces] == ["partial"]
    rng = np.random.default_rng(0)
    a = rng.standard_normal((64, 256)).astype(np.float16)
    b = rng.standard_normal((256, 96)).astype(np.float16)
    c = kernel(a, b)
    expected = a.astype(np.float32) @ b.astype(np.float32)
    np.testing.assert_allclose(
        c, expected, rtol=1e-3, atol=1e-3, err_msg="split then sum through a workspace"
    )
    # a second call starts from a zeroed workspace again (nothing of the first call's partials is summed)
    np.testing.assert_allclose(kernel(a, b), expected, rtol=1e-3, atol=1e-3, err_msg="second call")


def _sharded(axes, grid):
    return {"memory": "L1", "layout": "sharded", "nd_shard": {"axes": axes, "grid": grid}}


@pytest.mark.parametrize("target", ["blackhole"])
def test_layout_hints_reach_the_programs_whose_tensors_they_name(target):
    """A sharded in the first program only, the workspace sharded over its splits (written by the first,
    read by the second), C sharded in the second: each program takes the hints of its own tensors."""
    layout = {"A": _sharded([0], [2]), "partial": _sharded([0], [4]), "C": _sharded([0, 1], [2, 3])}
    func = tilelang.annotate_tt_layout(split_k_through_a_workspace(64, 96, 256, 4), layout)
    kernel = tilelang.compile(func, out_idx=[2], target=target)
    first, second = (p.plan["layouts"] for p in kernel.programs)
    assert (first["A"]["layout"], first["partial"]["layout"]) == ("sharded", "sharded"), first
    assert (second["partial"]["layout"], second["C"]["layout"]) == ("sharded", "sharded"), second
    rng = np.random.default_rng(1)
    a = rng.standard_normal((64, 256)).astype(np.float16)
    b = rng.standard_normal((256, 96)).astype(np.float16)
    expected = a.astype(np.float32) @ b.astype(np.float32)
    np.testing.assert_allclose(kernel(a, b), expected, rtol=1e-3, atol=1e-3, err_msg="sharded split-K")


@pytest.mark.parametrize("target", ["wormhole"])
def test_a_workspace_goes_from_one_program_to_the_next_on_the_device(target):
    """One host program runs both programs on one device: the partial sums the first writes into the
    workspace (sharded in L1 over its splits) are what the second reads, and they never reach the host —
    its copy of the workspace still holds what it was given (NaN), while C is right."""
    layout = {"partial": _sharded([0], [4])}
    func = tilelang.annotate_tt_layout(split_k_through_a_workspace(64, 96, 256, 4), layout)
    kernel = tilelang.compile(func, out_idx=[2], target=target)
    assert kernel.sequence_host is not None, kernel.why_separate
    rng = np.random.default_rng(2)
    a = rng.standard_normal((64, 256)).astype(np.float16)
    b = rng.standard_normal((256, 96)).astype(np.float16)
    c = np.zeros((64, 96), np.float32)
    partial = np.full((4, 64, 96), np.nan, np.float32)
    arrays = {"A": a, "B": b, "C": c, "partial": partial}
    kernel.sequence_host.run([arrays[t["name"]] for t in kernel.sequence_host.params])
    expected = a.astype(np.float32) @ b.astype(np.float32)
    np.testing.assert_allclose(c, expected, rtol=1e-3, atol=1e-3, err_msg="split then sum on the device")
    assert np.isnan(partial).all(), "the workspace came back to the host"


def test_a_layout_hint_naming_no_tensor_of_any_program_is_a_located_error():
    func = tilelang.annotate_tt_layout(split_k_through_a_workspace(64, 96, 256, 4), {"D": {"memory": "L1"}})
    with pytest.raises(TTCompileError, match="tt.layout_hints names 'D', which is not a buffer"):
        tilelang.compile(func, out_idx=[2])


def test_a_profile_covers_every_program_of_the_call(tmp_path):
    kernel = tilelang.compile(split_k_through_a_workspace(64, 64, 128, 2), out_idx=[2])
    profile = kernel.profile()
    assert len(profile.session.runs) == 2, "one device run per program"
    assert profile.device_ms > 0
    written = kernel.write_artifacts(str(tmp_path))
    for program in kernel.programs:  # one folder of artifacts per program
        assert sorted(p.name for p in (tmp_path / program.name).iterdir()) == sorted(program.artifacts)
    # and the host program running them all on one device
    assert len(written) == sum(len(p.artifacts) for p in kernel.programs) + 1
    assert (tmp_path / "main.cpp").read_text() == kernel.artifacts["main.cpp"]
    assert "split_k_gemm_kernel2/compute.cpp" in kernel.get_kernel_source()


@T.prim_func
def scale_columns_by_row_maxima(A: T.Tensor((64, 64), T.float32), B: T.Tensor((64, 64), T.float32)):
    """m[i] = max_j A[i, j] is a column (one value per row); B[i, j] = A[i, j] * m[j] reads it as a row."""
    with T.Kernel(1) as _:
        A_local = T.alloc_fragment((64, 64), T.float32)
        m = T.alloc_fragment((64,), T.float32)
        T.copy(A, A_local)
        T.reduce_max(A_local, m, dim=1)
        for i, j in T.Parallel(64, 64):
            A_local[i, j] = A_local[i, j] * m[j]
        T.copy(A_local, B)


@T.prim_func
def scale_rows_by_column_sums(A: T.Tensor((64, 64), T.float32), B: T.Tensor((64, 64), T.float32)):
    """c[j] = sum_i A[i, j] is a row (one value per column); ``B[i, j] = A[i, j] * c[i]`` reads it as a
    column, as flash decoding's combine kernel scales the rows of a partial output by a row of its table."""
    with T.Kernel(1) as _:
        A_local = T.alloc_fragment((64, 64), T.float32)
        c = T.alloc_fragment((64,), T.float32)
        T.copy(A, A_local)
        T.reduce_sum(A_local, c, dim=0)
        for i, j in T.Parallel(64, 64):
            A_local[i, j] = A_local[i, j] * c[i]
        T.copy(A_local, B)


def test_a_column_vector_read_as_a_row_is_transposed():
    kernel = tilelang.compile(scale_columns_by_row_maxima, out_idx=[1], target="wormhole")
    a = np.random.default_rng(1).standard_normal((64, 64)).astype(np.float32)
    np.testing.assert_allclose(kernel(a), a * a.max(axis=1)[None, :], rtol=1e-6, err_msg="A * rowmax(A)[j]")


def test_a_row_vector_read_as_a_column_is_transposed():
    kernel = tilelang.compile(scale_rows_by_column_sums, out_idx=[1], target="blackhole")
    a = np.random.default_rng(2).standard_normal((64, 64)).astype(np.float32)
    expected = a * a.sum(axis=0)[:, None]
    np.testing.assert_allclose(kernel(a), expected, rtol=1e-3, atol=1e-3, err_msg="A * colsum(A)[i]")


@pytest.mark.parametrize("cut", ["second_core_count", "last_word"])
def test_the_sequences_host_program_rejects_sizes_cut_short(cut):
    """main.cpp walks each program's named sizes and work table; sizes that end inside them (just before
    the second program's core count, or one word early) are a ValueError naming the programs."""
    from tilelang_tt.host_sizes import core_fields, sequence_values
    from tilelang_tt.jit import _device

    kernel = tilelang.compile(split_k_through_a_workspace(64, 96, 256, 4), out_idx=[2])
    host = kernel.sequence_host
    directory, so_path = host.build()
    sizes = sequence_values(host.sizes_of, host.plan["programs"])
    if cut == "second_core_count":
        plan = kernel.programs[1].plan
        second = len(host.sizes_of["programs"][1])
        first_end = len(sizes) - second - 1 - len(plan["core_work"]) * len(core_fields(plan))
        sizes = sizes[: first_end + second]
    else:
        sizes = sizes[:-1]
    arrays = [np.zeros(t["shape"], np.uint16 if t["dtype"] == "float16" else np.float32) for t in host.params]
    with pytest.raises(ValueError, match="split_k_gemm takes sizes for 2 programs"):
        _device().HostProgram(so_path).run(directory, arrays, sizes=sizes)


@T.prim_func
def swap_blocks_after_a_barrier(
    A: T.Tensor((64, 64), "float32"), C: T.Tensor((64, 64), "float32"), W: T.Tensor((64, 64), "float32")
):
    """W = 2 A block by block; after the grid barrier each block reads the block diagonally opposite,
    which another core wrote: C[block (y, x)] = W[block (1 - y, 1 - x)] + 2 y + x."""
    with T.Kernel(2, 2) as (bx, by):
        a = T.alloc_fragment((32, 32), "float32")
        b = T.alloc_fragment((32, 32), "float32")  # used after the barrier only
        block = T.Cast("float32", by * 2 + bx)  # a named value computed again after the barrier
        T.copy(A[by * 32, bx * 32], a)
        for i, j in T.Parallel(32, 32):
            a[i, j] = a[i, j] * 2.0
        T.copy(a, W[by * 32, bx * 32])
        T.sync_grid()
        T.copy(W[(1 - by) * 32, (1 - bx) * 32], b)
        for i, j in T.Parallel(32, 32):
            b[i, j] = b[i, j] + block
        T.copy(b, C[by * 32, bx * 32])


@pytest.mark.parametrize("target", ["blackhole"])
def test_a_grid_barrier_splits_the_kernel_into_programs_run_in_order(target):
    """T.sync_grid() ends one program and starts the next on the same device: every block of the first
    phase has written W before any block of the second reads it."""
    kernel = tilelang.compile(swap_blocks_after_a_barrier, out_idx=[1, 2], target=target)
    assert [p.name for p in kernel.programs] == [
        "swap_blocks_after_a_barrier_kernel1",
        "swap_blocks_after_a_barrier_kernel2",
    ]
    assert kernel.sequence_host is not None, kernel.why_separate
    a = np.random.default_rng(4).standard_normal((64, 64)).astype(np.float32)
    c, w = kernel(a)
    np.testing.assert_array_equal(w, 2 * a)
    swapped = (2 * a).reshape(2, 32, 2, 32)[::-1, :, ::-1, :]
    block = (2 * np.arange(2)[:, None, None, None] + np.arange(2)[None, None, :, None]).astype(np.float32)
    np.testing.assert_array_equal(c, (swapped + block).reshape(64, 64))


@T.prim_func
def barrier_in_a_loop(A: T.Tensor((64, 64), "float32"), C: T.Tensor((64, 64), "float32")):
    with T.Kernel(2, 2) as (bx, by):
        a = T.alloc_fragment((32, 32), "float32")
        for _ in T.serial(2):
            T.copy(A[by * 32, bx * 32], a)
            T.sync_grid()
        T.copy(a, C[by * 32, bx * 32])


@T.prim_func
def value_across_a_barrier(A: T.Tensor((64, 64), "float32"), C: T.Tensor((64, 64), "float32")):
    with T.Kernel(2, 2) as (bx, by):
        a = T.alloc_fragment((32, 32), "float32")
        T.copy(A[by * 32, bx * 32], a)
        first = a[0, 0]
        T.sync_grid()
        for i, j in T.Parallel(32, 32):
            a[i, j] = first
        T.copy(a, C[by * 32, bx * 32])


def test_a_value_read_from_a_buffer_before_a_grid_barrier_and_used_after_is_a_located_error():
    with pytest.raises(
        TTCompileError, match="first is computed from a before T.sync_grid and used after"
    ) as err:
        tilelang.compile(value_across_a_barrier, out_idx=[1])
    assert "test_kernel_sequences.py" in str(err.value), err.value


def test_a_grid_barrier_inside_a_loop_is_a_located_error():
    with pytest.raises(
        TTCompileError, match="T.sync_grid is supported at the top level of a T.Kernel"
    ) as err:
        tilelang.compile(barrier_in_a_loop, out_idx=[1])
    assert "test_kernel_sequences.py" in str(err.value), err.value
