"""VectorizeElementLoopsTT: scalar loop nests of element statements become tile statements."""

from before_after import T, assert_pass
from tilelang_tt.passes import VectorizeElementLoopsTT


@T.prim_func(private=True)
def scalar_add(A: T.Buffer((32, 32), "float32"), C: T.Buffer((32, 32), "float32")):
    A_t = T.alloc_buffer((32, 32), scope="local.fragment")
    C_t = T.alloc_buffer((32, 32), scope="local.fragment")
    T.tl.copy(A[0:32, 0:32], A_t[0:32, 0:32], "p.py:5:8")
    for i in T.serial(32, annotations={"tl.serial_loc": "p.py:6:8"}):
        for j in T.serial(32, annotations={"tl.serial_loc": "p.py:6:8"}):
            C_t[i, j] = A_t[i, j] + T.float32(1)
    T.tl.copy(C_t[0:32, 0:32], C[0:32, 0:32], "p.py:8:8")


@T.prim_func(private=True)
def scalar_add_vectorized(A: T.Buffer((32, 32), "float32"), C: T.Buffer((32, 32), "float32")):
    A_t = T.alloc_buffer((32, 32), scope="local.fragment")
    C_t = T.alloc_buffer((32, 32), scope="local.fragment")
    T.tl.copy(A[0:32, 0:32], A_t[0:32, 0:32], "p.py:5:8")
    # every element independent: the nest is a T.Parallel nest at the T.grid's line
    for i in T.serial(32, annotations={"tl.loc": "p.py:6:8"}):
        for j in T.serial(32, annotations={"tl.loc": "p.py:6:8"}):
            C_t[i, j] = A_t[i, j] + T.float32(1)
    T.tl.copy(C_t[0:32, 0:32], C[0:32, 0:32], "p.py:8:8")


def test_an_element_wise_nest_becomes_a_parallel_nest():
    assert_pass(VectorizeElementLoopsTT(), scalar_add, scalar_add_vectorized)


@T.prim_func(private=True)
def row_sums(A: T.Buffer((32, 64), "float16"), x: T.Buffer((64,), "float16")):
    A_t = T.alloc_buffer((32, 64), "float16", scope="local.fragment")
    x_t = T.alloc_buffer((64,), "float16", scope="local.fragment")
    y = T.alloc_buffer((32,), "float16", scope="local.fragment")
    for i in T.serial(32, annotations={"tl.serial_loc": "p.py:9:8"}):
        for j in T.serial(64, annotations={"tl.serial_loc": "p.py:9:8"}):
            y[i] = y[i] + A_t[i, j] * x_t[j]


@T.prim_func(private=True)
def row_sums_vectorized(A: T.Buffer((32, 64), "float16"), x: T.Buffer((64,), "float16")):
    A_t = T.alloc_buffer((32, 64), "float16", scope="local.fragment")
    x_t = T.alloc_buffer((64,), "float16", scope="local.fragment")
    y = T.alloc_buffer((32,), "float16", scope="local.fragment")
    # the terms as a float32 tile, summed along each row, added to y
    y_terms = T.alloc_buffer((32, 64), scope="local.fragment")
    y_sum = T.alloc_buffer((32,), scope="local.fragment")
    for i in T.serial(32, annotations={"tl.loc": "p.py:9:8"}):
        for j in T.serial(64, annotations={"tl.loc": "p.py:9:8"}):
            y_terms[i, j] = T.Cast("float32", A_t[i, j] * x_t[j])
    T.tl.reduce(y_terms[0:32, 0:64], y_sum[0:32], "sum", 1, 1, "p.py:9:8")
    for i in T.serial(32, annotations={"tl.loc": "p.py:9:8"}):
        y[i] = y[i] + T.Cast("float16", y_sum[i])


def test_a_sum_over_the_inner_loop_becomes_a_row_sum():
    assert_pass(VectorizeElementLoopsTT(), row_sums, row_sums_vectorized)


@T.prim_func(private=True)
def prefix_sum(x: T.Buffer((32,), "float32")):
    s = T.alloc_buffer((32,), scope="local.fragment")
    for i in T.serial(31, annotations={"tl.serial_loc": "p.py:4:8"}):
        s[i + 1] = s[i] + x[i]


def test_a_loop_carried_value_is_left_sequential():
    assert_pass(VectorizeElementLoopsTT(), prefix_sum, prefix_sum)


@T.prim_func(private=True)
def scalar_total(v: T.Buffer((64,), "float32")):
    v_t = T.alloc_buffer((64,), scope="local.fragment")
    acc = T.alloc_buffer((1,), scope="local")
    acc[0] = T.float32(0)
    for k in T.serial(64, annotations={"tl.serial_loc": "p.py:6:8"}):
        acc[0] = acc[0] + v_t[k]


