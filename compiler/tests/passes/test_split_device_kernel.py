"""SplitDeviceKernel: one program → reader/compute/writer, each with only its ops."""

import tvm
from before_after import assert_pass
from gemm_kernels import (
    compute_kernel,
    data_movement_kernel,
    kernel_attrs,
    mma_intrinsics,
    reads_by_param,
    write_by_param,
)
from gemm_stages import AFTER_DFG, persistent_intrinsics
from programs import gemm, lower
from tilelang_tt import ops
from tilelang_tt.ir_utils import find_ops, get_attr
from tilelang_tt.passes import SplitDeviceKernel
from tilelang_tt.passes.split_device_kernel import keep_role


def _ops(func):
    return [str(s.call.op.name) for s in find_ops(func.body, ops.TT_OPS)]


def test_three_kernels_with_roles():
    mod = lower(gemm(), "SplitDeviceKernel")
    assert {g.name_hint: get_attr(f, "tt.kernel_role") for g, f in mod.functions.items()} == {
        "gemm_reader": "reader",
        "gemm_compute": "compute",
        "gemm_writer": "writer",
    }


def test_reader_keeps_reads_and_grid():
    assert (
        _ops(lower(gemm(), "SplitDeviceKernel")["gemm_reader"])
        == ["tt.work_block", "tt.work_block", "tt.read_to_cb", "tt.read_to_cb"][2:]
    )


def test_compute_drops_unused_grid_bindings():
    text = lower(gemm(), "SplitDeviceKernel")["gemm_compute"].script()
    assert "work_block" not in text and "mm.mma" in text


def test_writer_has_no_reduction_loop():
    text = lower(gemm(), "SplitDeviceKernel")["gemm_writer"].script()
    assert "pipelined" not in text and "write_from_cb" in text


def test_gemm_before_expected():
    """The GEMM of gemm_stages.py splits into a reader (grid indices, k loop of reads), a compute kernel
    (zero, k loop of mma, pack: it needs no grid index) and a writer (grid indices, write)."""
    before = tvm.IRModule({"gemm": persistent_intrinsics(AFTER_DFG)})
    expected = tvm.IRModule(
        {
            "gemm_reader": data_movement_kernel("reader", kernel_attrs("reader"), reads_by_param),
            "gemm_compute": compute_kernel(kernel_attrs("compute"), mma_intrinsics, initialised=False),
            "gemm_writer": data_movement_kernel("writer", kernel_attrs("writer"), write_by_param),
        }
    )
    assert_pass(SplitDeviceKernel(), before, expected)


def test_each_kernel_keeps_its_part_of_a_branch():
    """A block-sparse K step: the reader keeps the branch with its reads, the compute kernel the same
    condition around its matmul, and the writer, with nothing of its own inside, no branch at all."""
    k = tvm.tirx.Var("k", "int32")
    masked = tvm.tirx.NE(ops.call("tt.table_value", table=2, index=k, dtype="int32"), 0)
    read = tvm.tirx.Evaluate(ops.call("tt.read_to_cb", cb=0, tensor=0, row=0, col=k, rows=2, cols=1))
    matmul = tvm.tirx.Evaluate(ops.call("tt.tile.matmul", a=0, b=1, c=24, trans_b=False))
    branch = tvm.tirx.IfThenElse(masked, tvm.tirx.SeqStmt([read, matmul]), None)
    reader, compute = keep_role(branch, "reader"), keep_role(branch, "compute")
    assert isinstance(reader, tvm.tirx.IfThenElse) and reader.condition.same_as(masked)
    names = [[str(site.call.op.name) for site in find_ops(s, ops.TT_OPS)] for s in (reader, compute)]
    assert names == [["tt.read_to_cb"], ["tt.tile.matmul"]], names
    assert keep_role(branch, "writer") is None
