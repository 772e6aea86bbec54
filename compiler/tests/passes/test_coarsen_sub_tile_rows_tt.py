"""CoarsenSubTileRowsTT: grid points whose blocks are narrower than a tile share one core's tiles."""

import pytest
import tilelang_tt.language as TL
from before_after import T, assert_pass
from programs import lower
from tilelang_tt.errors import TTCompileError
from tilelang_tt.passes import CoarsenSubTileRowsTT


@T.prim_func(private=True)
def row_per_point(A: T.Buffer((64, 64), "float32"), B: T.Buffer((64,), "float32")):
    bx = T.launch_thread("blockIdx.x", 64)
    x = T.alloc_buffer((1, 64), scope="local.fragment")
    s = T.alloc_buffer((1,), scope="local.fragment")
    T.tl.copy(A[bx : bx + 1, 0:64], x[0:1, 0:64], "p.py:5:8")
    T.tl.reduce(x[0:1, 0:64], s[0:1], "sum", 1, True, "p.py:6:8")
    for i in T.serial(1, annotations={"tl.loc": "p.py:7:8"}):
        B[bx + i] = s[i] * T.float32(2)


@T.prim_func(private=True)
def tile_of_rows_per_point(A: T.Buffer((64, 64), "float32"), B: T.Buffer((64,), "float32")):
    # 32 consecutive points (bx * 32 + r) are one: their rows fill the tiles, each row still its own
    bx = T.launch_thread("blockIdx.x", 2)
    x = T.alloc_buffer((32, 64), scope="local.fragment")
    s = T.alloc_buffer((32,), scope="local.fragment")
    T.tl.copy(A[bx * 32 : bx * 32 + 32, 0:64], x[0:32, 0:64], "p.py:5:8")
    T.tl.reduce(x[0:32, 0:64], s[0:32], "sum", 1, True, "p.py:6:8")
    for i in T.serial(32, annotations={"tl.loc": "p.py:7:8"}):
        B[bx * 32 + i] = s[i] * T.float32(2)


def test_one_row_per_point_becomes_a_tile_of_rows_per_core():
    assert_pass(CoarsenSubTileRowsTT(), row_per_point, tile_of_rows_per_point)


@TL.prim_func
def reduce_across_rows(A: TL.Tensor((64, 64), "float32"), B: TL.Tensor((64, 64), "float32")):
    with TL.Kernel(64) as bx:
        x = TL.alloc_fragment((1, 64), "float32")
        s = TL.alloc_fragment((64,), "float32")
        TL.copy(A[bx, 0], x)
        TL.reduce_sum(x, s, dim=0)
        TL.copy(x, B[bx, 0])


@TL.prim_func
def per_point_gemm_operand(A: TL.Tensor((64, 32), "float32"), C: TL.Tensor((64, 32), "float32")):
    with TL.Kernel(64) as bx:
        a = TL.alloc_shared((1, 32), "float32")
        b = TL.alloc_shared((1, 32), "float32")
        c = TL.alloc_fragment((1, 32), "float32")
        TL.copy(A[bx, 0], a)
        TL.copy(A[bx, 0], b)
        TL.clear(c)
        TL.gemm(a, b, c, transpose_B=True)
        TL.copy(c, C[bx, 0])


@pytest.mark.parametrize(
    "program, message",
    [
        (reduce_across_rows, "a reduction across the rows of blocks narrower than a tile"),
        (per_point_gemm_operand, "T.gemm with a B operand of the block's own rows"),
    ],
)
def test_what_would_mix_the_rows_of_points_is_a_located_error(program, message):
    with pytest.raises(TTCompileError, match=message) as err:
        lower(program, "CoarsenSubTileRowsTT")
    assert err.value.filename == __file__, err.value
