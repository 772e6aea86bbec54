"""StageElementGlobalsTT: element-wise statements reach global tensors only through staged tiles."""

import tvm
from before_after import T, assert_pass
from tilelang_tt.passes import StageElementGlobalsTT


@T.prim_func(private=True)
def add_bias(A: T.Buffer((64, 64), "bfloat16"), C: T.Buffer((64, 64), "bfloat16")):
    by = T.launch_thread("blockIdx.y", 2)
    bias = T.alloc_buffer((32, 64), scope="local.fragment")
    T.tl.fill(bias[0:32, 0:64], T.float32(1), "p.py:5:8")
    for i in T.serial(32, annotations={"tl.loc": "p.py:6:20"}):
        for j in T.serial(64, annotations={"tl.loc": "p.py:6:20"}):
            C[by * 32 + i, j] = A[by * 32 + i, j] * T.bfloat16(2) + T.Cast("bfloat16", bias[i, j])


@T.prim_func(private=True)
def add_bias_staged(A: T.Buffer((64, 64), "bfloat16"), C: T.Buffer((64, 64), "bfloat16")):
    by = T.launch_thread("blockIdx.y", 2)
    bias = T.alloc_buffer((32, 64), scope="local.fragment")
    T.tl.fill(bias[0:32, 0:64], T.float32(1), "p.py:5:8")
    A_tile = T.alloc_buffer((32, 64), "bfloat16", scope="local.fragment")
    C_tile = T.alloc_buffer((32, 64), "bfloat16", scope="local.fragment")
    T.tl.copy(A[by * 32 : by * 32 + 32, 0:64], A_tile[0:32, 0:64], "p.py:6:20")
    for i in T.serial(32, annotations={"tl.loc": "p.py:6:20"}):
        for j in T.serial(64, annotations={"tl.loc": "p.py:6:20"}):
            C_tile[i, j] = A_tile[i, j] * T.bfloat16(2) + T.Cast("bfloat16", bias[i, j])
    T.tl.copy(C_tile[0:32, 0:64], C[by * 32 : by * 32 + 32, 0:64], "p.py:6:20")


def test_a_global_read_and_store_are_staged_through_fragments():
    """A is copied into A_tile before the nest, the nest computes into C_tile, C_tile is copied out after;
    each tile has the nest's extent and the tensor's dtype; the fragment bias is left as it is."""
    assert_pass(StageElementGlobalsTT(), add_bias, add_bias_staged)


@T.prim_func(private=True)
def scale_rows(A: T.Buffer((64, 64), "bfloat16"), C: T.Buffer((64, 64), "bfloat16")):
    by = T.launch_thread("blockIdx.y", 2)
    for i in T.serial(32, annotations={"tl.loc": "p.py:5:20"}):
        for j in T.serial(64, annotations={"tl.loc": "p.py:5:20"}):
            C[by * 32 + i, j] = A[by * 32 + i, j] * T.bfloat16(2)


@T.prim_func(private=True)
def scale_rows_staged(A: T.Buffer((64, 64), "bfloat16"), C: T.Buffer((64, 64), "bfloat16")):
    by = T.launch_thread("blockIdx.y", 2)
    A_tile = T.alloc_buffer((32, 64), "bfloat16", scope="local.fragment")
    C_tile = T.alloc_buffer((32, 64), "bfloat16", scope="local.fragment")
    T.tl.copy(A[by * 32 : by * 32 + 32, 0:64], A_tile[0:32, 0:64], "p.py:5:20")
    for i in T.serial(32, annotations={"tl.loc": "p.py:5:20"}):
        for j in T.serial(64, annotations={"tl.loc": "p.py:5:20"}):
            C_tile[i, j] = A_tile[i, j] * T.bfloat16(2)
    T.tl.copy(C_tile[0:32, 0:64], C[by * 32 : by * 32 + 32, 0:64], "p.py:5:20")


def test_a_nest_that_is_the_whole_kernel_body_is_staged_too():
    assert_pass(StageElementGlobalsTT(), scale_rows, scale_rows_staged)


@T.prim_func(private=True)
def store_row_means(Mean: T.Buffer((64, 1), "float32")):
    bx = T.launch_thread("blockIdx.x", 2)
    mean = T.alloc_buffer((32, 1), scope="local.fragment")
    T.tl.fill(mean[0:32, 0:1], T.float32(0), "p.py:3:8")
    for i in T.serial(32, annotations={"tl.loc": "p.py:4:16"}):
        Mean[bx * 32 + i, 0] = mean[i, 0]


