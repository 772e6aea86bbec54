"""StageIndexTablesTT: integer and bool tensors read one value at a time become index tables."""

import pytest
import tilelang_tt.language as TL
from before_after import T, assert_pass
from programs import attr, cut_to_integers, lower, page_table_gather
from tilelang_tt.errors import TTCompileError
from tilelang_tt.passes import StageIndexTablesTT
from tilelang_tt.records import IndexTable


@T.prim_func(private=True)
def masked_blocks(
    A: T.Buffer((64, 128), "float16"), Mask: T.Buffer((2, 4), "bool"), C: T.Buffer((64, 32), "float16")
):
    bx = T.launch_thread("blockIdx.x", 2)
    A_s = T.alloc_shared((32, 32), "float16")
    for k in range(4):
        if Mask[bx, k]:
            T.tl.copy(A[bx * 32 : bx * 32 + 32, k * 32 : k * 32 + 32], A_s[0:32, 0:32], "p.py:8:16")
    T.tl.copy(A_s[0:32, 0:32], C[bx * 32 : bx * 32 + 32, 0:32], "p.py:9:8")


@T.prim_func(private=True)
def masked_blocks_staged(
    A: T.Buffer((64, 128), "float16"), Mask: T.Buffer((2, 4), "bool"), C: T.Buffer((64, 32), "float16")
):
    T.func_attr(
        {"tt.index_tables": [IndexTable(name="Mask", dtype="bool", shape=[2, 4], words=8, loc="p.py:8:16")]}
    )
    bx = T.launch_thread("blockIdx.x", 2)
    A_s = T.alloc_shared((32, 32), "float16")
    for k in range(4):
        if T.tt.table_value("Mask", bx * 4 + k) != 0:
            T.tl.copy(A[bx * 32 : bx * 32 + 32, k * 32 : k * 32 + 32], A_s[0:32, 0:32], "p.py:8:16")
    T.tl.copy(A_s[0:32, 0:32], C[bx * 32 : bx * 32 + 32, 0:32], "p.py:9:8")


def test_a_bool_mask_in_a_condition_becomes_a_table_read():
    assert_pass(StageIndexTablesTT(), masked_blocks, masked_blocks_staged)


@T.prim_func(private=True)
def mask_row_copied(
    A: T.Buffer((64, 128), "float16"), Mask: T.Buffer((2, 4), "bool"), C: T.Buffer((64, 32), "float16")
):
    bx = T.launch_thread("blockIdx.x", 2)
    A_s = T.alloc_shared((32, 32), "float16")
    mask = T.alloc_buffer((4,), "bool", scope="local.fragment")
    T.tl.copy(Mask[bx, 0:4], mask[0:4], "p.py:7:4")
    for k in range(4):
        if mask[k]:
            T.tl.copy(A[bx * 32 : bx * 32 + 32, k * 32 : k * 32 + 32], A_s[0:32, 0:32], "p.py:8:16")
    T.tl.copy(A_s[0:32, 0:32], C[bx * 32 : bx * 32 + 32, 0:32], "p.py:9:8")


def test_a_mask_row_copied_into_a_fragment_is_read_in_place():
    """TileLang's block-sparse attention copies its row of the mask, ``T.copy(BlockSparseMask[bz, by, bx,
    :], block_mask)``, then tests ``block_mask[k]``: the copy and the fragment go, the test reads the
    table at the copied row."""
    assert_pass(StageIndexTablesTT(), mask_row_copied, masked_blocks_staged)


def test_an_int32_page_table_indexes_a_copy():
    func = lower(page_table_gather, "StageIndexTablesTT")["gemm"]
    (table,) = func.attrs["tt.index_tables"]
    assert (table.name, table.dtype, list(table.shape), table.words) == ("Pages", "int32", [2, 3], 6)
    assert 'T.tt.table_value("Pages", by * 3 + bx) * 32' in func.script(), func.script()


@TL.prim_func
def sink_per_head(
    S: TL.Tensor((64, 64), "float32"), Sinks: TL.Tensor((2,), "float16"), O: TL.Tensor((64, 64), "float32")
):
    with TL.Kernel(2) as by:
        s = TL.alloc_fragment((32, 64), "float32")
        sinks = TL.alloc_fragment((32,), "float16")
        TL.copy(S[by * 32, 0], s)
        for i in TL.Parallel(32):
            sinks[i] = Sinks[by]
        for i, j in TL.Parallel(32, 64):
            s[i, j] = s[i, j] - sinks[i]
        TL.copy(s, O[by * 32, 0])


