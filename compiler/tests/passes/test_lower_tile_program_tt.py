"""LowerTileProgramTT: a tile program's buffers become circular buffers and its statements tile ops."""

import pytest
import tilelang_tt.language as TL
from before_after import DEFAULT_OPTIONS, WORMHOLE, T, assert_pass
from gather_tiles import ACCESSORS as GATHER_ACCESSORS
from gather_tiles import CB_TABLE as GATHER_CB_TABLE
from gather_tiles import TILE_DFG as GATHER_TILE_DFG
from programs import affine_blocks, attr, centred_rows, gemm, lower, page_table_gather
from softmax_tiles import ACCESSORS, CB_TABLE, TILE_DFG
from tilelang_tt import ops
from tilelang_tt.ir_utils import find_ops
from tilelang_tt.passes import LowerTileProgramTT
from tilelang_tt.passes.lower_tile_program_tt import is_tile_program


@T.prim_func(private=True)
def softmax_numerator(A: T.Buffer((64, 64), "float32"), B: T.Buffer((64, 64), "float32")):
    T.func_attr({"tt.target": WORMHOLE, "tt.options": DEFAULT_OPTIONS, "tt.tensor_accessors": ACCESSORS})
    for block in range(T.tt.work_count()):
        bx: T.let[T.int32] = T.tt.work_block(block, 0)
        A_s = T.alloc_shared((32, 64))
        m = T.alloc_buffer((32, 1), scope="local.fragment")
        S = T.alloc_buffer((32, 64), scope="local.fragment")
        T.tl.copy(A[bx * 32 : bx * 32 + 32, 0:64], A_s[0:32, 0:64], "p.py:8:8")
        T.tl.reduce(A_s[0:32, 0:64], m[0:32, 0:1], "max", 1, 1, "p.py:9:8")
        for i in T.serial(32, annotations={"tl.loc": "p.py:10:20"}):
            for j in T.serial(64, annotations={"tl.loc": "p.py:10:20"}):
                S[i, j] = T.exp(A_s[i, j] - m[i, 0])
        T.tl.copy(S[0:32, 0:64], B[bx * 32 : bx * 32 + 32, 0:64], "p.py:12:8")


@T.prim_func(private=True)
def softmax_numerator_lowered(A: T.Buffer((64, 64), "float32"), B: T.Buffer((64, 64), "float32")):
    T.func_attr(
        {
            "tt.target": WORMHOLE,
            "tt.options": DEFAULT_OPTIONS,
            "tt.tensor_accessors": ACCESSORS,
            "tt.compute_schedule": "tile_program",
            "tt.cb_table": CB_TABLE,
            "tt.accumulators": [],
            "tt.tile_dfg": TILE_DFG,
        }
    )
    for block in range(T.tt.work_count()):
        bx: T.let[T.int32] = T.tt.work_block(block, 0)
        T.tt.read_to_cb(0, 0, bx, 0, 1, 2, "p.py:8:8")
        T.tt.tile.wait_input(0, "p.py:8:8")
        # src, dst, kind, dim, clear, scaler CB, scratch CB (-1: the reduction reads the source itself)
        T.tt.tile.reduce(0, 24, "max", 1, 1, 26, -1, -1, T.float32("-inf"), "p.py:9:8")
        T.tt.tile.eltwise(
            25, T.exp(T.tt.tile.operand(0, "none") - T.tt.tile.operand(24, "col")), "p.py:10:20"
        )
        T.tt.tile.copy(25, 16, "p.py:12:8")
        T.tt.write_from_cb(16, 1, bx, 0, 1, 2, "p.py:12:8")


def test_softmax_numerator_becomes_cbs_and_tile_ops():
    """Copy in, reduce_max over rows, exp(A_s - m) with m broadcast along columns, copy out: the reader
    reads block row bx (1×2 tiles) into A_s's CB, compute waits for it, reduces into m, evaluates the
    expression tile-wise into S and copies S to the output CB the writer drains."""
    assert_pass(LowerTileProgramTT(), softmax_numerator, softmax_numerator_lowered)


@T.prim_func(private=True)
def im2col_gather(data: T.Buffer((1, 8, 8, 32), "bfloat16"), out: T.Buffer((64, 32), "bfloat16")):
    T.func_attr(
        {"tt.target": WORMHOLE, "tt.options": DEFAULT_OPTIONS, "tt.tensor_accessors": GATHER_ACCESSORS}
    )
    for block in range(T.tt.work_count()):
        bx: T.let[T.int32] = T.tt.work_block(block, 0)
        cols = T.alloc_shared((64, 32), "bfloat16")
        T.tl.im2col(data[0:1, 0:8, 0:8, 0:32], cols[0:64, 0:32], bx, 0, 3, 1, 1, 1, "p.py:7:8")
        T.tl.copy(cols[0:64, 0:32], out[0:64, 0:32], "p.py:8:8")


