"""SerializeSplitKTT: grid points that T.atomic_add into the same output take turns on one core."""

import pytest
import tilelang_tt.language as TL
import tvm_ffi
from before_after import T, assert_pass
from programs import heads_added_per_group, lower, scaled_and_column_sums
from tilelang_tt.errors import TTCompileError
from tilelang_tt.passes import SerializeSplitKTT
from tvm import tirx


@T.prim_func(private=True)
def split_k(A: T.Buffer((64, 128), "float32"), C: T.Buffer((64, 32), "float32")):
    bx = T.launch_thread("blockIdx.x", 1)
    by = T.launch_thread("blockIdx.y", 2)
    bz = T.launch_thread("blockIdx.z", 2)
    C_local = T.alloc_buffer((32, 32), scope="local.fragment")
    T.tl.copy(A[by * 32 : by * 32 + 32, bz * 64 : bz * 64 + 32], C_local[0:32, 0:32], "p.py:7:8")
    for i in T.serial(32, annotations={"tl.loc": "p.py:8:20"}):
        for j in T.serial(32, annotations={"tl.loc": "p.py:8:20"}):
            T.tl.atomic_add(C[by * 32 + i, j], C_local[i, j], "p.py:9:12")


@T.prim_func(private=True)
def split_k_serialized(A: T.Buffer((64, 128), "float32"), C: T.Buffer((64, 32), "float32")):
    bx = T.launch_thread("blockIdx.x", 1)
    by = T.launch_thread("blockIdx.y", 2)
    # bz selects no output element: the split axis, now a loop; the slices' blocks add up in L1
    C_partials = T.alloc_buffer((32, 32), scope="local.fragment")
    T.tl.fill(C_partials[0:32, 0:32], T.float32(0), "p.py:9:12")
    for bz in range(2):
        C_local = T.alloc_buffer((32, 32), scope="local.fragment")
        T.tl.copy(A[by * 32 : by * 32 + 32, bz * 64 : bz * 64 + 32], C_local[0:32, 0:32], "p.py:7:8")
        for i in T.serial(32, annotations={"tl.loc": "p.py:8:20"}):
            for j in T.serial(32, annotations={"tl.loc": "p.py:8:20"}):
                C_partials[i, j] = C_partials[i, j] + C_local[i, j]
    # then the output block is added to once
    C_block = T.alloc_buffer((32, 32), scope="local.fragment")
    T.tl.copy(C[by * 32 : by * 32 + 32, 0:32], C_block[0:32, 0:32], "p.py:9:12")
    for i in T.serial(32, annotations={"tl.loc": "p.py:8:20"}):
        for j in T.serial(32, annotations={"tl.loc": "p.py:8:20"}):
            C_block[i, j] = C_block[i, j] + C_partials[i, j]
    T.tl.copy(C_block[0:32, 0:32], C[by * 32 : by * 32 + 32, 0:32], "p.py:9:12")


def test_the_split_axis_becomes_a_loop_accumulating_in_l1():
    assert_pass(SerializeSplitKTT(), split_k, split_k_serialized)


@TL.prim_func
def atomic_outside_parallel(A: TL.Tensor((32, 32), "float32"), C: TL.Tensor((32, 32), "float32")):
    with TL.Kernel(1, 1, 2) as (bx, by, bz):
        TL.atomic_add(C[0, 0], A[bz, 0])


def moving_with_the_loop(atomic):
    """A kernel whose atomic into C moves a block per step of its loop over k."""

    @TL.prim_func
    def program(A: TL.Tensor((64, 32), "float32"), C: TL.Tensor((64, 32), "float32")):
        with TL.Kernel(1, 2) as (bx, by):
            A_s = TL.alloc_fragment((32, 32), "float32")
            for k in TL.serial(2):
                TL.copy(A[k * 32, 0], A_s)
                for i, j in TL.Parallel(32, 32):
                    atomic(C[k * 32 + i, j], A_s[i, j])

    return program


@TL.prim_func
def max_and_add_into_one_tensor(A: TL.Tensor((32, 32), "float32"), C: TL.Tensor((32, 32), "float32")):
    with TL.Kernel(1, 2) as (bx, bz):
        A_s = TL.alloc_fragment((32, 32), "float32")
        TL.copy(A[0, 0], A_s)
        for i, j in TL.Parallel(32, 32):
            TL.atomic_add(C[i, j], A_s[i, j])
        for i, j in TL.Parallel(32, 32):
            TL.atomic_max(C[i, j], A_s[i, j])


