"""GridToCoreGrid: the launch grid becomes a persistent loop over tt.work_count()."""

from programs import gemm, lower
from tilelang_tt import ops
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