@T.prim_func(private=True)
def im2col_gather_lowered(data: T.Buffer((1, 8, 8, 32), "bfloat16"), out: T.Buffer((64, 32), "bfloat16")):
    T.func_attr(
        {
            "tt.target": WORMHOLE,
            "tt.options": DEFAULT_OPTIONS,
            "tt.tensor_accessors": GATHER_ACCESSORS,
            "tt.compute_schedule": "tile_program",
            "tt.cb_table": GATHER_CB_TABLE,
            "tt.accumulators": [],
            "tt.tile_dfg": GATHER_TILE_DFG,
        }
    )
    for block in range(T.tt.work_count()):
        bx: T.let[T.int32] = T.tt.work_block(block, 0)
        # the reader gathers the rows (image 8×8×32, output grid 8×8 = 64 positions, block 64×32) into
        # the staging CB 0; compute tilizes them into the tile's value CB 24
        T.tt.read_im2col(0, 0, bx, 0, 3, 1, 1, 1, 8, 8, 32, 8, 8, 64, 64, 32, "p.py:7:8")
        T.tt.tile.tilize(0, 24, "p.py:7:8")
        T.tt.tile.copy(24, 16, "p.py:8:8")
        T.tt.write_from_cb(16, 1, 0, 0, 2, 1, "p.py:8:8")


def test_im2col_becomes_a_reader_gather_and_a_tilize():
    assert_pass(LowerTileProgramTT(), im2col_gather, im2col_gather_lowered)


@TL.prim_func
def gemm_repeated_on_tiles_loaded_once(
    A: TL.Tensor((64, 64), "bfloat16"), B: TL.Tensor((64, 64), "bfloat16"), C: TL.Tensor((64, 64), "float32")
):
    with TL.Kernel(1, 1) as (bx, by):
        A_s = TL.alloc_shared((64, 64), "bfloat16")
        B_s = TL.alloc_shared((64, 64), "bfloat16")
        C_f = TL.alloc_fragment((64, 64), "float")
        TL.copy(A[0, 0], A_s)
        TL.copy(B[0, 0], B_s)
        TL.clear(C_f)
        for _ in TL.serial(3):
            TL.gemm(A_s, B_s, C_f)
        TL.copy(C_f, C[0, 0])


def test_a_gemm_repeated_on_tiles_loaded_outside_its_loop_is_a_tile_program():
    """Not the plain matmul shape: its schedule loads A and B once per reduction step, this loop does not."""
    assert is_tile_program(gemm_repeated_on_tiles_loaded_once)
    assert not is_tile_program(gemm())


@TL.prim_func
def rows_scaled_per_block(
    A: TL.Tensor((64, 64), "float32"), Scale: TL.Tensor((2,), "bfloat16"), B: TL.Tensor((64, 64), "float32")
):
    with TL.Kernel(1, 2) as (bx, by):
        A_s = TL.alloc_shared((32, 64), "float32")
        TL.copy(A[by * 32, 0], A_s)
        for i, j in TL.Parallel(32, 64):
            A_s[i, j] = A_s[i, j] * TL.Cast("float32", Scale[by])
        TL.copy(A_s, B[by * 32, 0])


def test_an_index_table_is_one_page_of_32_bit_words():
    """An int32 table (6 values) is uint32 words and a bf16 one read once per block (2 values) float32 words;
    each CB holds one page, rounded up to the L1 alignment (16 bytes on Wormhole), in the UInt32 format."""
    for program, name, dtype, page in (
        (page_table_gather, "Pages", "uint32", 32),
        (rows_scaled_per_block, "Scale", "float32", 16),
    ):
        (table,) = [e for e in attr(lower(program, "LowerTileProgramTT"), "tt.cb_table") if e.role == "table"]
        got = (table.buffer, table.dtype, table.format, table.page_size, table.tiles, table.depth)
        assert got == (name, dtype, "UInt32", page, 1, 1), f"table CB of {name}: {table}"