@T.prim_func(private=True)
def store_row_means_staged(Mean: T.Buffer((64, 1), "float32")):
    bx = T.launch_thread("blockIdx.x", 2)
    mean = T.alloc_buffer((32, 1), scope="local.fragment")
    T.tl.fill(mean[0:32, 0:1], T.float32(0), "p.py:3:8")
    Mean_tile = T.alloc_buffer((32, 1), scope="local.fragment")
    for i in T.serial(32, annotations={"tl.loc": "p.py:4:16"}):
        Mean_tile[i, 0] = mean[i, 0]
    T.tl.copy(Mean_tile[0:32, 0:1], Mean[bx * 32 : bx * 32 + 32, 0:1], "p.py:4:16")


def test_a_column_store_is_staged_with_a_one_wide_tile():
    """The docstring's example: Mean[bx * 32 + i, 0] is stored through a (32, 1) Mean_tile."""
    assert_pass(StageElementGlobalsTT(), store_row_means, store_row_means_staged)


@T.prim_func(private=True)
def square(A: T.Buffer((32, 32), "float32"), C: T.Buffer((32, 32), "float32")):
    ones = T.alloc_buffer((32, 32), scope="local.fragment")
    T.tl.fill(ones[0:32, 0:32], T.float32(1), "p.py:3:4")
    for i in T.serial(32, annotations={"tl.loc": "p.py:4:16"}):
        for j in T.serial(32, annotations={"tl.loc": "p.py:4:16"}):
            C[i, j] = A[i, j] * A[i, j] + ones[i, j]


@T.prim_func(private=True)
def square_staged(A: T.Buffer((32, 32), "float32"), C: T.Buffer((32, 32), "float32")):
    ones = T.alloc_buffer((32, 32), scope="local.fragment")
    T.tl.fill(ones[0:32, 0:32], T.float32(1), "p.py:3:4")
    A_tile = T.alloc_buffer((32, 32), scope="local.fragment")
    C_tile = T.alloc_buffer((32, 32), scope="local.fragment")
    T.tl.copy(A[0:32, 0:32], A_tile[0:32, 0:32], "p.py:4:16")
    for i in T.serial(32, annotations={"tl.loc": "p.py:4:16"}):
        for j in T.serial(32, annotations={"tl.loc": "p.py:4:16"}):
            C_tile[i, j] = A_tile[i, j] * A_tile[i, j] + ones[i, j]
    T.tl.copy(C_tile[0:32, 0:32], C[0:32, 0:32], "p.py:4:16")


def test_two_reads_of_one_tensor_share_its_tile():
    assert_pass(StageElementGlobalsTT(), square, square_staged)


@T.prim_func(private=True)
def scale_bshd(Q: T.Buffer((1, 64, 2, 32), "float32"), C: T.Buffer((32, 32), "float32")):
    bx = T.launch_thread("blockIdx.x", 2)
    q = T.alloc_buffer((32, 32), scope="local.fragment")
    for i in T.serial(32, annotations={"tl.loc": "p.py:4:16"}):
        for j in T.serial(32, annotations={"tl.loc": "p.py:4:16"}):
            q[i, j] = Q[0, bx * 32 + i, 1, j] * T.float32(2)
    T.tl.copy(q[0:32, 0:32], C[0:32, 0:32], "p.py:5:4")


@T.prim_func(private=True)
def scale_bshd_staged(Q: T.Buffer((1, 64, 2, 32), "float32"), C: T.Buffer((32, 32), "float32")):
    bx = T.launch_thread("blockIdx.x", 2)
    q = T.alloc_buffer((32, 32), scope="local.fragment")
    Q_tile = T.alloc_buffer((32, 32), scope="local.fragment")
    T.tl.copy(Q[0:1, bx * 32 : bx * 32 + 32, 1:2, 0:32], Q_tile[0:32, 0:32], "p.py:4:16")
    for i in T.serial(32, annotations={"tl.loc": "p.py:4:16"}):
        for j in T.serial(32, annotations={"tl.loc": "p.py:4:16"}):
            q[i, j] = Q_tile[i, j] * T.float32(2)
    T.tl.copy(q[0:32, 0:32], C[0:32, 0:32], "p.py:5:4")


def test_an_nd_read_is_staged_in_a_2d_tile_of_the_dimensions_it_spans():
    """Q[0, bx * 32 + i, 1, j] of a (B, S, H, D) tensor (retention's BSHD query) spans S and D: its staging
    tile is (32, 32), not (1, 32, 1, 32), so the tile is a plain 2-D tile buffer."""
    assert_pass(StageElementGlobalsTT(), scale_bshd, scale_bshd_staged)


@T.prim_func(private=True)
def shift_rows(X: T.Buffer((64, 64), "float32"), Mean: T.Buffer((64, 1), "float32")):
    bx = T.launch_thread("blockIdx.x", 2)
    x = T.alloc_buffer((1, 64), scope="local.fragment")
    for k in range(32):
        m_v: T.let[T.float32] = Mean[bx * 32 + k, 0]
        for i in T.serial(1, annotations={"tl.loc": "p.py:7:20"}):
            for j in T.serial(64, annotations={"tl.loc": "p.py:7:20"}):
                x[i, j] = x[i, j] - m_v


