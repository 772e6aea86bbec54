"""LayoutAwareWorkPartitionTT: every block assigned once per strategy; grid ↔ output from dataflow."""

import pytest
import tilelang_tt.language as T
from before_after import assert_pass, module_of
from gemm_stages import AFTER_ACCESSORS, AFTER_PARTITION, LAYOUT_DESC_WITH_PEERS, launched
from programs import attr, gemm, lower
from tilelang_tt.errors import TTCompileError
from tilelang_tt.passes import LayoutAwareWorkPartitionTT
from tilelang_tt.passes.layout_aware_work_partition_tt import (
    assign,
    core_blocks,
    core_ranges,
    lockstep_grid,
    z_order_block,
    z_order_position,
)
from tilelang_tt.records import (
    CoreRange,
    CoreWork,
    GridAxis,
    LayoutDesc,
    LockstepGrid,
    WorkPartition,
    replace,
    walk_from_both_ends,
)


@pytest.mark.parametrize(
    "strategy, encoding",
    [
        ("row_major", "range_row_major"),
        ("column_major", "range_column_major"),
        ("z_order", "range_z_order"),
        ("block", "rect"),
    ],
)
def test_every_block_exactly_once(strategy, encoding):
    work = assign(strategy, 7, 5, 3, 4)
    assert sorted(b for w in work for b in core_blocks(encoding, 7, 5, w)) == list(range(35))


def test_z_order_interleaves_column_and_row_bits():
    assert [z_order_block(p) for p in range(8)] == [
        (0, 0),
        (0, 1),
        (1, 0),
        (1, 1),
        (0, 2),
        (0, 3),
        (1, 2),
        (1, 3),
    ]
    assert all(z_order_position(*z_order_block(p)) == p for p in range(4096))