@TL.prim_func
def columns_scaled_by_row_maxima(A: TL.Tensor((64, 64), "float32"), B: TL.Tensor((64, 64), "float32")):
    with TL.Kernel(1) as _:
        A_f = TL.alloc_fragment((64, 64), "float32")
        m = TL.alloc_fragment((64,), "float32")
        TL.copy(A, A_f)
        TL.reduce_max(A_f, m, dim=1)
        for i, j in TL.Parallel(64, 64):
            A_f[i, j] = A_f[i, j] * m[j]
        TL.copy(A_f, B)


def test_a_vector_turned_row_to_column_is_a_tile_transpose_of_its_tiles():
    """LegalizeVectorsTT gives the reduction a (64, 1) column copy of m, a row (1, 64); the transpose between
    them is tt.tile.transpose of the column's two tiles (64 x 32 padded) into the row's (32 x 64)."""
    mod = lower(columns_scaled_by_row_maxima, "LowerTileProgramTT")
    cbs = {e.cb: e for e in attr(mod, "tt.cb_table")}
    (site,) = find_ops(mod["gemm"].body, ("tt.tile.transpose",))
    src, dst = cbs[ops.fields(site.call).src], cbs[ops.fields(site.call).dst]
    assert (src.buffer, dst.buffer) == ("m_column1", "m"), (src, dst)
    assert (src.tile_shape, dst.tile_shape) == ([2, 1], [1, 2]), (src, dst)


@TL.prim_func
def add_bfp8(
    A: TL.Tensor((64, 64), "bfloat8_b"),
    B: TL.Tensor((64, 64), "bfloat16"),
    C: TL.Tensor((64, 64), "bfloat8_b"),
):
    with TL.Kernel(2, 2) as (bx, by):
        A_s = TL.alloc_shared((32, 32), "bfloat8_b")
        C_f = TL.alloc_fragment((32, 32), "float")
        TL.copy(A[by * 32, bx * 32], A_s)
        for i, j in TL.Parallel(32, 32):
            C_f[i, j] = A_s[i, j] + B[by * 32 + i, bx * 32 + j]
        TL.copy(C_f, C[by * 32, bx * 32])


def test_block_float_pages_fill_the_value_cb_and_pack_into_the_output_cb():
    """A bfloat8_b tensor's pages go straight into its tile's value CB (no staging copy: the unpacker reads
    Bfp8_b), and the fragment stored to a bfloat8_b tensor packs into a Bfp8_b output CB."""
    cbs = {e.buffer: e for e in attr(lower(add_bfp8, "LowerTileProgramTT"), "tt.cb_table")}
    assert (cbs["A_s"].role, cbs["A_s"].format, cbs["A_s"].page_size) == ("input", "Bfp8_b", 1088), cbs["A_s"]
    assert "A_s_in" not in cbs, sorted(cbs)
    assert (cbs["C_f_out"].role, cbs["C_f_out"].format) == ("output", "Bfp8_b"), cbs["C_f_out"]


@TL.prim_func
def split_maxima(X: TL.Tensor((3, 4, 64), "float32"), Y: TL.Tensor((3, 64), "float32")):
    with TL.Kernel(3) as bx:
        x = TL.alloc_fragment((4, 64), "float32")
        y = TL.alloc_fragment((64,), "float32")
        TL.copy(X[bx, :, :], x)
        TL.reduce_max(x, y, dim=0)
        TL.copy(y, Y[bx, :])


def _kept_and_reduced(program):
    """(the lowered function, its one generated tile's fields, its one reduction's fields)."""
    func = lower(program, "LowerTileProgramTT")["gemm"]
    (gen,) = [s.call for s in find_ops(func.body, ("tt.gen_tile",))]
    (reduce,) = [s.call for s in find_ops(func.body, ("tt.tile.reduce",))]
    return func, ops.fields(gen), ops.fields(reduce)


def test_a_reduction_over_four_rows_masks_the_padding_of_its_tiles():
    """4 rows in tiles of 32: the reader generates a tile of 1.0 on rows 0..3 (i < 4) and the reduction
    reads the source with -inf, max's identity, wherever that tile is 0."""
    func, gen, fields = _kept_and_reduced(split_maxima)
    assert fields.mask == gen.cb and fields.scratch >= 0, func.script()
    assert float(fields.identity) == float("-inf")
    assert "i < 4" in str(gen.value), gen.value


