"""SelectElementBranchesTT: an if around element stores becomes a select in each store."""

import pytest
import tilelang_tt.language as TL
from before_after import T, assert_pass
from programs import lower
from tilelang_tt.errors import TTCompileError
from tilelang_tt.passes import SelectElementBranchesTT


@T.prim_func(private=True)
def masked(A: T.Buffer((32, 32), "float32"), B: T.Buffer((32, 32), "float32")):
    a = T.alloc_buffer((32, 32), scope="local.fragment")
    b = T.alloc_buffer((32, 32), scope="local.fragment")
    for i in T.serial(32, annotations={"tl.loc": "p.py:4:20"}):
        for j in T.serial(32, annotations={"tl.loc": "p.py:4:20"}):
            if a[i, j] > T.float32(0):
                b[i, j] = a[i, j] * T.float32(2)
            else:
                b[i, j] = T.float32(0)
                a[i, j] = T.float32(1)


@T.prim_func(private=True)
def masked_selected(A: T.Buffer((32, 32), "float32"), B: T.Buffer((32, 32), "float32")):
    a = T.alloc_buffer((32, 32), scope="local.fragment")
    b = T.alloc_buffer((32, 32), scope="local.fragment")
    for i in T.serial(32, annotations={"tl.loc": "p.py:4:20"}):
        for j in T.serial(32, annotations={"tl.loc": "p.py:4:20"}):
            # each store keeps what the branch not taken leaves: the element's old value
            b[i, j] = T.if_then_else(a[i, j] > T.float32(0), a[i, j] * T.float32(2), b[i, j])
            b[i, j] = T.if_then_else(a[i, j] > T.float32(0), b[i, j], T.float32(0))
            a[i, j] = T.if_then_else(a[i, j] > T.float32(0), a[i, j], T.float32(1))


def test_branches_become_selects_in_order():
    assert_pass(SelectElementBranchesTT(), masked, masked_selected)


@T.prim_func(private=True)
def one_element(A: T.Buffer((32, 32), "float32"), B: T.Buffer((32, 32), "float32")):
    for i in T.serial(32, annotations={"tl.loc": "p.py:4:20"}):
        for j in T.serial(32, annotations={"tl.loc": "p.py:4:20"}):
            if i > 16 and i < 24:
                B[i, j] = A[i, j] * T.float32(2)
            else:
                B[i, j] = A[i, j] * T.float32(0.5)


@T.prim_func(private=True)
def one_element_selected(A: T.Buffer((32, 32), "float32"), B: T.Buffer((32, 32), "float32")):
    for i in T.serial(32, annotations={"tl.loc": "p.py:4:20"}):
        for j in T.serial(32, annotations={"tl.loc": "p.py:4:20"}):
            # one branch's value or the other's: the old value of B is not read
            B[i, j] = T.if_then_else(i > 16 and i < 24, A[i, j] * T.float32(2), A[i, j] * T.float32(0.5))


def test_branches_storing_the_same_elements_take_one_select():
    assert_pass(SelectElementBranchesTT(), one_element, one_element_selected)


@T.prim_func(private=True)
def guarded(A: T.Buffer((64, 64), "float32"), C: T.Buffer((64, 64), "float32")):
    bx = T.launch_thread("blockIdx.x", 2)
    for i in T.serial(32, annotations={"tl.serial_loc": "p.py:4:20"}):
        for j in T.serial(64, annotations={"tl.serial_loc": "p.py:4:20"}):
            row: T.let[T.int32] = bx * 32 + i
            if row < 64 and j < 64:
                C[row, j] = A[row, j] + T.float32(1)
            if i < j:
                C[row, j] = T.float32(0)


@T.prim_func(private=True)
def guarded_selected(A: T.Buffer((64, 64), "float32"), C: T.Buffer((64, 64), "float32")):
    bx = T.launch_thread("blockIdx.x", 2)
    for i in T.serial(32, annotations={"tl.serial_loc": "p.py:4:20"}):
        for j in T.serial(64, annotations={"tl.serial_loc": "p.py:4:20"}):
            # the bounds guard goes (a store past C's end is dropped); the mask is a select
            C[bx * 32 + i, j] = A[bx * 32 + i, j] + T.float32(1)
            C[bx * 32 + i, j] = T.if_then_else(i < j, T.float32(0), C[bx * 32 + i, j])


def test_bounds_guards_go_and_named_indices_are_substituted():
    assert_pass(SelectElementBranchesTT(), guarded, guarded_selected)


@TL.prim_func
def in_place_mask(A: TL.Tensor((32, 32), "float32"), B: TL.Tensor((32, 32), "float32")):
    with TL.Kernel(1) as bx:
        a = TL.alloc_fragment((32, 32), "float32")
        b = TL.alloc_fragment((32, 32), "float32")
        TL.copy(A[0, 0], a)
        TL.clear(b)
        for i, j in TL.Parallel(32, 32):
            if a[i, j] > 0:
                a[i, j] = a[i, j] * 2.0
                b[i, j] = a[i, j]
        TL.copy(b, B[0, 0])


def test_a_condition_on_what_an_earlier_store_changed_is_a_located_error():
    with pytest.raises(TTCompileError, match="whose condition reads a, which a store of its branches") as err:
        lower(in_place_mask, "SelectElementBranchesTT")
    assert err.value.filename == __file__, err.value
