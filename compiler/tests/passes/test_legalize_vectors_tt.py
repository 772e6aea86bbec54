"""LegalizeVectorsTT: every 1-D buffer becomes the (L, 1) column or (1, L) row its tiles hold."""

from before_after import T, assert_pass
from tilelang_tt.passes import LegalizeVectorsTT


@T.prim_func(private=True)
def row_max_and_scale(
    A: T.Buffer((64, 64), "float32"), w: T.Buffer((64,), "float32"), B: T.Buffer((64, 64), "float32")
):
    bx = T.launch_thread("blockIdx.x", 2)
    A_s = T.alloc_shared((32, 64))
    w_s = T.alloc_shared((64,))
    m = T.alloc_buffer((32,), scope="local.fragment")
    S = T.alloc_buffer((32, 64), scope="local.fragment")
    T.tl.copy(A[bx * 32 : bx * 32 + 32, 0:64], A_s[0:32, 0:64], "p.py:8:8")
    T.tl.copy(w[0:64], w_s[0:64], "p.py:9:8")
    T.tl.reduce(A_s[0:32, 0:64], m[0:32], "max", 1, 1, "p.py:10:8")
    for i in T.serial(32, annotations={"tl.loc": "p.py:11:20"}):
        for j in T.serial(64, annotations={"tl.loc": "p.py:11:20"}):
            S[i, j] = T.exp(A_s[i, j] - m[i]) * w_s[j]
    T.tl.copy(S[0:32, 0:64], B[bx * 32 : bx * 32 + 32, 0:64], "p.py:13:8")


@T.prim_func(private=True)
def row_max_and_scale_legalized(
    A: T.Buffer((64, 64), "float32"), w: T.Buffer((1, 64), "float32"), B: T.Buffer((64, 64), "float32")
):
    T.func_attr({"tt.declared_shapes": {"w": [64]}})
    bx = T.launch_thread("blockIdx.x", 2)
    A_s = T.alloc_shared((32, 64))
    w_s = T.alloc_shared((1, 64))
    m = T.alloc_buffer((32, 1), scope="local.fragment")
    S = T.alloc_buffer((32, 64), scope="local.fragment")
    T.tl.copy(A[bx * 32 : bx * 32 + 32, 0:64], A_s[0:32, 0:64], "p.py:8:8")
    T.tl.copy(w[0:1, 0:64], w_s[0:1, 0:64], "p.py:9:8")
    T.tl.reduce(A_s[0:32, 0:64], m[0:32, 0:1], "max", 1, 1, "p.py:10:8")
    for i in T.serial(32, annotations={"tl.loc": "p.py:11:20"}):
        for j in T.serial(64, annotations={"tl.loc": "p.py:11:20"}):
            S[i, j] = T.exp(A_s[i, j] - m[i, 0]) * w_s[0, j]
    T.tl.copy(S[0:32, 0:64], B[bx * 32 : bx * 32 + 32, 0:64], "p.py:13:8")


def test_reduce_target_becomes_a_column_and_a_column_indexed_weight_a_row():
    """m (the reduce_max over dim 1) is one value per row: (32, 1); w, read as w[j] in the 2-D
    T.Parallel and copied to w_s, is one value per column: (1, 64), the parameter's 1-D shape recorded."""
    assert_pass(LegalizeVectorsTT(), row_max_and_scale, row_max_and_scale_legalized)


@T.prim_func(private=True)
def no_vectors(A: T.Buffer((32, 32), "float32"), B: T.Buffer((32, 32), "float32")):
    A_s = T.alloc_shared((32, 32))
    T.tl.copy(A[0:32, 0:32], A_s[0:32, 0:32], "p.py:3:4")
    T.tl.copy(A_s[0:32, 0:32], B[0:32, 0:32], "p.py:4:4")


def test_a_program_without_vectors_is_unchanged():
    assert_pass(LegalizeVectorsTT(), no_vectors, no_vectors)


