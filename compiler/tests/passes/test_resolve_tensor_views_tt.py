"""ResolveTensorViewsTT: a parameter indexed through a reshaped view takes the view's shape."""

import pytest
import tilelang_tt.language as TL
from before_after import T, assert_pass
from programs import lower
from tilelang_tt.errors import TTCompileError
from tilelang_tt.passes import ResolveTensorViewsTT


@T.prim_func(private=True)
def batched_copy_through_views(A: T.Buffer((64, 64), "float32"), B: T.Buffer((64, 64), "float32")):
    bx = T.launch_thread("blockIdx.x", 2)
    A3 = A.view(2, 32, 64)
    B3 = B.view(2, 32, 64)
    S = T.alloc_shared((32, 64))
    T.tl.copy(A3[bx, 0:32, 0:64], S[0:32, 0:64], "p.py:9:8")
    for i in T.serial(32, annotations={"tl.loc": "p.py:10:20"}):
        for j in T.serial(64, annotations={"tl.loc": "p.py:10:20"}):
            B3[bx, i, j] = S[i, j] * T.float32(2)


@T.prim_func(private=True)
def batched_copy_resolved(A: T.Buffer((2, 32, 64), "float32"), B: T.Buffer((2, 32, 64), "float32")):
    T.func_attr({"tt.declared_shapes": {"A": [64, 64], "B": [64, 64]}})
    bx = T.launch_thread("blockIdx.x", 2)
    S = T.alloc_shared((32, 64))
    T.tl.copy(A[bx, 0:32, 0:64], S[0:32, 0:64], "p.py:9:8")
    for i in T.serial(32, annotations={"tl.loc": "p.py:10:20"}):
        for j in T.serial(64, annotations={"tl.loc": "p.py:10:20"}):
            B[bx, i, j] = S[i, j] * T.float32(2)


def test_views_become_the_parameters_shapes():
    assert_pass(ResolveTensorViewsTT(), batched_copy_through_views, batched_copy_resolved)


@TL.prim_func
def used_both_ways(A: TL.Tensor((64, 64), "float32"), B: TL.Tensor((64, 64), "float32")):
    with TL.Kernel(2) as bx:
        A3 = TL.Tensor((2, 32, 64), "float32", A.data)
        S = TL.alloc_shared((32, 64), "float32")
        TL.copy(A3[bx, 0, 0], S)
        TL.copy(A[bx * 32, 0], S)
        TL.copy(S, B[bx * 32, 0])


@TL.prim_func
def two_views(A: TL.Tensor((64, 64), "float32"), B: TL.Tensor((64, 64), "float32")):
    with TL.Kernel(2) as bx:
        A3 = TL.Tensor((2, 32, 64), "float32", A.data)
        A4 = TL.Tensor((4, 16, 64), "float32", A.data)
        S = TL.alloc_shared((32, 64), "float32")
        TL.copy(A3[bx, 0, 0], S)
        TL.copy(A4[bx, 0, 0], S)
        TL.copy(S, B[bx * 32, 0])


@TL.prim_func
def not_a_reshape(A: TL.Tensor((64, 64), "float32"), B: TL.Tensor((64, 64), "float32")):
    with TL.Kernel(2) as bx:
        A3 = TL.Tensor((2, 32, 32), "float32", A.data)
        S = TL.alloc_shared((32, 32), "float32")
        TL.copy(A3[bx, 0, 0], S)
        TL.copy(S, B[bx * 32, 0])


@pytest.mark.parametrize(
    "program, message, statement",
    [
        (used_both_ways, r"A is used both as \(64, 64\) and through its view A3 \(2, 32, 64\)", "A3[bx"),
        (two_views, r"A has two views \(A3 and A4\)", "A4[bx"),
        (
            not_a_reshape,
            r"view A3 \(2, 32, 32\) float32 of A \(64, 64\) float32 does not hold the same",
            "A3[bx",
        ),
    ],
)
def test_views_that_cannot_be_the_tensors_layout_are_located_errors(program, message, statement):
    with pytest.raises(TTCompileError, match=message) as err:
        lower(program, "ResolveTensorViewsTT")
    quoted = str(err.value).splitlines()[1]
    assert "TL.copy(" + statement in quoted, f"the error should quote the view's first use:\n{err.value}"