@TL.prim_func
def kept_maxima(X: TL.Tensor((64, 64), "float32"), Y: TL.Tensor((64,), "float32")):
    with TL.Kernel(1) as bx:
        x = TL.alloc_fragment((64, 64), "float32")
        y = TL.alloc_fragment((64,), "float32")
        y_prev = TL.alloc_fragment((64,), "float32")
        TL.copy(X[bx * 64, 0], x)
        TL.reduce_max(x, y, dim=1)
        TL.copy(y, y_prev)  # flash attention's T.copy(scores_max, scores_max_prev)
        TL.copy(y_prev, Y[bx * 64])


def test_a_vector_copied_whole_is_a_copy_of_its_tiles():
    """A whole vector copied into another is its tiles copied, not a slice of a one-column buffer: no
    generated tile selecting its column and no second reduction (flash attention's running maximum)."""
    func = lower(kept_maxima, "LowerTileProgramTT")["gemm"]
    assert not find_ops(func.body, ("tt.gen_tile",)), func.script()
    assert len(find_ops(func.body, ("tt.tile.reduce",))) == 1, func.script()


@TL.prim_func
def selected_rows(X: TL.Tensor((3, 4, 64), "float32"), Y: TL.Tensor((3, 64), "float32")):
    with TL.Kernel(3) as bx:
        table = TL.alloc_fragment((4, 64), "float32")
        row = TL.alloc_fragment((64,), "float32")
        TL.copy(X[bx, :, :], table)
        for j in TL.Parallel(64):
            row[j] = table[2, j]
        TL.copy(row, Y[bx, :])


def test_a_row_selected_element_wise_is_a_sum_keeping_that_row():
    """``row[j] = table[2, j]`` is the slice copy ``T.copy(table[2, :], row)``: a sum over the table's rows
    of a tile where only row 2 is kept (the reader generates i == 2), identity 0 elsewhere."""
    func, gen, fields = _kept_and_reduced(selected_rows)
    assert (fields.kind, int(fields.dim), fields.mask) == ("sum", 0, gen.cb), func.script()
    assert "i == 2" in str(gen.value), gen.value
    assert not find_ops(func.body, ("tt.tile.eltwise",)), "the selection should not be an element-wise op"


@TL.prim_func
def ranked_columns(X: TL.Tensor((64, 64), "float32"), Ranks: TL.Tensor((64, 4), "int32")):
    # top-k's shape: column k of an int32 fragment set per loop step, the fragment then written whole
    with TL.Kernel(2) as bx:
        xs = TL.alloc_fragment((32, 64), "float32")
        best = TL.alloc_fragment((32,), "float32")
        ranks = TL.alloc_fragment((32, 4), "int32")
        TL.copy(X[bx * 32, 0], xs)
        TL.clear(ranks)
        for k in TL.serial(4):
            TL.reduce_max(xs, best, dim=1)
            for i in TL.Parallel(32):
                ranks[i, k] = TL.Cast("int32", best[i])
        TL.copy(ranks, Ranks[bx * 32, 0])


def test_a_column_set_at_a_loop_position_keeps_the_other_columns_and_integers_compute_as_float32():
    """``ranks[i, k] = best[i]`` is ranks = (column == k ? best : ranks) over the whole fragment, the mask
    a tile the reader generates each step; the int32 fragment's CB holds float32 tiles (the value cut
    toward zero by the SFPU's trunc), and only the CB the writer drains holds Int32 words."""
    func = lower(ranked_columns, "LowerTileProgramTT")["gemm"]
    (gen,) = [ops.fields(s.call) for s in find_ops(func.body, ("tt.gen_tile",))]
    assert "k" in str(gen.value) and "==" in str(gen.value), gen.value
    (eltwise,) = [ops.fields(s.call) for s in find_ops(func.body, ("tt.tile.eltwise",))]
    assert "trunc" in str(eltwise.expr) and f"tt.tile.operand({gen.cb}" in str(eltwise.expr), eltwise.expr
    formats = {e.name: e.format for e in attr({"gemm": func}, "tt.cb_table")}
    assert formats["cb_ranks"] == "Float32" and formats["cb_ranks_out"] == "Int32", formats


