"""VectorizeThreadsTT: SIMT code becomes loops over the threads, thread-local values vectors."""

import pytest
import tilelang_tt.language as TL
from before_after import T, assert_pass
from programs import lower
from tilelang_tt.errors import TTCompileError
from tilelang_tt.passes import VectorizeThreadsTT


@T.prim_func(private=True)
def per_thread_dot(
    A: T.Buffer((64,), "float32"), B: T.Buffer((128, 64), "float32"), C: T.Buffer((128,), "float32")
):
    bn = T.launch_thread("blockIdx.x", 1)
    tn = T.launch_thread("threadIdx.x", 128)
    A_s = T.alloc_shared((64,))
    B_s = T.alloc_shared((128, 64))
    acc = T.alloc_buffer((1,), scope="local")
    T.tl.fill(acc[0:1], T.float32(0), "p.py:8:8")
    for k in T.serial(64, annotations={"tl.serial_loc": "p.py:9:8"}):
        A_s[k] = A[k]
        B_s[tn, k] = B[tn, k]
    for k in T.serial(64, annotations={"tl.serial_loc": "p.py:12:8"}):
        acc[0] = acc[0] + A_s[k] * B_s[tn, k]
    C[tn] = acc[0]


@T.prim_func(private=True)
def per_thread_dot_vectorized(
    A: T.Buffer((64,), "float32"), B: T.Buffer((128, 64), "float32"), C: T.Buffer((128,), "float32")
):
    bn = T.launch_thread("blockIdx.x", 1)
    A_s = T.alloc_shared((64,))
    B_s = T.alloc_shared((128, 64))
    # one accumulator per thread
    acc = T.alloc_buffer((128,), scope="local")
    T.tl.fill(acc[0:128], T.float32(0), "p.py:8:8")
    # what every thread loads alike, once; what each thread loads, in a loop over the threads
    for k in T.serial(64, annotations={"tl.serial_loc": "p.py:9:8"}):
        A_s[k] = A[k]
    for tn in T.serial(128, annotations={"tl.serial_loc": "p.py:9:8"}):
        for k in T.serial(64, annotations={"tl.serial_loc": "p.py:9:8"}):
            B_s[tn, k] = B[tn, k]
    for tn in T.serial(128, annotations={"tl.serial_loc": "p.py:12:8"}):
        for k in T.serial(64, annotations={"tl.serial_loc": "p.py:12:8"}):
            acc[tn] = acc[tn] + A_s[k] * B_s[tn, k]
    for tn in range(128):
        C[tn] = acc[tn]


def test_each_threads_statements_become_loops_over_the_threads():
    assert_pass(VectorizeThreadsTT(), per_thread_dot, per_thread_dot_vectorized)


@TL.prim_func
def per_thread_copy(A: TL.Tensor((128, 32), "float32"), C: TL.Tensor((128, 32), "float32")):
    with TL.Kernel(1) as bx:
        tn = TL.get_thread_binding(0)
        row = TL.alloc_shared((1, 32), "float32")
        TL.copy(A[tn, 0], row)
        TL.copy(row, C[tn, 0])


def test_a_per_thread_tile_operation_is_a_located_error():
    with pytest.raises(
        TTCompileError, match="depends on the thread index .tn. and is not a store of elements"
    ):
        lower(per_thread_copy, "VectorizeThreadsTT")
