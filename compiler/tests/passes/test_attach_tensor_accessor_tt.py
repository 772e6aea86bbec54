"""AttachTensorAccessorTT: one accessor per tensor with tiles, page size and access from the copies."""

import pytest
import tilelang_tt
import tilelang_tt.language as T
import tvm
from before_after import assert_pass
from gather_tiles import ACCESSORS as GATHER_ACCESSORS
from gemm_stages import AFTER_ACCESSORS, AFTER_PROPAGATE, launched
from programs import attr, gemm, lower, page_table_gather
from tilelang_tt import ops
from tilelang_tt.errors import TTCompileError
from tilelang_tt.ir_utils import collect_vars, find_ops, get_attr, is_global, region, simplify
from tilelang_tt.passes import AttachTensorAccessorTT


def test_accessor_shapes_and_pages():
    acc = attr(
        lower(gemm(M=64, N=96, K=128, bN=32, dtype="float32"), "AttachTensorAccessorTT"),
        "tt.tensor_accessors",
    )
    assert [(a.name, a.tiles, a.page_size) for a in acc] == [
        ("A", [2, 4], 4096),
        ("B", [4, 3], 4096),
        ("C", [2, 3], 4096),
    ]


def test_access_follows_copy_direction():
    acc = attr(lower(gemm(), "AttachTensorAccessorTT"), "tt.tensor_accessors")
    assert [a.access for a in acc] == ["read", "read", "write"]


@T.prim_func
def ragged(A: T.Tensor((100, 40), "bfloat16"), C: T.Tensor((2, 3, 100, 40), "bfloat16")):
    with T.Kernel(1, 1) as (bx, by):
        A_s = T.alloc_shared((32, 32), "bfloat16")
        T.copy(A[0, 0], A_s)
        T.copy(A_s, C[1, 2, 96, 32])


def test_views_are_padded_to_whole_tiles_per_leading_index():
    accessors = attr(lower(ragged, "AttachTensorAccessorTT"), "tt.tensor_accessors")
    a, c = accessors
    assert (a.shape, a.view, a.tiles) == ([100, 40], [128, 64], [4, 2])
    # Each of the 2·3 (b, h) slices gets ceil32(100) = 128 rows, so the next slice starts on a tile row.
    assert (c.shape, c.view, c.tiles) == ([2, 3, 100, 40], [768, 64], [24, 2])


@T.prim_func
def bshd_rows(Q: T.Tensor((2, 100, 3, 64), "bfloat16"), O: T.Tensor((2, 100, 3, 64), "bfloat16")):
    with T.Kernel(2, 3, 2) as (bx, by, bz):
        Q_s = T.alloc_shared((64, 64), "bfloat16")
        T.copy(Q[bz, bx * 64 : (bx + 1) * 64, by, :], Q_s)
        T.copy(Q_s, O[bz, bx * 64 : (bx + 1) * 64, by, :])


def test_tiles_spanning_the_sequence_store_it_next_to_the_last_dimension():
    func = lower(bshd_rows, "AttachTensorAccessorTT")["gemm"]
    q, o = get_attr(func, "tt.tensor_accessors")
    # (B, S, H, D) tiled along S is stored as (B, H, S, D); each (b, h) slice padded to 128 rows.
    for acc in (q, o):
        assert (acc.shape, acc.dim_order, acc.view, acc.tiles) == (
            [2, 100, 3, 64],
            [0, 2, 1, 3],
            [2 * 3 * 128, 64],
            [24, 2],
        )
    # Every region is now a plain 2-D region of that view: row (bz · 3 + by) · 128 + bx · 64.
    (load,) = [s for s in find_ops(func.body, ("tl.copy",)) if is_global(s.call.args[0].source)]
    reg = region(load.call.args[0], load.loc)
    bx, by, bz = (v for name in ("bx", "by", "bz") for v in collect_vars(reg.mins[0]) if v.name == name)
    expected = simplify((bz * 3 + by) * 128 + bx * 64)
    assert tvm.sym.Analyzer().can_prove_equal(reg.mins[0], expected), reg.mins[0]
    assert (reg.extents, reg.shape) == ([64, 64], [768, 64])


def test_tiles_in_the_last_two_dimensions_keep_the_declared_order():
    accessors = attr(lower(ragged, "AttachTensorAccessorTT"), "tt.tensor_accessors")
    assert [a.dim_order for a in accessors] == [[0, 1], [0, 1, 2, 3]]