@TL.prim_func
def scores_of_key_blocks(
    Q: TL.Tensor((64, 64), "bfloat16"), K: TL.Tensor((128, 64), "bfloat16"), S: TL.Tensor((64, 64), "float32")
):
    # flash attention's first product: acc_s set by its padding mask (k * 64 + j >= 128 never holds here:
    # 2 key blocks of 64 cover the 128 keys), then accumulated into by the GEMM
    with TL.Kernel(1, 1) as (bx, by):
        Q_s = TL.alloc_shared((64, 64), "bfloat16")
        K_s = TL.alloc_shared((64, 64), "bfloat16")
        acc_s = TL.alloc_fragment((64, 64), "float32")
        total = TL.alloc_fragment((64, 64), "float32")
        TL.copy(Q[0, 0], Q_s)
        TL.clear(total)
        for k in TL.serial(2):
            TL.copy(K[k * 64, 0], K_s)
            for i, j in TL.Parallel(64, 64):
                acc_s[i, j] = TL.if_then_else(k * 64 + j >= 128, -TL.infinity("float32"), 0)
            TL.gemm(Q_s, K_s, acc_s, transpose_B=True)
            for i, j in TL.Parallel(64, 64):
                total[i, j] += acc_s[i, j]
        TL.copy(total, S[0, 0])


def test_a_gemm_into_a_block_the_statement_before_zeroes_starts_from_zero():
    """The mask is 0 wherever it is used (over k's range and the nest's), so it generates no tile and sets
    nothing: the GEMM writes acc_s = Q·K^T (tt.tile.matmul_cleared, acc_s not read). The clear of total,
    which no GEMM follows, stays."""
    lowered = lower(scores_of_key_blocks, "LowerTileProgramTT")["gemm"].body
    assert not find_ops(lowered, ("tt.gen_tile",)), "the mask should fold to its one value, 0"
    assert [s.call.op.name for s in find_ops(lowered, ("tt.tile.matmul", "tt.tile.matmul_cleared"))] == [
        "tt.tile.matmul_cleared"
    ]
    assert len(find_ops(lowered, ("tt.tile.fill",))) == 1, "only total's clear should remain"


def _cbs_of(mod) -> dict:
    return {e.buffer: e for e in attr(mod, "tt.cb_table")}


def test_a_load_every_block_repeats_is_read_once_before_the_work_loop():
    """gamma's tile is the same in every block: read once per core, before the work loop, into a CB
    of one block that the compute kernel keeps; X and shift, read where the block is, stay in the loop and
    double-buffered."""
    mod = lower(affine_blocks, "LowerTileProgramTT")
    body, cbs = mod["gemm"].body, _cbs_of(mod)
    first, work_loop = body.seq[0], body.seq[-1]
    assert ops.is_op(first, "tt.read_to_cb") and int(ops.fields(first).cb) == cbs["G_s"].cb, body
    assert ops.is_op(body.seq[1], "tt.tile.wait_input"), body
    reads = [int(s.call.args[0]) for s in find_ops(work_loop, ("tt.read_to_cb",))]
    assert reads == [cbs["X_s"].cb, cbs["S_s"].cb], f"only X and shift should be read per block: {reads}"
    assert cbs["G_s"].depth == cbs["G_s"].tiles == 1, cbs["G_s"]
    assert cbs["X_s"].depth == 2 * cbs["X_s"].tiles, cbs["X_s"]


def test_a_row_vector_read_as_a_row_broadcast_is_read_one_row_per_tile():
    """gamma and shift are only ever broadcast down the rows, which takes each tile's first row: their
    CBs are marked first_row_only; X's is not."""
    cbs = _cbs_of(lower(affine_blocks, "LowerTileProgramTT"))
    assert [b for b, e in cbs.items() if e.first_row_only] == ["G_s", "S_s"], cbs


@TL.prim_func
def added_vectors(
    a: TL.Tensor((64,), "float32"), b: TL.Tensor((64,), "float32"), c: TL.Tensor((64,), "float32")
):
    with TL.Kernel(1) as bx:
        a_s = TL.alloc_shared((64,), "float32")
        b_s = TL.alloc_shared((64,), "float32")
        c_s = TL.alloc_shared((64,), "float32")
        TL.copy(a, a_s)
        TL.copy(b, b_s)
        for j in TL.Parallel(64):
            c_s[j] = a_s[j] + b_s[j]
        TL.copy(c_s, c)


def test_a_row_vector_added_tile_to_tile_is_read_whole():
    """a_s + b_s adds whole tiles (no broadcast): both are read as whole tiles."""
    cbs = _cbs_of(lower(added_vectors, "LowerTileProgramTT"))
    assert not [b for b, e in cbs.items() if e.first_row_only], cbs


