"""GridToCoreGrid: the launch grid becomes a persistent loop over tt.work_count()."""

import tilelang_tt.language as T
from before_after import assert_pass
from gemm_stages import AFTER_GRID, AFTER_PARTITION, launched, persistent
from programs import gemm, lower
from tilelang_tt import ops
from tilelang_tt.passes import GridToCoreGrid
from tvm import tirx


def test_no_launch_threads_remain():
    body = lower(gemm(), "GridToCoreGrid")["gemm"].body
    assert not isinstance(body, tirx.AttrStmt)


def test_body_is_the_persistent_loop():
    body = lower(gemm(), "GridToCoreGrid")["gemm"].body
    assert isinstance(body, tirx.For) and ops.is_op(tirx.Evaluate(body.extent), "tt.work_count")


def test_grid_vars_are_rebound_from_the_work_item():
    body = lower(gemm(), "GridToCoreGrid")["gemm"].body
    binds = [s for s in body.body.seq if isinstance(s, tirx.Bind)]
    assert [b.var.name for b in binds] == ["bx", "by"] and all(
        ops.is_op(tirx.Evaluate(b.value), "tt.work_block") for b in binds
    )


@T.prim_func
def batched_copy(A: T.Tensor((3, 128, 64), "bfloat16"), C: T.Tensor((3, 128, 64), "bfloat16")):
    with T.Kernel(1, 2, 3) as (bx, by, bz):
        A_s = T.alloc_shared((64, 64), "bfloat16")
        T.copy(A[bz, by * 64, 0], A_s)
        T.copy(A_s, C[bz, by * 64, 0])


def test_a_third_grid_axis_is_rebound_too():
    body = lower(batched_copy, "GridToCoreGrid")["gemm"].body
    binds = [s for s in body.body.seq if isinstance(s, tirx.Bind)]
    assert [(b.var.name, int(b.value.args[1])) for b in binds] == [("bx", 0), ("by", 1), ("bz", 2)]


def test_gemm_before_expected():
    """Before/Expected on the GEMM of gemm_stages.py: the launch grid becomes the persistent loop over
    tt.work_count() rebinding bx, by to the work item."""
    assert_pass(GridToCoreGrid(), launched(AFTER_PARTITION), persistent(AFTER_GRID))
