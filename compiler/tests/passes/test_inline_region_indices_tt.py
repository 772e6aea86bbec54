"""InlineRegionIndicesTT: a named index in a tile region is replaced by what it names."""

from before_after import T, assert_pass
from tilelang_tt.passes import InlineRegionIndicesTT


@T.prim_func(private=True)
def named_offsets(A: T.Buffer((64, 64), "float32"), C: T.Buffer((64, 64), "float32")):
    bx = T.launch_thread("blockIdx.x", 2)
    by = T.launch_thread("blockIdx.y", 2)
    a = T.alloc_buffer((32, 32), scope="local.fragment")
    row: T.let[T.int32] = by * 32
    col: T.let[T.int32] = bx * 32
    last: T.let[T.int32] = row + 31  # a name of names
    T.tl.copy(A[row : row + 32, col : col + 32], a[0:32, 0:32], "p.py:9:8")
    T.tl.copy(a[0:32, 0:32], C[last - 31 : last + 1, col : col + 32], "p.py:10:8")


@T.prim_func(private=True)
def offsets_inlined(A: T.Buffer((64, 64), "float32"), C: T.Buffer((64, 64), "float32")):
    bx = T.launch_thread("blockIdx.x", 2)
    by = T.launch_thread("blockIdx.y", 2)
    a = T.alloc_buffer((32, 32), scope="local.fragment")
    row: T.let[T.int32] = by * 32
    col: T.let[T.int32] = bx * 32
    last: T.let[T.int32] = row + 31
    T.tl.copy(A[by * 32 : by * 32 + 32, bx * 32 : bx * 32 + 32], a[0:32, 0:32], "p.py:9:8")
    T.tl.copy(a[0:32, 0:32], C[by * 32 + 31 - 31 : by * 32 + 31 + 1, bx * 32 : bx * 32 + 32], "p.py:10:8")


def test_named_offsets_before_expected():
    """The regions take the expressions (through a name of names); the names stay."""
    assert_pass(InlineRegionIndicesTT(), named_offsets, offsets_inlined)
