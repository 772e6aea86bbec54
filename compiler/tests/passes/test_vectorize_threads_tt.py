"""VectorizeThreadsTT: SIMT code becomes loops over the threads, thread-local values vectors."""

import pytest
import tilelang_tt.language as TL
import tvm
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


@T.prim_func(private=True)
def split_k_threads(
    A: T.Buffer((64,), "float32"), B: T.Buffer((32, 64), "float32"), C: T.Buffer((32,), "float32")
):
    """TileLang's SIMT split-K GEMV after the front end and SerializeSplitKTT: threads (tn, tk), one value
    of A and B per thread and step (named values), the shared sums zeroed by one thread per row."""
    bn = T.launch_thread("blockIdx.x", 1)
    tn = T.launch_thread("threadIdx.x", 32)
    tk = T.launch_thread("threadIdx.y", 32)
    C_shared = T.alloc_shared((32,))
    acc = T.alloc_buffer((1,), scope="local")
    if tk == 0:
        C_shared[tn] = T.float32(0)
    T.tl.fill(acc[0:1], T.float32(0), "p.py:8:8")
    for bk in T.serial(2, annotations={"tl.serial_loc": "p.py:9:8"}):
        a = T.bind(A[bk * 32 + tk])
        b = T.bind(B[tn, bk * 32 + tk])
        acc[0] = acc[0] + a * b
    C_shared[tn] = C_shared[tn] + acc[0]
    C[tn] = C_shared[tn]


@T.prim_func(private=True)
def split_k_threads_vectorized(
    A: T.Buffer((64,), "float32"), B: T.Buffer((32, 64), "float32"), C: T.Buffer((32,), "float32")
):
    bn = T.launch_thread("blockIdx.x", 1)
    C_shared = T.alloc_shared((32,))
    acc = T.alloc_buffer((32, 32), scope="local")
    # one thread of each row zeroes it: done once per row
    for tn in range(32):
        C_shared[tn] = T.float32(0)
    T.tl.fill(acc[0:32, 0:32], T.float32(0), "p.py:8:8")
    # two thread indices fill the tile: the step loop stays outside, each step one tile statement
    for bk in T.serial(2, annotations={"tl.serial_loc": "p.py:9:8"}):
        for tn in T.serial(32, annotations={"tl.serial_loc": "p.py:9:8"}):
            for tk in T.serial(32, annotations={"tl.serial_loc": "p.py:9:8"}):
                acc[tn, tk] = acc[tn, tk] + A[bk * 32 + tk] * B[tn, bk * 32 + tk]
    # every thread adds its partial sum: a sum over tk
    for tn in range(32):
        for tk in range(32):
            C_shared[tn] = C_shared[tn] + acc[tn, tk]
    for tn in range(32):
        C[tn] = C_shared[tn]


def test_split_k_threads_fill_the_tile_and_add_their_partial_sums():
    assert_pass(VectorizeThreadsTT(), split_k_threads, split_k_threads_vectorized)


@T.prim_func(private=True)
def per_thread_call_in_a_loop(A: T.Buffer((32,), "float32")):
    bn = T.launch_thread("blockIdx.x", 1)
    tn = T.launch_thread("threadIdx.x", 32)
    for k in T.serial(4, annotations={"tl.serial_loc": "p.py:9:8"}):
        T.evaluate(T.call_extern("int32", "per_thread", tn, k))


def test_a_per_thread_statement_without_a_line_is_located_at_its_loop():
    with pytest.raises(TTCompileError, match="depends on the thread index") as err:
        VectorizeThreadsTT()(tvm.IRModule({"main": per_thread_call_in_a_loop}))
    assert (err.value.filename, err.value.lineno) == ("p.py", 9), str(err.value)


@T.prim_func(private=True)
def producer_threads(A: T.Buffer((64, 64), "float32"), B: T.Buffer((64, 64), "float32")):
    """TileLang's warp-specialised copy (test_tilelang_language_mask_op.py): the thread index is asked for
    below the allocation, and the copy in is the first half of the threads' work."""
    bx = T.launch_thread("blockIdx.x", 1)
    A_shared = T.alloc_shared((64, 64))
    with T.launch_thread("threadIdx.x", 256) as tx:
        if tx >= 128 and tx < 256:
            T.tl.copy(A[0:64, 0:64], A_shared[0:64, 0:64], "p.py:7:12")
        T.tl.copy(A_shared[0:64, 0:64], B[0:64, 0:64], "p.py:8:8")


@T.prim_func(private=True)
def producer_threads_vectorized(A: T.Buffer((64, 64), "float32"), B: T.Buffer((64, 64), "float32")):
    bx = T.launch_thread("blockIdx.x", 1)
    A_shared = T.alloc_shared((64, 64))
    # the threads that take the branch share one block-wide copy: it is done once
    T.tl.copy(A[0:64, 0:64], A_shared[0:64, 0:64], "p.py:7:12")
    T.tl.copy(A_shared[0:64, 0:64], B[0:64, 0:64], "p.py:8:8")


def test_a_tile_statement_some_threads_take_is_done_once():
    assert_pass(VectorizeThreadsTT(), producer_threads, producer_threads_vectorized)


@T.prim_func(private=True)
def scalar_work_of_several_threads(A: T.Buffer((32,), "float32"), C: T.Buffer((32,), "float32")):
    bn = T.launch_thread("blockIdx.x", 1)
    tn = T.launch_thread("threadIdx.x", 32)
    count = T.alloc_shared((1,))
    count[0] = T.float32(0)
    if tn < 4:  # four threads each add one: not the same as doing it once
        count[0] = count[0] + T.float32(1)
    C[tn] = A[tn] + count[0]


def test_a_scalar_statement_several_threads_take_is_a_located_error():
    with pytest.raises(TTCompileError, match="depends on the thread index .tn."):
        VectorizeThreadsTT()(tvm.IRModule({"main": scalar_work_of_several_threads}))
