"""annotate_tt_layout (the original Tenstorrent fork's layout annotation): function and decorator forms,
the fork's attribute name, and what the compiler does with each hint — executes it (DRAM or L1
interleaved, L1 sharded: run against numpy on both archs) or names it in a located error."""

import ml_dtypes
import numpy as np
import pytest
import tilelang_tt
import tilelang_tt.language as T
from programs import attr, box_stencil, gemm, lower, page_table_gather
from targets import one_target_each
from tilelang_tt.errors import TTCompileError
from tilelang_tt.passes.layout_aware_work_partition_tt import core_blocks, z_order_position
from tilelang_tt.records import CoreWork
from tilelang_tt.sharding import shard_cores
from tilelang_tt.target import get_target as target_of


def _add3(shape, block=(1, 32, 32)):
    """C = A + B over a 3-D tensor (batch, rows, columns), one (1, 32, 32) block per grid point."""
    batch, rows, cols = shape

    @T.prim_func
    def add3(A: T.Tensor(shape, "bfloat16"), B: T.Tensor(shape, "bfloat16"), C: T.Tensor(shape, "bfloat16")):
        with T.Kernel(cols // 32, rows // 32, batch) as (bx, by, bz):
            A_s = T.alloc_shared((32, 32), "bfloat16")
            B_s = T.alloc_shared((32, 32), "bfloat16")
            C_f = T.alloc_fragment((32, 32), "float")
            T.copy(A[bz, by * 32 : (by + 1) * 32, bx * 32 : (bx + 1) * 32], A_s)
            T.copy(B[bz, by * 32 : (by + 1) * 32, bx * 32 : (bx + 1) * 32], B_s)
            for i, j in T.Parallel(32, 32):
                C_f[i, j] = A_s[i, j] + B_s[i, j]
            T.copy(C_f, C[bz, by * 32 : (by + 1) * 32, bx * 32 : (bx + 1) * 32])

    return add3


def test_annotate_as_a_function_and_as_a_decorator_write_the_same_hints():
    layout = {"A": {"memory": "L1", "layout": "interleaved"}}
    by_call = tilelang_tt.annotate_tt_layout(gemm(), layout)
    by_decorator = tilelang_tt.annotate_tt_layout(layout)(gemm())
    for func in (by_call, by_decorator):
        assert attr(lower(func, "InferTTLayout"), "tt.layout_desc")["A"].memory == "L1"


def test_annotations_merge_over_the_hints_a_function_has():
    func = tilelang_tt.annotate_tt_layout(gemm(), {"A": {"memory": "L1"}})
    func = tilelang_tt.annotate_tt_layout(func, {"A": {"layout": "interleaved"}, "B": {"memory": "L1"}})
    desc = attr(lower(func, "InferTTLayout"), "tt.layout_desc")
    assert (desc["A"].memory, desc["A"].layout, desc["B"].memory) == ("L1", "interleaved", "L1")


def test_the_forks_attribute_name_is_read_too():
    func = gemm().with_attr("tt.user_layout", {"B": {"memory": "L1"}})
    assert attr(lower(func, "InferTTLayout"), "tt.layout_desc")["B"].memory == "L1"


def _sharded(axes, grid, order="row_major"):
    return {"memory": "L1", "layout": "sharded", "nd_shard": {"axes": axes, "grid": grid, "order": order}}


@pytest.mark.parametrize(
    "hint, message",
    [
        ({"axes": [0]}, r"nd_shard of A is .*; give \{'axes'"),
        ({"axes": [0, 1], "grid": [2]}, "give one positive shard count per distinct axis"),
        (
            {"axes": ["M", "N"], "grid": [2, 4]},
            r"has axes \['M', 'N'\] and grid \[2, 4\]; give dimension numbers",
        ),
        ({"axes": [2], "grid": [2]}, r"splits axes \[2\], but A has 2 dimensions"),
        (
            {"axes": [0], "grid": [2], "order": "z_order"},
            "has order 'z_order'; choose row_major or col_major",
        ),
    ],
)
def test_malformed_shard_grids_are_located_errors(hint, message):
    func = tilelang_tt.annotate_tt_layout(
        gemm(), {"A": {"memory": "L1", "layout": "sharded", "nd_shard": hint}}
    )
    with pytest.raises(TTCompileError, match=message) as err:
        lower(func, "InferTTLayout")
    assert "programs.py" in str(err.value), f"the error should point at the kernel's definition:\n{err.value}"


def test_shards_that_are_not_runs_of_rows_are_a_located_error():
    """Splitting the middle dimension of (B, S, D) gives each shard rows of every batch: no height shard."""
    func = tilelang_tt.annotate_tt_layout(_add3((2, 64, 64)), {"A": _sharded([1], [2])})
    with pytest.raises(TTCompileError, match=r"its shards are not contiguous runs of rows"):
        lower(func, "InferTTLayout")


def test_an_index_table_cannot_be_sharded():
    func = tilelang_tt.annotate_tt_layout(page_table_gather, {"Pages": _sharded([-2], [2])})
    with pytest.raises(TTCompileError, match="Pages is read one value at a time .* it cannot be sharded"):
        lower(func, "AttachTensorAccessorTT")


@pytest.mark.parametrize(
    "shard, message",
    [
        (_sharded([2], [3]), "A is sharded 1 x 3 over its 10 x 10 tiles; the shard grid must cut its tiles"),
        (
            _sharded([1, 2], [10, 10]),
            r"A is sharded 10 x 10 \(BLOCK_SHARDED, row_major\), but wormhole's 8 x 8",
        ),
    ],
)
def test_shard_grids_that_do_not_fit_are_located_errors(shard, message):
    func = tilelang_tt.annotate_tt_layout(_add3((1, 320, 320)), {"A": shard})
    with pytest.raises(TTCompileError, match=message) as err:
        lower(func, "AttachTensorAccessorTT")
    assert "test_layout_hints.py" in str(err.value), f"the error should point at the copy of A:\n{err.value}"


def _box_reference(a, reach):
    """numpy: the block sums of ``box_stencil``, added in its order (float32, rounded to bf16 once)."""
    rows, cols = a.shape
    blocks = a.astype(np.float32).reshape(rows // 32, 32, cols // 32, 32)
    out = np.zeros_like(blocks)
    for by in range(rows // 32):
        for bx in range(cols // 32):
            for i in range(max(by - reach[0], 0), min(by + reach[0] + 1, rows // 32)):
                for j in range(max(bx - reach[1], 0), min(bx + reach[1] + 1, cols // 32)):
                    out[by, :, bx] += blocks[i, :, j]
    return out.reshape(rows, cols).astype(ml_dtypes.bfloat16)


def _with_halo(hint, halo):
    return {**hint, "halo": halo}


# (shape, reach in blocks, layout): A height-sharded with a halo of one tile row, C sharded alike and
# computed where its shards are (so every read of A is in the core's own window); the same for A
# block-sharded with a halo of one tile on every side; A width-sharded with a two-tile halo and C's blocks
# in row-major order
# (some windows are not where the blocks run: those reads go to the owners).
HALOS = {
    "height": (
        (256, 64),
        (1, 0),
        {
            "A": _with_halo(_sharded([0], [4]), [32, 0]),
            "C": {**_sharded([0], [4]), "tile_id_order": "match_shard"},
        },
    ),
    "block_2d": (
        (192, 256),
        (1, 1),
        {
            "A": _with_halo(_sharded([0, 1], [3, 4]), [32, 32]),
            "C": {**_sharded([0, 1], [3, 4]), "tile_id_order": "match_shard"},
        },
    ),
    "width_two_tiles": ((64, 384), (0, 2), {"A": _with_halo(_sharded([1], [3]), [0, 64])}),
    # an output with a halo: the writer also fills the neighbours' halos; the host reads each shard's own
    "output_with_halo": ((256, 64), (1, 0), {"C": _with_halo(_sharded([0], [4]), [32, 0])}),
}


@pytest.mark.parametrize("name, target", one_target_each(HALOS))
def test_halos_hold_the_neighbours_tiles_a_stencil_reads(name, target):
    """A sharded tensor with a halo: each core's L1 holds its shard widened by its neighbours' edge tiles
    (zeros past the tensor), and the reader takes a tile from there when the core holds it: the block
    stencil matches numpy exactly."""
    shape, reach, layout = HALOS[name]
    kernel = tilelang_tt.compile(
        tilelang_tt.annotate_tt_layout(box_stencil(shape, reach), layout), out_idx=[-1], target=target
    )
    a = np.random.default_rng(2).standard_normal(shape).astype(ml_dtypes.bfloat16)
    result, expected = kernel(a), _box_reference(a, reach)
    assert np.array_equal(result, expected), f"{np.sum(result != expected)} of {result.size} sums differ"
    for name, hint in layout.items():
        accessor = next(t for t in kernel.plan["tensors"] if t["name"] == name)
        assert accessor["halo"] == [h // 32 for h in hint.get("halo", [0, 0]) if "halo" in hint], accessor


def doubled_then_box(shape):
    """X = 2 A in a first program, C = the 3-block stencil of X down the rows in a second: X, a workspace
    with a halo, is exchanged between the shards by the first program's writer, on the device."""
    rows, cols = shape

    @T.prim_func
    def doubled_box(A: T.Tensor(shape, "bfloat16"), C: T.Tensor(shape, "bfloat16")):
        X = T.alloc_global(shape, "bfloat16")
        with T.Kernel(cols // 32, rows // 32) as (bx, by):
            a = T.alloc_fragment((32, 32), "float")
            T.copy(A[by * 32, bx * 32], a)
            for r, c in T.Parallel(32, 32):
                a[r, c] = a[r, c] * 2.0
            T.copy(a, X[by * 32, bx * 32])
        with T.Kernel(cols // 32, rows // 32) as (bx, by):
            X_s = T.alloc_shared((32, 32), "bfloat16")
            C_f = T.alloc_fragment((32, 32), "float")
            T.clear(C_f)
            for i in T.serial(T.max(by - 1, 0), T.min(by + 2, rows // 32)):
                T.copy(X[i * 32, bx * 32], X_s)
                for r, c in T.Parallel(32, 32):
                    C_f[r, c] += X_s[r, c]
            T.copy(C_f, C[by * 32, bx * 32])

    return doubled_box


@pytest.mark.parametrize("target", ["wormhole"])
def test_a_halo_written_by_one_program_is_read_by_the_next_on_the_device(target):
    """The first program writes X's shards and its writer copies each shard's edge tiles into its
    neighbours' halos; the second reads them from its own window. One host program runs both: X never
    reaches the host, and the stencil of 2 A matches numpy exactly."""
    layout = {
        "X": _with_halo(_sharded([0], [4]), [32, 0]),
        "C": {**_sharded([0], [4]), "tile_id_order": "match_shard"},
    }
    kernel = tilelang_tt.compile(
        tilelang_tt.annotate_tt_layout(doubled_then_box((256, 64)), layout), out_idx=[-1], target=target
    )
    assert kernel.sequence_host is not None, kernel.why_separate
    a = np.random.default_rng(3).standard_normal((256, 64)).astype(ml_dtypes.bfloat16)
    doubled = (a.astype(np.float32) * 2).astype(ml_dtypes.bfloat16)
    result, expected = kernel(a), _box_reference(doubled, (1, 0))
    assert np.array_equal(result, expected), f"{np.sum(result != expected)} of {result.size} sums differ"


@pytest.mark.parametrize(
    "layout, message",
    [
        ({"A": {"halo": [32, 0]}}, "sets a halo but layout 'interleaved'"),
        ({"A": _with_halo(_sharded([0], [4]), [1])}, r"the halo of A is \[1\]; give \[rows, columns\]"),
        ({"A": _with_halo(_sharded([0], [4]), [16, 0])}, r"halos are whole 32x32 tiles .*\(16 rows is not"),
        ({"A": _with_halo(_sharded([0], [4]), [0, 32])}, "not split along its columns .* no neighbouring"),
        ({"A": _with_halo(_sharded([0], [4]), [96, 0])}, r"is wider than its shards \(64 rows\)"),
    ],
)
def test_invalid_halos_are_located_errors(layout, message):
    func = tilelang_tt.annotate_tt_layout(box_stencil((256, 64), (1, 0)), layout)
    with pytest.raises(TTCompileError, match=message) as err:
        lower(func, "AttachTensorAccessorTT")
    assert "programs.py" in str(err.value), f"the error should name the program's line:\n{err.value}"


@T.prim_func
def add_into(A: T.Tensor((256, 64), "bfloat16"), C: T.Tensor((256, 64), "bfloat16")):
    """C += A, block by block: C is read and written by one program."""
    with T.Kernel(2, 8) as (bx, by):
        a = T.alloc_fragment((32, 32), "float")
        c = T.alloc_fragment((32, 32), "float")
        T.copy(A[by * 32, bx * 32], a)
        T.copy(C[by * 32, bx * 32], c)
        for i, j in T.Parallel(32, 32):
            c[i, j] += a[i, j]
        T.copy(c, C[by * 32, bx * 32])


def test_a_halo_on_a_tensor_one_program_reads_and_writes_is_a_located_error():
    func = tilelang_tt.annotate_tt_layout(add_into, {"C": _with_halo(_sharded([0], [4]), [32, 0])})
    with pytest.raises(TTCompileError, match="C has a halo and the kernels both read and write it") as err:
        lower(func, "AttachTensorAccessorTT")
    assert "test_layout_hints.py" in str(err.value), f"the error should name the program's line:\n{err.value}"


def test_annotate_refuses_what_is_not_a_prim_func_or_a_layout():
    with pytest.raises(TypeError, match="takes a T.prim_func"):
        tilelang_tt.annotate_tt_layout(lambda: None, {"A": {}})
    with pytest.raises(TypeError, match="takes {tensor name: {hint: value}}"):
        tilelang_tt.annotate_tt_layout(gemm(), {"A": "L1"})


@pytest.mark.parametrize("target", ["blackhole"])
def test_a_gemm_with_its_inputs_interleaved_in_l1_runs(target):
    func = tilelang_tt.annotate_tt_layout(
        gemm(M=128, N=128, K=128), {"A": {"memory": "L1"}, "B": {"memory": "L1"}}
    )
    kernel = tilelang_tt.compile(func, out_idx=[-1], target=target)
    rng = np.random.default_rng(0)
    a, b = (rng.standard_normal((128, 128)).astype(ml_dtypes.bfloat16) for _ in range(2))
    expected = a.astype(np.float32) @ b.astype(np.float32)
    error = np.abs(kernel(a, b).astype(np.float32) - expected).max() / np.abs(expected).max()
    assert error < 1e-2, f"max relative error {error:.3g}"
    assert kernel.plan["layouts"]["A"]["memory"] == "L1", kernel.plan["layouts"]["A"]


# (what is sharded, how): height, width and block (both orders) shards of a tensor's rows and columns (axes
# -2 and -1), an ND shard over the batch of a 3-D one, and sharded outputs.
SHARDED_LAYOUTS = {
    "A_height": ((128, 192), {"A": _sharded([-2], [4])}),
    "A_width_C_block": ((128, 192), {"A": _sharded([-1], [3]), "C": _sharded([-2, -1], [2, 3])}),
    "B_block_col_major": ((128, 192), {"B": _sharded([-2, -1], [2, 3], "col_major")}),
    "batch_of_3d": ((4, 64, 96), {"A": _sharded([0], [4]), "C": _sharded([0, 1], [4, 2])}),
}


@pytest.mark.parametrize("name, target", one_target_each(SHARDED_LAYOUTS))
def test_sharded_tensors_run(name, target):
    """Sharded tensors live in their cores' L1 (the host writes and reads them shard by shard) and the kernels
    reach every page through the SDK's sharded TensorAccessor: the sum matches numpy exactly."""
    shape, layout = SHARDED_LAYOUTS[name]
    kernel = _checked_sum(shape, layout, target)
    for tensor in layout:
        assert kernel.plan["layouts"][tensor]["layout"] == "sharded", kernel.plan["layouts"][tensor]


def _checked_sum(shape, layout: dict, target: str):
    """The _add3 kernel of a 2-D or 3-D ``shape`` under ``layout``, after checking its sum against numpy
    (exactly: one bf16 rounding of an fp32 sum)."""
    full = shape if len(shape) == 3 else (1, *shape)
    kernel = tilelang_tt.compile(
        tilelang_tt.annotate_tt_layout(_add3(full), layout), out_idx=[-1], target=target
    )
    rng = np.random.default_rng(1)
    a, b = (rng.standard_normal(full).astype(ml_dtypes.bfloat16) for _ in range(2))
    expected = (a.astype(np.float32) + b.astype(np.float32)).astype(ml_dtypes.bfloat16)
    result = kernel(a, b)
    assert np.array_equal(result, expected), f"{np.sum(result != expected)} of {result.size} sums differ"
    return kernel


def _blocks_by_core(plan: dict) -> dict[tuple[int, int], list[tuple[int, int]]]:
    """Core (x, y) → the output blocks (row, column) it computes, from the plan's work table."""
    grid = plan["grid"]
    rows = grid["y"] * grid["z"]
    out = {}
    for work in plan["core_work"]:
        ids = core_blocks(plan["work_encoding"], grid["x"], rows, CoreWork(**work))
        out[tuple(work["core"])] = [divmod(b, grid["x"]) for b in ids]
    return out


@pytest.mark.parametrize("order, target", one_target_each(["column_major", "z_order"]))
def test_tile_orders_change_the_order_cores_walk_their_blocks(order, target):
    """12 x 11 output blocks, more than either card has cores: column_major hands out runs down the block
    columns, z_order runs along the Z curve; the sums stay exact."""
    kernel = _checked_sum((384, 352), {"C": {"tile_id_order": order}}, target)
    assert kernel.plan["work_partition"]["tile_order"] == order
    runs = [blocks for blocks in _blocks_by_core(kernel.plan).values() if len(blocks) > 1]
    assert runs, "some core should compute more than one block"
    for blocks in runs:
        pairs = list(zip(blocks, blocks[1:], strict=False))
        if order == "column_major":  # consecutive rows of one column, or the last of one and the next's first
            assert all(b[0] == a[0] + 1 or (b[0] == 0 and b[1] == a[1] + 1) for a, b in pairs), blocks
        else:  # in increasing order along the Z curve
            positions = [z_order_position(*block) for block in blocks]
            assert positions == sorted(positions), blocks


# (shape, layout): A block-sharded 4 x 4 (each shard four blocks, a rectangle); A and C height-sharded alike
# (each shard a run of row blocks); a 3-D tensor sharded over its batch.
MATCH_SHARD = {
    "A_block": ((256, 256), {"A": {**_sharded([-2, -1], [4, 4]), "tile_id_order": "match_shard"}}),
    "A_and_C_height": (
        (512, 64),
        {t: {**_sharded([-2], [8]), "tile_id_order": "match_shard"} for t in ("A", "C")},
    ),
    "batch_of_3d": ((4, 64, 96), {"A": {**_sharded([0], [4]), "tile_id_order": "match_shard"}}),
}


@pytest.mark.parametrize("name, target", one_target_each(MATCH_SHARD))
def test_match_shard_computes_each_block_on_the_core_holding_its_shard(name, target):
    """tile_id_order match_shard: the work partition follows the tensor's shards, so every block a core
    computes reads (and writes) only the shard in its own L1."""
    shape, layout = MATCH_SHARD[name]
    kernel = _checked_sum(shape, layout, target)
    tensor = next(iter(layout))
    accessor = next(t for t in kernel.plan["tensors"] if t["name"] == tensor)
    shard_rows, shard_cols = (t // g for t, g in zip(accessor["tiles"], accessor["shard_grid"], strict=True))
    cores = shard_cores(accessor["shard_grid"], accessor["shard_order"], target_of(target).grid)
    block_rows, block_cols = (n // 32 for n in kernel.plan["grid"]["block_shape"])
    for core, blocks in _blocks_by_core(kernel.plan).items():
        for row, col in blocks:
            shard = (row * block_rows // shard_rows) * accessor["shard_grid"][
                1
            ] + col * block_cols // shard_cols
            assert cores[shard] == core, (
                f"block ({row}, {col}) of {tensor}'s shard {shard} ran on core {core}"
            )