def test_a_float_tensor_read_once_per_block_becomes_a_scalar_table():
    func = lower(sink_per_head, "StageIndexTablesTT")["gemm"]
    (table,) = func.attrs["tt.index_tables"]
    assert (table.name, table.dtype, table.words) == ("Sinks", "float16", 2)
    assert 'T.Cast("float16", T.tt.table_value("Sinks", by))' in func.script(), func.script()


@TL.prim_func
def skip_weight_per_head(
    X: TL.Tensor((64, 64), "float32"), D: TL.Tensor((2,), "float16"), Y: TL.Tensor((64, 64), "float32")
):
    # Mamba's chunk scan: D_local[0] = D[bz] outside any loop, then D_local[0] inside T.Parallel
    with TL.Kernel(2) as bz:
        x = TL.alloc_fragment((32, 64), "float32")
        d = TL.alloc_fragment((1,), "float32")
        TL.copy(X[bz * 32, 0], x)
        d[0] = D[bz]
        for i, j in TL.Parallel(32, 64):
            x[i, j] = x[i, j] * d[0]
        TL.copy(x, Y[bz * 32, 0])


def test_a_value_of_a_float_tensor_stored_once_per_block_is_a_scalar_table_read():
    func = lower(skip_weight_per_head, "StageIndexTablesTT")["gemm"]
    (table,) = func.attrs["tt.index_tables"]
    assert (table.name, table.words) == ("D", 2) and 'T.tt.table_value("D", bz)' in func.script()


@TL.prim_func
def read_through_a_named_row(A: TL.Tensor((64, 64), "float32"), B: TL.Tensor((64, 64), "float32")):
    with TL.Kernel(2) as by:
        for i, j in TL.Parallel(32, 64):
            row = by * 32 + i
            col = j
            if row < 48:
                B[row, col] = A[row, col] * 2.0
            else:
                B[row, col] = A[row, col] * 0.5


def test_a_tensor_read_at_a_named_element_position_is_no_scalar_table():
    # row and col name values of the element's i and j: A is read element by element, not once per block
    func = lower(read_through_a_named_row, "StageIndexTablesTT")["gemm"]
    assert "tt.index_tables" not in func.attrs, func.attrs["tt.index_tables"]


@TL.prim_func
def copied_as_tiles(A: TL.Tensor((64, 64), "int32"), B: TL.Tensor((64, 64), "float32")):
    with TL.Kernel(2) as bx:
        S = TL.alloc_shared((32, 64), "int32")
        TL.copy(A[bx * 32, 0], S)
        TL.copy(S, B[bx * 32, 0])


@TL.prim_func
def element_wise(
    A: TL.Tensor((64, 64), "float32"), Idx: TL.Tensor((64, 64), "int32"), B: TL.Tensor((64, 64), "float32")
):
    with TL.Kernel(2) as bx:
        S = TL.alloc_shared((32, 64), "float32")
        TL.copy(A[bx * 32, 0], S)
        for i, j in TL.Parallel(32, 64):
            S[i, j] = S[i, j] * TL.Cast("float32", Idx[bx * 32 + i, j])
        TL.copy(S, B[bx * 32, 0])


@pytest.mark.parametrize(
    "program, message, statement",
    [
        (copied_as_tiles, "A is an integer tensor used as tiles here", "TL.copy(A[bx * 32, 0], S)"),
        (element_wise, "Idx is an integer tensor used element-wise inside T.Parallel", "TL.Parallel(32, 64)"),
    ],
)
def test_integer_tensors_used_as_tiles_are_located_errors(program, message, statement):
    with pytest.raises(TTCompileError, match=message) as err:
        lower(program, "StageIndexTablesTT")
    assert statement in str(err.value), f"the error does not show the offending statement: {err.value}"


def test_an_int32_tensor_the_kernel_only_writes_is_tiles_not_a_table():
    """Top-k's indices: an int32 result tensor is written as tiles (integer_tiles.py), so it is no index
    table and its stores are left alone."""
    func = lower(cut_to_integers, "StageIndexTablesTT")["gemm"]
    assert not attr({"gemm": func}, "tt.index_tables"), "Ranks became an index table"
