"""Dtype objects: strings that compare equal to their names, TileLang's aliases, values when called, and
accepted wherever the DSL takes a dtype."""

import ml_dtypes
import numpy as np
import pytest
import tilelang_tt.language as T
from tilelang_tt.dtypes import canonical
from tvm import tirx


@pytest.mark.parametrize(
    "spelling, name",
    [
        (T.float16, "float16"),
        (T.bfloat16, "bfloat16"),
        (T.float, "float32"),
        (T.half, "float16"),
        (T.int, "int32"),
        ("float", "float32"),
        (float, "float32"),
        (np.float16, "float16"),
        (np.dtype(ml_dtypes.bfloat16), "bfloat16"),
        (T.dtype("float"), "float32"),
    ],
)
def test_spellings_are_canonical(spelling, name):
    assert canonical(spelling) == name


def test_objects_are_strings():
    assert T.float16 == "float16" and T.float == T.float32 and hash(T.float32) == hash("float32")


def test_calling_builds_values():
    zero = T.float32(0)
    assert isinstance(zero, tirx.FloatImm) and str(zero.ty) == "float32" and float(zero.value) == 0.0
    assert isinstance(T.int32(), tirx.Var) and str(T.int32().ty) == "int32"


def test_not_a_dtype_is_a_type_error():
    with pytest.raises(TypeError, match="is not a dtype"):
        canonical(3.5)


@T.prim_func
def object_dtypes(A: T.Tensor((64, 64), T.bfloat16), C: T.Tensor((64, 64), T.float)):
    with T.Kernel(1, 1) as (bx, by):
        A_s = T.alloc_shared((64, 64), T.bfloat16, scope="shared.dyn")
        C_f = T.alloc_fragment((64, 64), T.float)
        T.copy(A[0, 0], A_s)
        T.clear(C_f)
        T.copy(C_f, C[0, 0])


def test_buffers_take_dtype_objects():
    assert [str(p.dtype) for p in object_dtypes.params] == ["bfloat16", "float32"]


@pytest.mark.parametrize(
    "dtype, name",
    [
        (T.float16, "float16"),
        (T.bfloat16, "bfloat16"),
        (T.float, "float32"),
        (T.int32, "int32"),
        (T.bool, "bool"),
    ],
)
def test_as_torch_gives_the_torch_dtype(dtype, name):
    import torch  # the lock pins a CPU build: never skipped

    assert dtype.as_torch() is getattr(torch, name)


def test_torch_dtypes_are_canonical():
    """TileLang takes torch dtypes wherever it takes a dtype (upstream's block_causal_attention passes
    dtype=torch.float16 through to T.Tensor)."""
    import torch

    spellings = (torch.float16, torch.half, torch.bfloat16, torch.float32, torch.int32, torch.bool)
    assert [canonical(d) for d in spellings] == ["float16", "float16", "bfloat16", "float32", "int32", "bool"]