@T.prim_func(private=True)
def scalar_total_vectorized(v: T.Buffer((64,), "float32")):
    v_t = T.alloc_buffer((64,), scope="local.fragment")
    acc = T.alloc_buffer((1,), scope="local")
    # a scalar is a one-element tile: its stores are element statements of a one-element T.Parallel
    for one in T.serial(1, annotations={"tl.loc": ""}):
        acc[one] = T.float32(0)
    # a sum over one loop: the terms as a row, its sum, added
    acc_terms = T.alloc_buffer((1, 64), scope="local.fragment")
    acc_sum = T.alloc_buffer((1, 1), scope="local.fragment")
    for k in T.serial(64, annotations={"tl.loc": "p.py:6:8"}):
        acc_terms[0, k] = v_t[k]
    T.tl.reduce(acc_terms[0:1, 0:64], acc_sum[0:1, 0:1], "sum", 1, 1, "p.py:6:8")
    for one in T.serial(1, annotations={"tl.loc": "p.py:6:8"}):
        acc[one] = acc[0] + acc_sum[0, 0]


def test_a_loop_carried_scalar_becomes_a_one_element_tile_and_its_sum_a_row_sum():
    assert_pass(VectorizeElementLoopsTT(), scalar_total, scalar_total_vectorized)


@T.prim_func(private=True)
def row_maxima(A: T.Buffer((32, 64), "float32")):
    A_t = T.alloc_buffer((32, 64), scope="local.fragment")
    y = T.alloc_buffer((32,), scope="local.fragment")
    for i in T.serial(32, annotations={"tl.loc": "p.py:9:8"}):
        for j in T.serial(64, annotations={"tl.loc": "p.py:9:8"}):
            y[i] = T.max(y[i], A_t[i, j])


@T.prim_func(private=True)
def row_maxima_vectorized(A: T.Buffer((32, 64), "float32")):
    A_t = T.alloc_buffer((32, 64), scope="local.fragment")
    y = T.alloc_buffer((32,), scope="local.fragment")
    # a max reducer: the terms' row maxima, combined into y by a max
    y_terms = T.alloc_buffer((32, 64), scope="local.fragment")
    y_sum = T.alloc_buffer((32,), scope="local.fragment")
    for i in T.serial(32, annotations={"tl.loc": "p.py:9:8"}):
        for j in T.serial(64, annotations={"tl.loc": "p.py:9:8"}):
            y_terms[i, j] = A_t[i, j]
    T.tl.reduce(y_terms[0:32, 0:64], y_sum[0:32], "max", 1, 1, "p.py:9:8")
    for i in T.serial(32, annotations={"tl.loc": "p.py:9:8"}):
        y[i] = T.max(y[i], y_sum[i])


def test_a_max_over_the_inner_loop_becomes_a_row_maximum():
    assert_pass(VectorizeElementLoopsTT(), row_maxima, row_maxima_vectorized)


@T.prim_func(private=True)
def one_element_stored(A: T.Buffer((1,), "float32")):
    total = T.alloc_buffer((1,), scope="local")
    A[0] = total[0]


@T.prim_func(private=True)
def one_element_stored_vectorized(A: T.Buffer((1,), "float32")):
    total = T.alloc_buffer((1,), scope="local")
    # one element of a tensor outside any loop: a one-element T.Parallel nest, its index start + loop
    for one0 in T.serial(1, annotations={"tl.loc": "p.py:1:0"}):
        A[0 + one0] = total[0]


def test_one_element_of_a_tensor_outside_any_loop_becomes_a_one_element_nest():
    func = one_element_stored.with_attr("tl.def_loc", "p.py:1:0")
    expected = one_element_stored_vectorized.with_attr("tl.def_loc", "p.py:1:0")
    assert_pass(VectorizeElementLoopsTT(), func, expected)


@T.prim_func(private=True)
def first_columns_set(C: T.Buffer((32, 64), "float32")):
    r = T.alloc_buffer((32, 1), scope="local.fragment")
    y = T.alloc_buffer((32, 64), scope="local.fragment")
    for k in T.serial(4, annotations={"tl.serial_loc": "p.py:4:8"}):
        for i in T.serial(32, annotations={"tl.loc": "p.py:5:12"}):
            y[i, k] = r[i, 0] + T.float32(1)


def test_a_loop_over_fewer_columns_than_it_stores_into_stays_a_loop():
    """k spans 4 of y's 64 columns: joined to the T.Parallel nest it would store a (4, 32) range into
    (32, 64) transposed; as a loop, each step sets one column (LowerTileProgramTT's column store)."""
    assert_pass(VectorizeElementLoopsTT(), first_columns_set, first_columns_set)