@T.prim_func(private=True)
def shift_rows_staged(X: T.Buffer((64, 64), "float32"), Mean: T.Buffer((64, 1), "float32")):
    bx = T.launch_thread("blockIdx.x", 2)
    x = T.alloc_buffer((1, 64), scope="local.fragment")
    for k in range(32):
        # the named value is one more global read of the nest that uses it: one value, staged alone
        Mean_tile = T.alloc_buffer((1, 1), scope="local.fragment")
        T.tl.copy(Mean[bx * 32 + k : bx * 32 + k + 1, 0:1], Mean_tile[0:1, 0:1], "p.py:7:20")
        for i in T.serial(1, annotations={"tl.loc": "p.py:7:20"}):
            for j in T.serial(64, annotations={"tl.loc": "p.py:7:20"}):
                x[i, j] = x[i, j] - Mean_tile[0, 0]


def test_a_value_named_from_a_global_tensor_is_staged_where_it_is_used():
    """TileLang's LayerNorm backward names each row's mean (``m_v = Mean[row]``) and uses it element-wise."""
    assert_pass(StageElementGlobalsTT(), shift_rows, shift_rows_staged)


@T.prim_func(private=True)
def top_values(Gates: T.Buffer((64, 6), "float32"), Rows: T.Buffer((6, 64), "float32")):
    bx = T.launch_thread("blockIdx.x", 2)
    best = T.alloc_buffer((32, 1), scope="local.fragment")
    T.tl.fill(best[0:32, 0:1], T.float32(0), "p.py:3:8")
    for k in range(6):
        for i in T.serial(32, annotations={"tl.loc": "p.py:5:20"}):
            Gates[bx * 32 + i, k] = best[i, 0]
            Rows[k, bx * 32 + i] = best[i, 0]


@T.prim_func(private=True)
def top_values_gathered(Gates: T.Buffer((64, 6), "float32"), Rows: T.Buffer((6, 64), "float32")):
    bx = T.launch_thread("blockIdx.x", 2)
    best = T.alloc_buffer((32, 1), scope="local.fragment")
    T.tl.fill(best[0:32, 0:1], T.float32(0), "p.py:3:8")
    Gates_columns = T.alloc_buffer((32, 6), scope="local.fragment")
    T.tl.fill(Gates_columns[0:32, 0:6], T.float32(0), "p.py:5:20")
    Rows_rows = T.alloc_buffer((6, 32), scope="local.fragment")
    T.tl.fill(Rows_rows[0:6, 0:32], T.float32(0), "p.py:5:20")
    for k in range(6):
        for i in T.serial(32, annotations={"tl.loc": "p.py:5:20"}):
            Gates_columns[i, k] = best[i, 0]
            Rows_rows[k, i] = best[i, 0]
    T.tl.copy(Gates_columns[0:32, 0:6], Gates[bx * 32 : bx * 32 + 32, 0:6], "p.py:5:20")
    T.tl.copy(Rows_rows[0:6, 0:32], Rows[0:6, bx * 32 : bx * 32 + 32], "p.py:5:20")


def test_columns_a_loop_stores_at_its_position_gather_in_a_fragment_copied_out_after_it():
    """Top-k's k-th result goes to column k of its output (and, transposed, row k): one column of a tile
    row is narrower than a tile, so the loop fills a fragment, zeroed before it, copied out after it."""
    assert_pass(StageElementGlobalsTT(), top_values, top_values_gathered)


@T.prim_func(private=True)
def column_read_back(Gates: T.Buffer((64, 6), "float32")):
    bx = T.launch_thread("blockIdx.x", 2)
    best = T.alloc_buffer((32, 1), scope="local.fragment")
    T.tl.fill(best[0:32, 0:1], T.float32(0), "p.py:3:8")
    for k in range(6):
        for i in T.serial(32, annotations={"tl.loc": "p.py:5:20"}):
            best[i, 0] = best[i, 0] + Gates[bx * 32 + i, 0]
        for i in T.serial(32, annotations={"tl.loc": "p.py:6:20"}):
            Gates[bx * 32 + i, k] = best[i, 0]


def test_a_column_the_loop_also_reads_is_not_gathered():
    """Deferring the stores would change what the loop reads: the tensor is staged per nest as before
    (a located error later, at the one-wide region)."""
    after = StageElementGlobalsTT()(tvm.IRModule({"main": column_read_back}))["main"]
    assert "Gates_columns" not in after.script(), after.script()
