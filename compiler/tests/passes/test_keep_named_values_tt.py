"""KeepNamedValuesTT: a value named in an element loop keeps the value it had when it was named."""

from before_after import T, assert_pass
from tilelang_tt.passes import KeepNamedValuesTT


@T.prim_func(private=True)
def doubled_then_stored(X: T.Buffer((32, 32), "float32"), Y: T.Buffer((32, 32), "float32")):
    x = T.alloc_buffer((32, 32), scope="local.fragment")
    y = T.alloc_buffer((32, 32), scope="local.fragment")
    for i in T.serial(32, annotations={"tl.loc": "p.py:4:20"}):
        for j in T.serial(32, annotations={"tl.loc": "p.py:4:20"}):
            v: T.let[T.float32] = x[i, j] * T.float32(2)
            w: T.let[T.float32] = y[i, j] + T.float32(1)
            x[i, j] = v
            y[i, j] = v + w


@T.prim_func(private=True)
def doubled_then_stored_kept(X: T.Buffer((32, 32), "float32"), Y: T.Buffer((32, 32), "float32")):
    x = T.alloc_buffer((32, 32), scope="local.fragment")
    y = T.alloc_buffer((32, 32), scope="local.fragment")
    # v is used after x, which it reads, is stored: it keeps its value in a fragment; w reads y, which
    # is stored after its last use, and stays a name
    v_kept = T.alloc_buffer((32, 32), scope="local.fragment")
    for i in T.serial(32, annotations={"tl.loc": "p.py:4:20"}):
        for j in T.serial(32, annotations={"tl.loc": "p.py:4:20"}):
            v_kept[i, j] = x[i, j] * T.float32(2)
            w: T.let[T.float32] = y[i, j] + T.float32(1)
            x[i, j] = v_kept[i, j]
            y[i, j] = v_kept[i, j] + w


def test_a_name_used_after_a_store_it_reads_keeps_its_value_in_a_fragment():
    assert_pass(KeepNamedValuesTT(), doubled_then_stored, doubled_then_stored_kept)


@T.prim_func(private=True)
def used_before_the_store(X: T.Buffer((32, 32), "float32")):
    x = T.alloc_buffer((32, 32), scope="local.fragment")
    for i in T.serial(32, annotations={"tl.loc": "p.py:4:20"}):
        for j in T.serial(32, annotations={"tl.loc": "p.py:4:20"}):
            v: T.let[T.float32] = x[i, j] * T.float32(2)
            x[i, j] = v + T.float32(1)


def test_a_name_last_used_by_the_store_stays_a_name():
    assert_pass(KeepNamedValuesTT(), used_before_the_store, used_before_the_store)