@T.prim_func
def two_orders(Q: T.Tensor((1, 64, 64, 64), "bfloat16"), O: T.Tensor((1, 64, 64, 64), "bfloat16")):
    with T.Kernel(1, 1, 1) as (bx, by, bz):
        Q_s = T.alloc_shared((64, 64), "bfloat16")
        T.copy(Q[0, 0:64, 5, :], Q_s)
        T.copy(Q[0, 7, 0:64, :], Q_s)
        T.copy(Q_s, O[0, 0:64, 0, :])


def _line_of(text: str) -> int:
    with open(__file__) as source:
        return next(i for i, line in enumerate(source, 1) if text in line)


def test_regions_needing_two_orders_of_one_tensor_are_a_located_error():
    with pytest.raises(TTCompileError) as err:
        lower(two_orders, "AttachTensorAccessorTT")
    message = str(err.value)
    assert "this tile region of Q spans its dimension 2, but the one at" in message
    assert f":{_line_of('T.copy(Q[0, 0:64, 5, :], Q_s)')}:" in message
    assert "spans dimension 1; a tensor is stored in DRAM in one dimension order" in message
    assert (err.value.filename, err.value.lineno) == (__file__, _line_of("T.copy(Q[0, 7, 0:64, :], Q_s)"))


@T.prim_func
def two_leading_dimensions(Q: T.Tensor((1, 64, 2, 32), "bfloat16"), O: T.Tensor((1, 64, 2, 32), "bfloat16")):
    with T.Kernel(1, 1, 1) as (bx, by, bz):
        Q_s = T.alloc_shared((64, 2, 32), "bfloat16")
        T.copy(Q[0, 0:64, 0:2, :], Q_s)
        T.copy(Q_s, O[0, 0:64, 0:2, :])


def test_region_spanning_two_dimensions_besides_the_last_is_a_located_error():
    with pytest.raises(TTCompileError) as err:
        lower(two_leading_dimensions, "AttachTensorAccessorTT")
    assert "this tile region of Q spans 64 entries of dimension 1 and 2 of dimension 2 of 4" in str(err.value)
    assert (err.value.filename, err.value.lineno) == (__file__, _line_of("T.copy(Q[0, 0:64, 0:2, :], Q_s)"))


def test_gemm_before_expected():
    """Before/Expected on the GEMM of gemm_stages.py: one accessor per parameter: 2x2 tiles of 2048 bytes; A
    and B read, C written."""
    assert_pass(AttachTensorAccessorTT(), launched(AFTER_PROPAGATE), launched(AFTER_ACCESSORS))


@T.prim_func
def gathered(data: T.Tensor((1, 8, 8, 32), "bfloat16"), out: T.Tensor((64, 32), "bfloat16")):
    with T.Kernel(1) as bx:
        cols = T.alloc_shared((64, 32), "bfloat16")
        T.im2col(data, cols, bx, 0, 3, 1, 1, 1)
        T.copy(cols, out[0, 0])


def test_a_gathered_image_is_stored_as_rows_of_channels():
    assert attr(lower(gathered, "AttachTensorAccessorTT"), "tt.tensor_accessors") == GATHER_ACCESSORS


def test_an_index_table_is_one_page_of_words():
    """Pages (2, 3) int32, read one value at a time: its whole tensor is one DRAM page of 6 32-bit words."""
    table = attr(lower(page_table_gather, "AttachTensorAccessorTT"), "tt.tensor_accessors")[1]
    assert (table.name, table.page_layout, table.pages, table.page_size, table.format, table.access) == (
        "Pages",
        "table",
        1,
        24,
        "UInt32",
        "read",
    )
    assert (list(table.view), list(table.tiles), list(table.shape)) == ([1, 6], [0, 0], [2, 3])


def test_block_float_and_sharded_tensors():
    """A bfloat8_b tensor's accessor has its storage dtype and 1088-byte tile pages; a sharded one carries its
    shard grid over the tile view and the order shards go to cores."""
    shard = {
        "memory": "L1",
        "layout": "sharded",
        "nd_shard": {"axes": [0], "grid": [2], "order": "col_major"},
    }
    func = tilelang_tt.annotate_tt_layout(gemm(dtype="bfloat8_b", out_dtype="bfloat16"), {"C": shard})
    acc = {a.name: a for a in attr(lower(func, "AttachTensorAccessorTT"), "tt.tensor_accessors")}
    assert (acc["A"].dtype, acc["A"].format, acc["A"].page_size) == ("bfloat8_b", "Bfp8_b", 1088), acc["A"]
    assert (list(acc["C"].shard_grid), acc["C"].shard_order, acc["C"].layout) == (
        [2, 1],
        "col_major",
        "sharded",
    )
    assert (list(acc["A"].shard_grid), acc["A"].page_size, acc["C"].page_size) == ([], 1088, 2048)