def test_z_order_gives_cores_square_patches_and_balanced_counts():
    """An 8 x 8 block grid on 16 cores: each core's run of four is a 2 x 2 square; a 5 x 3 grid's
    positions outside it are skipped, and the 15 blocks still split 4, 4, 4, 3."""
    for work in assign("z_order", 8, 8, 4, 4):
        blocks = core_blocks("range_z_order", 8, 8, work)
        assert {(b // 8 - blocks[0] // 8, b % 8 - blocks[0] % 8) for b in blocks} == {
            (0, 0),
            (0, 1),
            (1, 0),
            (1, 1),
        }
    counts = [len(core_blocks("range_z_order", 3, 5, w)) for w in assign("z_order", 3, 5, 2, 2)]
    assert counts == [4, 4, 4, 3]


@pytest.mark.parametrize("axis", ["blockIdx.x", "blockIdx.y", "blockIdx.z"])
def test_balanced_order_computes_every_block_once(axis):
    """A 7 x 5 x 3 grid (rows = gy * gz = 15) on 3 x 4 cores."""
    work = assign("balanced", 7, 15, 3, 4)
    ids = [b for w in work for b in core_blocks("range_balanced", 7, 15, w, gy=5, axis=axis)]
    assert sorted(ids) == list(range(105))


def test_walking_from_both_ends_pairs_long_and_short_blocks():
    assert [walk_from_both_ends(p, 6) for p in range(6)] == [0, 5, 1, 4, 2, 3]
    assert [walk_from_both_ends(p, 5) for p in range(5)] == [0, 4, 1, 3, 2]


def test_balanced_causal_attention_gives_every_core_the_same_work():
    """Causal attention at S=4096, 128-row blocks, 8 heads: block bx loops bx + 1 times. Row-major runs
    of 4 give core 7 blocks 28..31 (122 steps) and core 0 blocks 0..3 (10); balanced gives all 66."""
    work = assign("balanced", 32, 8, 8, 8)
    steps = {
        sum(b % 32 + 1 for b in core_blocks("range_balanced", 32, 8, w, gy=8, axis="blockIdx.x"))
        for w in work
    }
    assert steps == {66}


def test_row_major_gives_first_cores_the_extra_blocks():
    assert [w.count for w in assign("row_major", 5, 1, 2, 2)] == [2, 1, 1, 1]


def test_column_major_walks_blocks_down_columns():
    assert core_blocks("range_column_major", 2, 2, assign("column_major", 2, 2, 8, 8)[1]) == [2]


def test_block_strategy_gives_rectangles():
    work = assign("block", 4, 4, 2, 2)
    assert work[0].rect == [0, 0, 2] and core_blocks("rect", 4, 4, work[0]) == [0, 1, 4, 5]


@pytest.mark.parametrize(
    "strategy, gx, rows, expected",
    [
        ("block", 32, 32, LockstepGrid(cores_x=8, cores_y=8)),  # 4 x 4 blocks on every core
        ("block", 3, 16, LockstepGrid(cores_x=3, cores_y=8)),
        ("block", 8, 10, None),  # 10 block rows on 8 rows of cores: two rows of cores do two
        ("block", 1, 1, None),  # one core: nobody to share with
        ("row_major", 32, 32, None),  # runs of blocks: the cores of a row compute different rows
    ],
)
def test_lockstep_grid_only_where_every_core_steps_alike(strategy, gx, rows, expected):
    assert lockstep_grid(strategy, gx, rows, assign(strategy, gx, rows, 8, 8)) == expected


def test_more_blocks_than_cores_loop_per_core():
    mod = lower(gemm(M=1024, N=1024, K=64, bM=32, bN=32), "LayoutAwareWorkPartitionTT")
    assert len(attr(mod, "tt.core_work")) == 64 and attr(mod, "tt.core_work")[0].count == 16


def test_row_axis_read_from_the_store():
    grid = attr(lower(gemm(M=128, N=256), "LayoutAwareWorkPartitionTT"), "tt.grid")
    assert (grid.row_axes, grid.col_axes, grid.x, grid.y) == (
        [GridAxis(tag="blockIdx.y", blocks=1)],
        [GridAxis(tag="blockIdx.x", blocks=1)],
        4,
        2,
    )


def test_work_partition_records_len_k_and_order_once():
    part = attr(lower(gemm(M=128, N=128, K=256), "LayoutAwareWorkPartitionTT"), "tt.work_partition")
    assert part == WorkPartition(len_k=8, tile_order="row_major")


def test_range_work_lists_no_blocks_and_the_grid_gives_each_block_its_tile():
    mod = lower(gemm(M=128, N=128, K=256), "LayoutAwareWorkPartitionTT")
    work, grid = attr(mod, "tt.core_work"), attr(mod, "tt.grid")
    assert work[1] == CoreWork(core=[1, 0], start=1, count=1) and grid.output_block(1) == (0, 1)


def test_column_major_ranges_count_down_the_columns():
    assert core_blocks("range_column_major", 3, 2, CoreWork(core=[0, 0], start=1, count=3)) == [3, 1, 4]


def test_core_ranges_merge_rows():
    assert core_ranges([[0, 0], [1, 0], [2, 0], [0, 1]]) == [
        CoreRange(x0=0, y0=0, x1=2, y1=0),
        CoreRange(x0=0, y0=1, x1=0, y1=1),
    ]


@T.prim_func
def half_covered(A: T.Tensor((128, 64), "bfloat16"), C: T.Tensor((128, 64), "bfloat16")):
    with T.Kernel(1, 1) as (bx, by):
        A_s = T.alloc_shared((64, 64), "bfloat16")
        T.copy(A[by * 64, 0], A_s)
        T.copy(A_s, C[by * 64, 0])


def test_grid_that_does_not_cover_the_output_is_rejected():
    with pytest.raises(TTCompileError, match="C has 128 rows .padded to tiles. but the grid covers only 64"):
        lower(half_covered, "LayoutAwareWorkPartitionTT")


@T.prim_func
def batched_copy(A: T.Tensor((3, 128, 64), "bfloat16"), C: T.Tensor((3, 128, 64), "bfloat16")):
    with T.Kernel(1, 2, 3) as (bx, by, bz):
        A_s = T.alloc_shared((64, 64), "bfloat16")
        T.copy(A[bz, by * 64, 0], A_s)
        T.copy(A_s, C[bz, by * 64, 0])


def test_batch_axis_and_rows_form_one_row_index():
    mod = lower(batched_copy, "LayoutAwareWorkPartitionTT", partition_strategy="block")
    grid = attr(mod, "tt.grid")
    assert grid.row_axes == [GridAxis(tag="blockIdx.y", blocks=1), GridAxis(tag="blockIdx.z", blocks=2)]
    assert grid.num_blocks == 6
    ids = [b for w in attr(mod, "tt.core_work") for b in core_blocks("rect", 1, 6, w)]
    assert sorted(grid.output_block(b)[0] for b in ids) == list(range(6))


@T.prim_func
def batch_stride_too_small(A: T.Tensor((3, 128, 64), "bfloat16"), C: T.Tensor((384, 64), "bfloat16")):
    with T.Kernel(1, 2, 3) as (bx, by, bz):
        A_s = T.alloc_shared((64, 64), "bfloat16")
        T.copy(A[bz, by * 64, 0], A_s)
        T.copy(A_s, C[bz * 64 + by * 64, 0])


def test_grid_indices_that_overlap_blocks_are_rejected():
    with pytest.raises(TTCompileError, match=r"blockIdx.z steps 1 blocks where 2 would make the grid cover"):
        lower(batch_stride_too_small, "LayoutAwareWorkPartitionTT")


@T.prim_func
def diagonal(A: T.Tensor((64, 64), "bfloat16"), C: T.Tensor((64, 64), "bfloat16")):
    with T.Kernel(2) as bx:
        A_s = T.alloc_shared((32, 32), "bfloat16")
        T.copy(A[bx * 32, bx * 32], A_s)
        T.copy(A_s, C[bx * 32, bx * 32])


def test_one_grid_axis_for_rows_and_columns_is_rejected():
    with pytest.raises(TTCompileError, match=r"blockIdx.x selects both the row and the column"):
        lower(diagonal, "LayoutAwareWorkPartitionTT")


def test_gemm_before_expected():
    """Before/Expected on the GEMM of gemm_stages.py: row_major: the four output blocks go to cores (0..3, 0)
    one each, by rows and bx columns, len_k 2."""
    assert_pass(LayoutAwareWorkPartitionTT(), launched(AFTER_ACCESSORS), launched(AFTER_PARTITION))


@pytest.mark.parametrize(
    "blocks, expected",
    [((128, 128), "block"), ((64, 64), "row_major"), ((32, 32), "row_major")],
    ids=["16_tiles_multicast", "4_tiles", "1_tile"],
)
def test_auto_multicasts_blocks_big_enough_to_pay_for_the_hand_off(blocks, expected):
    """1024^2 outputs: every block size divides the 8x8 cores evenly; only 16-tile blocks multicast."""
    bm, bn = blocks
    mod = lower(
        gemm(M=1024, N=1024, K=64, bM=bm, bN=bn), "LayoutAwareWorkPartitionTT", partition_strategy="auto"
    )
    assert attr(mod, "tt.work_partition").tile_order == expected


def test_auto_keeps_every_core_busy_for_a_grid_one_block_column_wide():
    """Softmax's grid shape: 256 row blocks of 32x512 (16 tiles, big enough to multicast), one block
    column. As rectangles they would fill one column of 8 cores; auto walks them row-major over all 64.
    (The user's blocks: ReblockGemmForCoresTT would give a GEMM of this shape blocks made for the cores.)"""
    mod = lower(
        gemm(M=8192, N=512, K=64, bM=32, bN=512),
        "LayoutAwareWorkPartitionTT",
        partition_strategy="auto",
        reblock=False,
    )
    assert attr(mod, "tt.work_partition").tile_order == "row_major"
    assert len(attr(mod, "tt.core_work")) == 64


@pytest.mark.parametrize(
    "target, M, block, expected",
    [
        ("blackhole", 4096, 256, (8, 8)),  # 16 x 16 blocks on 13 x 10 cores: 8 x 8 divide them
        ("blackhole", 3072, 256, (12, 6)),  # 12 x 12 blocks: 12 columns and 6 rows of cores
        ("blackhole", 2048, 256, (8, 8)),  # 8 x 8 blocks: the whole grid's rectangles already step alike
        ("wormhole", 4352, 256, None),  # 17 x 17 blocks: only one core divides them: unicast, row_major
    ],
    ids=["bh_16x16", "bh_12x12", "bh_8x8", "wh_17x17"],
)
def test_auto_multicasts_on_the_largest_core_rectangle_that_divides_the_blocks(target, M, block, expected):
    """Where the core grid does not divide the block grid, auto steps in lockstep on the largest rectangle
    of cores that does, keeping a quarter of the cores busy at least (MIN_EVEN_RECTANGLE_SHARE). (The
    user's blocks, as a program other than a plain GEMM keeps them: ReblockGemmForCoresTT is off.)"""
    mod = lower(
        gemm(M=M, N=M, K=64, bM=block, bN=block),
        "LayoutAwareWorkPartitionTT",
        partition_strategy="auto",
        target_device=target,
        reblock=False,
    )
    lockstep = attr(mod, "tt.lockstep_grid")
    got = None if lockstep is None else (int(lockstep.cores_x), int(lockstep.cores_y))
    assert got == expected, (got, attr(mod, "tt.work_partition").tile_order)
    if expected is not None:
        assert len(attr(mod, "tt.core_work")) == expected[0] * expected[1]


@T.prim_func
def scaled_products_every_step(
    Q: T.Tensor((4096, 128), "bfloat16"),
    K: T.Tensor((4096, 128), "bfloat16"),
    S: T.Tensor((4096, 4096), "float32"),
):
    """32 x 32 blocks of 128 x 128 whose K loop also scales the products every step (attention's softmax
    in small): Blackhole's 13 x 10 cores do not divide the block grid."""
    with T.Kernel(32, 32) as (bx, by):
        Q_s = T.alloc_shared((128, 128), "bfloat16")
        K_s = T.alloc_shared((128, 128), "bfloat16")
        acc = T.alloc_fragment((128, 128), "float")
        T.copy(Q[by * 128, 0], Q_s)
        T.clear(acc)
        for k in T.Pipelined(4):
            T.copy(K[bx * 128, 0], K_s)
            for i, j in T.Parallel(128, 128):
                acc[i, j] = acc[i, j] * 0.5
            T.gemm(Q_s, K_s, acc, transpose_B=True)
        T.copy(acc, S[by * 128, bx * 128])


def test_auto_keeps_every_core_for_a_loop_with_more_than_products_each_step():
    """The loop around the GEMM does element-wise work each step, so the program is held by its math, not by
    the reads a multicast rectangle would share: auto takes all 130 cores row-major, not 8 x 8 in lockstep."""
    mod = lower(
        scaled_products_every_step,
        "LayoutAwareWorkPartitionTT",
        partition_strategy="auto",
        target_device="blackhole",
    )
    assert attr(mod, "tt.work_partition").tile_order == "row_major"
    assert attr(mod, "tt.lockstep_grid") is None and len(attr(mod, "tt.core_work")) == 130


@T.prim_func
def causal_row_blocks(
    Q: T.Tensor((4096, 128), "bfloat16"),
    K: T.Tensor((4096, 128), "bfloat16"),
    S: T.Tensor((4096, 1024), "float32"),
):
    """Causal attention's loop: row block bx reads key blocks 0..bx (128x128 blocks: big enough to
    multicast, 32 x 8 of them: they divide the 8 x 8 cores)."""
    with T.Kernel(32, 8) as (bx, by):
        Q_s = T.alloc_shared((128, 128), "bfloat16")
        K_s = T.alloc_shared((128, 128), "bfloat16")
        acc = T.alloc_fragment((128, 128), "float")
        T.copy(Q[bx * 128, 0], Q_s)
        T.clear(acc)
        for k in T.Pipelined(bx + 1):
            T.copy(K[k * 128, 0], K_s)
            T.gemm(Q_s, K_s, acc, transpose_B=True)
        T.copy(acc, S[bx * 128, by * 128])


def test_auto_balances_a_loop_that_grows_with_the_block_instead_of_multicasting():
    """Cores whose K/V loops run for different trip counts cannot step in lockstep; auto hands out the
    row blocks from both ends so each core's run pairs long loops with short ones."""
    mod = lower(causal_row_blocks, "LayoutAwareWorkPartitionTT", partition_strategy="auto")
    partition = attr(mod, "tt.work_partition")
    assert (partition.tile_order, partition.balanced_axis) == ("balanced", "blockIdx.x")
    assert attr(mod, "tt.work_encoding") == "range_balanced"


def test_balanced_without_a_growing_loop_is_row_major():
    mod = lower(gemm(M=256, N=256, K=64), "LayoutAwareWorkPartitionTT", partition_strategy="balanced")
    assert attr(mod, "tt.work_partition") == WorkPartition(len_k=2, tile_order="row_major")


@T.prim_func
def columns_walked_backwards(A: T.Tensor((64, 256), "float32"), B: T.Tensor((64, 256), "float32")):
    with T.Kernel(2) as bx:
        steps = 2
        A_s = T.alloc_shared((32, 128), "float32")
        for k in T.serial(steps):
            T.copy(A[bx * 32, (steps - 1 - k) * 128], A_s)
            T.copy(A_s, B[bx * 32, (steps - 1 - k) * 128])


@T.prim_func
def global_to_global(A: T.Tensor((128, 96), "float32"), B: T.Tensor((128, 96), "float32")):
    with T.Kernel(3, 4) as (bx, by):
        T.copy(
            A[by * 32 : by * 32 + 32, bx * 32 : bx * 32 + 32],
            B[by * 32 : by * 32 + 32, bx * 32 : bx * 32 + 32],
        )


@T.prim_func
def shares_beside_a_block(
    A: T.Tensor((64, 64), "float32"), S: T.Tensor((2, 64, 64), "float32"), D: T.Tensor((64, 64), "float32")
):
    # attention backward's shape: a share stored per step of k (S) before the block the point owns (D)
    with T.Kernel(2, 2) as (bx, by):
        A_s = T.alloc_shared((32, 32), "float32")
        for k in T.serial(2):
            T.copy(A[k * 32, bx * 32], A_s)
            T.copy(A_s, S[by, k * 32, bx * 32])
        T.copy(A_s, D[by * 32, bx * 32])


@pytest.mark.parametrize(
    "program, rows, cols, block_shape",
    [
        (columns_walked_backwards, ["blockIdx.x"], [], [32, 256]),
        (global_to_global, ["blockIdx.y"], ["blockIdx.x"], [32, 32]),
        (shares_beside_a_block, ["blockIdx.y"], ["blockIdx.x"], [32, 32]),
    ],
)
def test_output_blocks_of_backward_loops_and_global_copies(program, rows, cols, block_shape):
    """A store whose column start walks backwards over a named trip count covers the whole row strip;
    a copy between global tensors is the output store when no tile is stored; of a store that moves with
    a loop and one that does not, the grid follows the one a point writes once."""
    grid = attr(lower(program, "LayoutAwareWorkPartitionTT"), "tt.grid")
    assert [a.tag for a in grid.row_axes] == rows and [a.tag for a in grid.col_axes] == cols
    assert list(grid.block_shape) == block_shape


def _with_layout(attrs: dict, **layouts) -> dict:
    return {**attrs, "tt.layout_desc": {**LAYOUT_DESC_WITH_PEERS, **layouts}}


_C_BLOCK_SHARDED = LayoutDesc(
    memory="L1",
    layout="sharded",
    tile_id_order="match_shard",
    shard_grid=[2, 2],
    shard_order="row_major",
)


@pytest.mark.parametrize(
    "layout, encoding, work, ranges",
    [
        (
            replace(LAYOUT_DESC_WITH_PEERS["C"], tile_id_order="z_order"),
            "range_z_order",
            [CoreWork(core=[b, 0], start=b, count=1) for b in range(4)],
            [CoreRange(x0=0, y0=0, x1=3, y1=0)],
        ),
        (
            replace(LAYOUT_DESC_WITH_PEERS["C"], tile_id_order="column_major"),
            "range_column_major",
            [CoreWork(core=[0, b], start=b, count=1) for b in range(4)],
            [CoreRange(x0=0, y0=b, x1=0, y1=b) for b in range(4)],
        ),
        (
            _C_BLOCK_SHARDED,
            "rect",
            [CoreWork(core=[b % 2, b // 2], start=b, count=1, rect=[b // 2, b % 2, 1]) for b in range(4)],
            [CoreRange(x0=0, y0=0, x1=1, y1=0), CoreRange(x0=0, y0=1, x1=1, y1=1)],
        ),
    ],
    ids=["z_order", "column_major", "match_shard"],
)
def test_tile_orders_before_expected(layout, encoding, work, ranges):
    """Before/Expected on the GEMM of gemm_stages.py with C's tile_id_order set: z_order walks the 2 x 2
    blocks on the Z curve (positions 0..3 are blocks (0,0), (0,1), (1,0), (1,1)); column_major hands them
    out down the columns of cores; match_shard puts block (by, bx) on the core holding C's shard (by, bx)
    of a 2 x 2 block sharding, core (bx, by): the rectangles a block partition gives, so the cores step in
    lockstep and share their reads by multicast."""
    before = _with_layout(AFTER_ACCESSORS, C=layout)
    order = layout.tile_id_order
    expected = {
        **_with_layout(AFTER_PARTITION, C=layout),
        "tt.core_work": work,
        "tt.work_encoding": encoding,
        "tt.core_ranges": ranges,
        "tt.work_partition": WorkPartition(len_k=2, tile_order=order),
    }
    if order == "match_shard":
        expected["tt.lockstep_grid"] = LockstepGrid(cores_x=2, cores_y=2)
    assert_pass(LayoutAwareWorkPartitionTT(), launched(before), launched(expected))


def _partition(func):
    return LayoutAwareWorkPartitionTT()(module_of(func))


def _tile_orders(**layouts):
    return launched(_with_layout(AFTER_ACCESSORS, **layouts))


def test_match_shard_of_height_shards_gives_each_core_its_run_of_rows():
    """A height-sharded over 2 cores: its row block by lies in shard by, so core by computes both blocks of
    row by (a one-row rectangle), whichever tensor is stored."""
    a = replace(_C_BLOCK_SHARDED, shard_grid=[2, 1])
    mod = _partition(_tile_orders(A=a))
    assert attr(mod, "tt.core_work") == [
        CoreWork(core=[0, 0], start=0, count=2, rect=[0, 0, 2]),
        CoreWork(core=[1, 0], start=2, count=2, rect=[1, 0, 2]),
    ]


@pytest.mark.parametrize(
    "layouts, options, message",
    [
        (
            {"A": replace(_C_BLOCK_SHARDED, shard_grid=[1, 2])},
            {},
            r"grid point \(blockIdx.x=0, blockIdx.y=0\) copies A\[0:32, 0:64\] .on its tile view., "
            r"which crosses shards of 2x1 tiles",
        ),
        (
            {"A": replace(_C_BLOCK_SHARDED, shard_grid=[2, 1]), "C": _C_BLOCK_SHARDED},
            {},
            "tile_id_order 'match_shard' of A and C: their shards put grid point 1 on different cores",
        ),
        (
            {
                "C": replace(LAYOUT_DESC_WITH_PEERS["C"], tile_id_order="z_order"),
                "A": replace(LAYOUT_DESC_WITH_PEERS["A"], tile_id_order="column_major"),
            },
            {},
            "A has tile_id_order 'column_major' but C 'z_order'; the cores walk the output blocks in one",
        ),
        (
            {"C": replace(LAYOUT_DESC_WITH_PEERS["C"], tile_id_order="z_order")},
            {"partition_strategy": "block"},
            "the partition strategy 'block' contradicts tile_id_order 'z_order' of C",
        ),
    ],
    ids=["block_crosses_shards", "shards_disagree", "two_orders", "strategy_contradicts"],
)
def test_tile_orders_that_cannot_be_walked_are_located_errors(layouts, options, message):
    attrs = _with_layout(AFTER_ACCESSORS, **layouts)
    if options:
        attrs["tt.options"] = replace(attrs["tt.options"], **options)
    with pytest.raises(TTCompileError, match=message):
        _partition(launched(attrs))