@T.prim_func(private=True)
def row_max_read_as_a_row(A: T.Buffer((32, 32), "float32"), B: T.Buffer((32, 32), "float32")):
    A_s = T.alloc_shared((32, 32))
    m = T.alloc_buffer((32,), scope="local.fragment")
    S = T.alloc_buffer((32, 32), scope="local.fragment")
    T.tl.copy(A[0:32, 0:32], A_s[0:32, 0:32], "p.py:3:4")
    T.tl.reduce(A_s[0:32, 0:32], m[0:32], "max", 1, 1, "p.py:4:4")
    for i in T.serial(32, annotations={"tl.loc": "p.py:5:16"}):
        for j in T.serial(32, annotations={"tl.loc": "p.py:5:16"}):
            S[i, j] = A_s[i, j] * m[j]
    T.tl.copy(S[0:32, 0:32], B[0:32, 0:32], "p.py:7:4")


@T.prim_func(private=True)
def row_max_read_as_a_row_legalized(A: T.Buffer((32, 32), "float32"), B: T.Buffer((32, 32), "float32")):
    A_s = T.alloc_shared((32, 32))
    m = T.alloc_buffer((1, 32), scope="local.fragment")
    S = T.alloc_buffer((32, 32), scope="local.fragment")
    T.tl.copy(A[0:32, 0:32], A_s[0:32, 0:32], "p.py:3:4")
    m_column1 = T.alloc_buffer((32, 1), scope="local.fragment")
    T.tl.reduce(A_s[0:32, 0:32], m_column1[0:32, 0:1], "max", 1, 1, "p.py:4:4")
    T.tl.transpose(m_column1[0:32, 0:1], m[0:1, 0:32], "p.py:4:4")
    for i in T.serial(32, annotations={"tl.loc": "p.py:5:16"}):
        for j in T.serial(32, annotations={"tl.loc": "p.py:5:16"}):
            S[i, j] = A_s[i, j] * m[0, j]
    T.tl.copy(S[0:32, 0:32], B[0:32, 0:32], "p.py:7:4")


def test_a_statement_wanting_the_other_orientation_uses_a_transposed_copy():
    """m[j] in the T.Parallel makes m a row; the reduction over dim 1 makes a column, so it writes a
    column copy (a clearing reduction does not read it) that is transposed into m after it."""
    assert_pass(LegalizeVectorsTT(), row_max_read_as_a_row, row_max_read_as_a_row_legalized)


@T.prim_func(private=True)
def row_copied_into_a_column(A: T.Buffer((2, 32), "float16"), X: T.Buffer((32, 32), "float32")):
    a_row = T.alloc_shared((32,), "float16")
    scale = T.alloc_buffer((32,), scope="local.fragment")
    x = T.alloc_buffer((32, 32), scope="local.fragment")
    T.tl.copy(A[1, 0:32], a_row[0:32], "p.py:3:4")
    T.tl.copy(a_row[0:32], scale[0:32], "p.py:4:4")
    for i in T.serial(32, annotations={"tl.loc": "p.py:5:16"}):
        for j in T.serial(32, annotations={"tl.loc": "p.py:5:16"}):
            x[i, j] = x[i, j] * scale[i]


@T.prim_func(private=True)
def row_copied_into_a_column_legalized(A: T.Buffer((2, 32), "float16"), X: T.Buffer((32, 32), "float32")):
    a_row = T.alloc_shared((1, 32), "float16")
    scale = T.alloc_buffer((32, 1), scope="local.fragment")
    x = T.alloc_buffer((32, 32), scope="local.fragment")
    T.tl.copy(A[1, 0:32], a_row[0:1, 0:32], "p.py:3:4")
    scale_row1 = T.alloc_buffer((1, 32), scope="local.fragment")
    T.tl.copy(a_row[0:1, 0:32], scale_row1[0:1, 0:32], "p.py:4:4")
    T.tl.transpose(scale_row1[0:1, 0:32], scale[0:32, 0:1], "p.py:4:4")
    for i in T.serial(32, annotations={"tl.loc": "p.py:5:16"}):
        for j in T.serial(32, annotations={"tl.loc": "p.py:5:16"}):
            x[i, j] = x[i, j] * scale[i, 0]