@pytest.mark.parametrize(
    "program, message, quoted",
    [
        (
            atomic_outside_parallel,
            "T.atomic_add outside T.Parallel is not supported on Tenstorrent yet",
            "add",
        ),
        (
            moving_with_the_loop(TL.atomic_add),
            "T.atomic_add into C at a position that moves with the loop over k is not supported",
            "atomic(C[k * 32 + i, j]",
        ),
        (
            moving_with_the_loop(TL.atomic_max),
            "T.atomic_max into C at a position that moves with the loop over k is not supported on "
            "Tenstorrent yet: the writes of each grid point must go to one block",
            "atomic(C[k * 32 + i, j]",
        ),
        (
            max_and_add_into_one_tensor,
            "T.atomic_max into C, which this kernel also writes with T.atomic_add: one kind of atomic per "
            "tensor",
            "TL.atomic_max(",
        ),
    ],
)
def test_atomics_it_cannot_serialize_are_located_errors(program, message, quoted):
    with pytest.raises(TTCompileError, match=message) as err:
        lower(program, "SerializeSplitKTT")
    assert quoted in str(err.value), f"the error should quote the atomic's line:\n{err.value}"


@T.prim_func(private=True)
def add_into_shared(A: T.Buffer((32,), "float32"), C: T.Buffer((32,), "float32")):
    bx = T.launch_thread("blockIdx.x", 1)
    tn = T.launch_thread("threadIdx.x", 32)
    sums = T.alloc_shared((32,))
    T.tl.atomic_add(sums[tn], A[tn], "p.py:6:8")
    C[tn] = sums[tn]


@T.prim_func(private=True)
def add_into_shared_serialized(A: T.Buffer((32,), "float32"), C: T.Buffer((32,), "float32")):
    bx = T.launch_thread("blockIdx.x", 1)
    tn = T.launch_thread("threadIdx.x", 32)
    sums = T.alloc_shared((32,))
    # a core's own buffer: its statements run one after another, so the add is a plain one
    sums[tn] = sums[tn] + A[tn]
    C[tn] = sums[tn]


def test_an_atomic_add_into_a_buffer_of_the_kernel_is_a_plain_add():
    assert_pass(SerializeSplitKTT(), add_into_shared, add_into_shared_serialized)


def test_an_axis_another_output_uses_is_serialised_when_the_atomic_adds_do_not_use_it():
    """bx selects B's block but not S's elements: the four blocks' adds into S would race, so bx becomes a
    serial loop (B is written from it) and no launch over more than one block is left."""
    func = lower(scaled_and_column_sums, "SerializeSplitKTT")["gemm"]
    launches, loops = [], []
    tvm_ffi.structural_walk(
        func.body,
        [
            (
                tirx.AttrStmt,
                lambda a: launches.append(int(a.value)) if a.attr_key == "thread_extent" else None,
            ),
            (tirx.For, lambda f: loops.append(str(f.loop_var.name))),
        ],
    )
    assert all(extent == 1 for extent in launches), launches
    assert "bx" in loops, loops


def test_an_axis_used_as_groups_keeps_a_point_per_group_whose_members_take_turns():
    """Y's index uses bx only as bx // 2: blockIdx.x keeps 2 points (the groups), a loop over a group's 2
    members runs inside, and bx stands for bx * 2 + bx_member where the members differ (reading X)."""
    func = lower(heads_added_per_group, "SerializeSplitKTT")["gemm"]
    extents = {}
    node = func.body
    while isinstance(node, tirx.AttrStmt) and node.attr_key == "thread_extent":
        extents[str(node.node.thread_tag)] = int(node.value)
        node = node.body
    assert extents["blockIdx.x"] == 2 and extents["blockIdx.y"] == 2, extents
    text = func.script()
    assert "for bx_member in range(2)" in text or "for bx_member in T.serial(2)" in text, text
    assert "X[bx * 2 + bx_member, by * 32" in text, text
    assert "Y[bx, by * 32" in text, text