def _row_statistics(shape, start=0):
    """Row sums of X (B, H, S, 32) blocks stored one row per (b, h) into S (B, H, S): the row of head h
    shares its tiles with the other heads' rows."""
    batch, heads, rows = shape[:3]

    @T.prim_func
    def row_statistics(X: T.Tensor((batch, heads, rows, 32), "float32"), S: T.Tensor(shape, "float32")):
        with T.Kernel(rows // 32, heads, batch) as (bx, by, bz):
            x = T.alloc_fragment((32, 32), "float32")
            s = T.alloc_fragment((32,), "float32")
            T.copy(X[bz, by, bx * 32 : (bx + 1) * 32, :], x)
            T.reduce_sum(x, s, dim=1)
            T.copy(s, S[bz, by, start + bx * 32 : start + (bx + 1) * 32])

    return row_statistics


def test_a_tensor_copied_one_row_at_a_time_is_stored_a_page_per_row():
    """(2, 3, 64) float32: six rows of 64 values, one 256-byte page each, no padding."""
    s = attr(lower(_row_statistics((2, 3, 64)), "AttachTensorAccessorTT"), "tt.tensor_accessors")[1]
    assert (s.page_layout, list(s.view), s.pages, s.page_size, s.access) == (
        "row_major",
        [6, 64],
        6,
        256,
        "write",
    )


@T.prim_func
def rows_and_tiles(G: T.Tensor((64, 64), "float32"), O: T.Tensor((64, 64), "float32")):
    with T.Kernel(2) as bx:
        r = T.alloc_fragment((1, 64), "float32")
        t = T.alloc_fragment((32, 64), "float32")
        T.copy(G[bx * 32 + 5 : bx * 32 + 6, 0:64], r)
        T.copy(G[bx * 32 : bx * 32 + 32, 0:64], t)
        for i, j in T.Parallel(32, 64):
            t[i, j] = t[i, j] + r[0, j]
        T.copy(t, O[bx * 32 : bx * 32 + 32, 0:64])


def test_a_tensor_copied_as_a_row_and_as_tiles_is_stored_a_page_per_row():
    """G's tile copy becomes a copy of 32 of its rows (LowerTileProgramTT: tt.read_row of 32 rows)."""
    g = attr(lower(rows_and_tiles, "AttachTensorAccessorTT"), "tt.tensor_accessors")[0]
    assert (g.page_layout, list(g.view), g.pages) == ("row_major", [64, 64], 64)
    mod = lower(rows_and_tiles, "LowerTileProgramTT")
    copies = [ops.fields(s.call) for s in find_ops(mod["gemm"].body, ("tt.read_row",))]
    assert sorted((int(f.rows), int(f.cols)) for f in copies) == [(1, 64), (32, 64)], copies


def test_a_row_copy_the_pages_cannot_hold_is_a_located_error():
    with pytest.raises(
        TTCompileError, match="S is copied one row at a time, but its rows hold 40 values"
    ) as err:
        lower(_row_statistics((2, 3, 40)), "AttachTensorAccessorTT")
    assert "test_attach_tensor_accessor_tt.py" in str(err.value), err.value


def test_a_row_copy_off_the_32_value_runs_is_a_located_error():
    with pytest.raises(TTCompileError, match=r"these rows of S start at column bx \* 32 \+ 16 and span 32"):
        lower(_row_statistics((2, 3, 96), start=16), "LowerTileProgramTT")


@T.prim_func
def rows_minus_named_value(
    X: T.Tensor((64, 96), "float32"), M: T.Tensor((64,), "float32"), Y: T.Tensor((64, 96), "float32")
):
    # TileLang's LayerNorm backward reads its statistics this way: m_v = M[row], one value per row
    with T.Kernel(2) as bx:
        x_s = T.alloc_shared((1, 96), "float32")
        for k in T.serial(32):
            row = bx * 32 + k
            T.copy(X[row, 0], x_s)
            m_v = M[row]
            for i, j in T.Parallel(1, 96):
                x_s[i, j] = x_s[i, j] - m_v
            T.copy(x_s, Y[row, 0])


def test_a_vector_read_a_value_per_row_is_stored_a_page_per_row_of_one_value():
    """M's rows (a column, LegalizeVectorsTT) are shorter than a 32-value run but only ever read whole: a
    page per row, read as a whole row (row_copies.py), not the located error of a row copy off the runs."""
    m = attr(lower(rows_minus_named_value, "AttachTensorAccessorTT"), "tt.tensor_accessors")[1]
    assert (m.page_layout, list(m.view), m.pages, m.access) == ("row_major", [64, 1], 64, "read"), m
