"""atomic_shares: atomic adds whose position moves with a loop become shares in a workspace, added up by a
second T.Kernel block; forms it cannot take stay atomic adds (SerializeSplitKTT then reports them)."""

import numpy as np
import pytest
import tilelang_tt as tilelang
import tilelang_tt.language as T
import tvm_ffi
from tilelang_tt import ops
from tilelang_tt.atomic_shares import share_moving_atomic_adds
from tilelang_tt.errors import TTCompileError
from tilelang_tt.ir_utils import find_ops
from tvm import tirx


def _adds(step=32, twice=False, per_point=False):
    """Grid point by adds A[by] into C, one 32-row block per step of k (both points add into every element);
    ``step`` apart, ``twice`` per step, or each point into its own copy of C (``per_point``)."""
    shape = (2, 64, 32) if per_point else (64, 32)

    @T.prim_func
    def adds(A: T.Tensor((2, 64, 32), "float32"), C: T.Tensor(shape, "float32")):
        with T.Kernel(1, 2) as (bx, by):
            A_s = T.alloc_fragment((32, 32), "float32")
            for k in T.serial(2):
                T.copy(A[by, k * 32, 0], A_s)
                for i, j in T.Parallel(32, 32):
                    if per_point:
                        T.atomic_add(C[by, k * step + i, j], A_s[i, j])
                    else:
                        T.atomic_add(C[k * step + i, j], A_s[i, j])
                if twice:
                    for i, j in T.Parallel(32, 32):
                        T.atomic_add(C[k * step + i, j], A_s[i, j])

    return adds


row_blocks_added_by_two_points = _adds()


def test_each_grid_point_stores_its_shares_and_a_second_block_adds_them():
    body = share_moving_atomic_adds(row_blocks_added_by_two_points).body
    alloc, adding, summing = body.seq
    assert isinstance(alloc, tirx.AllocBuffer) and alloc.buffer.name == "C_shares", alloc
    assert [int(x) for x in alloc.buffer.ty.shape] == [2, 64, 32], "one copy of C per point of by"
    assert not find_ops(adding, ("tl.atomic_add",)), adding
    stores = []
    tvm_ffi.structural_walk(adding, (tirx.BufferStore, stores.append))
    (store,) = [s for s in stores if s.buffer.name == "C_shares"]
    assert str(store.indices[0]) == "by" and "k * 32 + i" in str(store.indices[1]), store
    assert isinstance(summing, tirx.AttrStmt) and summing.attr_key == "thread_extent", summing
    # through 2-D views of C and of the shares: C's 32-row block read, each share added, the block written
    copies = [str(ops.fields(s.call).dst.source.name) for s in find_ops(summing, ("tl.copy",))]
    assert copies == ["total", "share", "target_rows"], copies
    text = summing.script()
    assert (
        "decl_buffer((64, 32), data=C.data)" in text and "decl_buffer((128, 32), data=C_shares.data)" in text
    )


@pytest.mark.parametrize(
    "per_point, target",
    [(False, "wormhole"), (True, "blackhole")],
    ids=["shared by by's points", "one per point"],
)
def test_the_shares_add_into_what_the_tensor_held(target, per_point):
    """Into C shared by both points of by (two copies), or into each point's own part of C (one copy)."""
    kernel = tilelang.compile(_adds(per_point=per_point), target=target)
    rng = np.random.default_rng(0)
    a = rng.standard_normal((2, 64, 32)).astype(np.float32)
    c = rng.standard_normal((2, 64, 32) if per_point else (64, 32)).astype(np.float32)
    want = c + (a if per_point else a.sum(0))
    kernel(a, c)
    np.testing.assert_allclose(c, want, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize(
    "program",
    [_adds(step=16), _adds(twice=True)],
    ids=["steps 16 rows apart add into one element twice", "two adds into C"],
)
def test_forms_it_cannot_take_stay_atomic_adds_and_are_located_errors(program):
    assert share_moving_atomic_adds(program).same_as(program)
    with pytest.raises(TTCompileError, match="moves with the loop over k") as err:
        tilelang.compile(program)
    assert "T.atomic_add(" in str(err.value), err.value


@T.prim_func
def adds_through_named_indices(
    A: T.Tensor((2, 64, 2, 32), "float32"), C: T.Tensor((1, 64, 2, 32), "float32")
):
    # linear attention's form: the batch and head named from one launch index, a tile added per step
    with T.Kernel(2, 2) as (i_k, i_bh):
        i_b = i_bh // 2
        i_h = i_bh % 2
        A_s = T.alloc_fragment((32, 32), "float32")
        for k in T.serial(2):
            T.copy(A[i_k, k * 32 : (k + 1) * 32, i_h, 0:32], A_s)
            T.atomic_add(C[i_b, k * 32 : (k + 1) * 32, i_h, 0:32], A_s)


def test_indices_named_from_launch_indices_share_by_the_axes_they_do_not_use():
    """i_b and i_h are names for parts of i_bh: i_bh is used, so only i_k's two points share C."""
    (alloc, *_) = share_moving_atomic_adds(adds_through_named_indices).body.seq
    assert alloc.buffer.name == "C_shares" and int(alloc.buffer.ty.shape[0]) == 2, alloc