def test_blocks_a_later_loop_loads_again_are_kept_from_the_first():
    """x's blocks, loaded at the top of both loops over k, are read once: the first loop reads each and
    waits for it (tt.tile.wait_kept, earlier blocks stay), the second reads none and uses the kept block
    of its step, and all four are released after it. The CB holds two rows of them (8 blocks of 4 tiles),
    so the reader can fetch the next row's while the second loop runs."""
    mod = lower(centred_rows, "LowerTileProgramTT")
    body, cbs = mod["gemm"].body, _cbs_of(mod)
    first, second = [s.loops[-1] for s in find_ops(body, ("tt.tile.wait_kept", "tt.tile.use_kept"))]
    assert not first.same_as(second), "wait_kept should be in the first loop, use_kept in the second"
    assert len(find_ops(first, ("tt.read_to_cb",))) == 1 and not find_ops(second, ("tt.read_to_cb",)), body
    (release,) = find_ops(body, ("tt.tile.release_kept",))
    assert not any(lp.same_as(second) for lp in release.loops) and int(ops.fields(release.call).steps) == 4
    assert cbs["x"].depth == 2 * 4 * cbs["x"].tiles == 32, cbs["x"]


def test_blocks_are_not_kept_when_the_later_loop_loads_other_ones():
    """With the second loop reading the next row block, nothing is kept: both loops read and wait."""

    @TL.prim_func
    def shifted(X: TL.Tensor((96, 256), "bfloat16"), Y: TL.Tensor((64, 64), "float32")):
        with TL.Kernel(2) as bx:
            x = TL.alloc_shared((32, 64), "bfloat16")
            y = TL.alloc_fragment((32, 64), "float32")
            TL.clear(y)
            for k in TL.serial(4):
                TL.copy(X[bx * 32, k * 64], x)
                for i, j in TL.Parallel(32, 64):
                    y[i, j] += x[i, j]
            for k in TL.serial(4):
                TL.copy(X[bx * 32 + 32, k * 64], x)
                for i, j in TL.Parallel(32, 64):
                    y[i, j] += x[i, j]
            TL.copy(y, Y[bx * 32, 0])

    body = lower(shifted, "LowerTileProgramTT")["gemm"].body
    assert not find_ops(body, ("tt.tile.wait_kept", "tt.tile.use_kept", "tt.tile.release_kept")), body
    assert len(find_ops(body, ("tt.tile.wait_input",))) == 2, body


def _gemm_then_relu(block: int, k_steps: int):
    """relu(A @ B) in block x block outputs over ``k_steps`` 32-wide K steps: a tile program's GEMM loop."""
    size = 32 * k_steps

    @TL.prim_func
    def main(
        A: TL.Tensor((block, size), "bfloat16"),
        B: TL.Tensor((size, block), "bfloat16"),
        C: TL.Tensor((block, block), "float32"),
    ):
        with TL.Kernel(1, 1) as (bx, by):
            A_s = TL.alloc_shared((block, 32), "bfloat16")
            B_s = TL.alloc_shared((32, block), "bfloat16")
            C_f = TL.alloc_fragment((block, block), "float32")
            TL.clear(C_f)
            for k in TL.Pipelined(k_steps, num_stages=2):
                TL.copy(A[by * block, k * 32], A_s)
                TL.copy(B[k * 32, bx * block], B_s)
                TL.gemm(A_s, B_s, C_f)
            for i, j in TL.Parallel(block, block):
                C_f[i, j] = TL.max(C_f[i, j], 0)
            TL.copy(C_f, C[by * block, bx * block])

    return main


@pytest.mark.parametrize(
    "block, k_tiles_per_step",
    [(64, 8), (256, 4)],
    ids=["small_blocks_take_8_k_steps", "256x256_sums_leave_L1_for_4"],
)
def test_a_gemm_loop_takes_as_many_k_steps_at_a_time_as_l1_holds(block, k_tiles_per_step):
    """16 K steps of 32: the operands' CBs are as wide as the largest group of 8, 4 or 2 steps whose
    circular buffers fit L1 (beside 256x256 fp32 sums, two blocks of them, 4 do), and the loop runs
    16 / group times."""
    mod = lower(_gemm_then_relu(block, 16), "LowerTileProgramTT")
    cbs = _cbs_of(mod)
    tiles = block // 32
    assert cbs["A_s"].tiles == tiles * k_tiles_per_step, cbs["A_s"]
    assert cbs["B_s"].tiles == tiles * k_tiles_per_step, cbs["B_s"]
    (loop,) = [s.loops[-1] for s in find_ops(mod["gemm"].body, ("tt.tile.matmul", "tt.tile.matmul_cleared"))]
    assert int(loop.extent) == 16 // k_tiles_per_step, loop