def test_a_copy_between_vectors_fixed_in_different_orientations_transposes():
    """A row of A copied into a_row makes it a row; scale[i] scaling rows makes scale a column: the copy
    writes a row copy of scale, transposed into scale after it (Mamba's chunk scan)."""
    assert_pass(LegalizeVectorsTT(), row_copied_into_a_column, row_copied_into_a_column_legalized)


@T.prim_func(private=True)
def shift_by_named_mean(X: T.Buffer((64, 64), "float32"), Mean: T.Buffer((64,), "float32")):
    bx = T.launch_thread("blockIdx.x", 2)
    x = T.alloc_buffer((1, 64), scope="local.fragment")
    for k in range(32):
        m_v: T.let[T.float32] = Mean[bx * 32 + k]
        for i in T.serial(1, annotations={"tl.loc": "p.py:7:20"}):
            for j in T.serial(64, annotations={"tl.loc": "p.py:7:20"}):
                x[i, j] = x[i, j] - m_v


@T.prim_func(private=True)
def shift_by_named_mean_legalized(X: T.Buffer((64, 64), "float32"), Mean: T.Buffer((64, 1), "float32")):
    T.func_attr({"tt.declared_shapes": {"Mean": [64]}})
    bx = T.launch_thread("blockIdx.x", 2)
    x = T.alloc_buffer((1, 64), scope="local.fragment")
    for k in range(32):
        m_v: T.let[T.float32] = Mean[bx * 32 + k, 0]
        for i in T.serial(1, annotations={"tl.loc": "p.py:7:20"}):
            for j in T.serial(64, annotations={"tl.loc": "p.py:7:20"}):
                x[i, j] = x[i, j] - m_v


def test_a_vector_read_into_named_values_is_a_column():
    """TileLang's LayerNorm backward reads each row's mean as ``m_v = Mean[row]``: as a column each value
    is a row of Mean's tiles, which a copy reads alone (row_copies.py)."""
    assert_pass(LegalizeVectorsTT(), shift_by_named_mean, shift_by_named_mean_legalized)


@T.prim_func(private=True)
def vector_total(a: T.Buffer((64,), "float32"), out: T.Buffer((1,), "float32")):
    v = T.alloc_buffer((64,), scope="local.fragment")
    total = T.alloc_buffer((1,), scope="local.fragment")
    T.tl.copy(a[0:64], v[0:64], "p.py:5:8")
    T.tl.reduce(v[0:64], total[0:1], "max", 0, 1, "p.py:6:8")
    T.tl.copy(total[0:1], out[0:1], "p.py:7:8")


@T.prim_func(private=True)
def vector_total_legalized(a: T.Buffer((1, 64), "float32"), out: T.Buffer((1, 1), "float32")):
    T.func_attr({"tt.declared_shapes": {"a": [64], "out": [1]}})
    v = T.alloc_buffer((1, 64), scope="local.fragment")
    total = T.alloc_buffer((1, 1), scope="local.fragment")
    T.tl.copy(a[0:1, 0:64], v[0:1, 0:64], "p.py:5:8")
    # the vector lies along a row: its reduction runs along dimension 1
    T.tl.reduce(v[0:1, 0:64], total[0:1, 0:1], "max", 1, 1, "p.py:6:8")
    T.tl.copy(total[0:1, 0:1], out[0:1, 0:1], "p.py:7:8")


def test_a_whole_vector_reduced_runs_along_the_dimension_it_lies_on():
    assert_pass(LegalizeVectorsTT(), vector_total, vector_total_legalized)
