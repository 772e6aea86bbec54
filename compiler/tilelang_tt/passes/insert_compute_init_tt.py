"""D4 · InsertComputeInitTT — initialise the compute engines the compute kernel uses.

Input expectations
    The compute kernel (SplitDeviceKernel) with ``tt.mm.mma`` / ``tt.pack`` intrinsics; ``tt.cb_table``,
    ``tt.accumulators``.
Output guarantees
    The compute body starts, after a comment, with the hardware start-up for the first matmul's CBs
    (``compute_kernel_hw_startup<SrcOrder::Reverse>(in0_cb, in1_cb, out_cb)``) and that matmul's init
    (matmul_form): ``matmul_block_init(in0_cb, in1_cb, transpose, ct_dim, rt_dim, kt_dim)`` when it
    multiplies DST subblocks with matmul_block, else ``matmul_init(in0_cb, in1_cb, transpose)``
    (``transpose`` = the gemm's transpose_B: the engine transposes each in1 tile).
    ``tt.compute_config`` (a ``ComputeConfig``: math_fidelity, fp32_dest_acc_en (accumulator is float32),
    dst_full_sync_en, math_approx_mode) is set; it becomes the host's ComputeConfig. Other kernels are
    unchanged.
Example
    before: for block in range(...): T.tt.fpu.zero(0, loc); for k: T.tt.mm.mma(0, 1, 0, ...)
    after:  compute_kernel_hw_startup<SrcOrder::Reverse>(cb_in0, cb_in1, cb_out0);
            matmul_block_init(cb_in0, cb_in1, 0, 2, 2, 1); for block in range(...): ...
Test
    ./bazelw test //compiler/tests/passes:passes_test --test_arg=-k \\
        --test_arg=test_insert_compute_init_tt
"""

from __future__ import annotations

import tvm
from tvm import tirx

from .. import ops
from ..errors import TTCompileError
from ..ir_utils import cb_var, comment, find_ops, get_attr, require_attr, seq
from ..records import ComputeConfig
from .matmul_form import matmul_hw_startup, matmul_init


def InsertComputeInitTT() -> tvm.transform.Pass:  # noqa: N802
    def transform(func: tirx.PrimFunc, mod, ctx) -> tirx.PrimFunc:
        if get_attr(func, "tt.compute_schedule") == "tile_program":
            return func  # LowerTileProgramTT / ScheduleTileComputeTT own it
        if get_attr(func, "tt.kernel_role") != "compute":
            return func
        cbs = {e.cb: e for e in require_attr(func, "tt.cb_table", "InsertComputeInitTT")}
        accs = require_attr(func, "tt.accumulators", "InsertComputeInitTT")
        mmas = find_ops(func.body, ("tt.mm.mma",))
        packs = find_ops(func.body, ("tt.pack",))
        if not mmas or not packs:
            raise TTCompileError(
                "the compute kernel has no matmul whose result is stored; nothing to compute"
            )
        # The init configures the engines for one matmul's formats and block shape; InsertDSTManagementTT
        # re-initialises before any matmul configured otherwise.
        mma, pack = ops.fields(mmas[0].call), ops.fields(packs[0].call)
        cb_a, cb_b = cb_var(cbs[mma.cb_a]), cb_var(cbs[mma.cb_b])
        startup = matmul_hw_startup(cb_a, cb_b, cb_var(cbs[pack.cb]))
        init = matmul_init(mmas[0].call, accs[mma.acc], cb_a, cb_b)
        config = ComputeConfig(
            math_fidelity=require_attr(func, "tt.options", "InsertComputeInitTT").math_fidelity,
            fp32_dest_acc_en=any(a.fp32 for a in accs),
            dst_full_sync_en=False,
            math_approx_mode=False,
        )
        body = seq(
            [
                comment("Configure the unpacker, math engine and packer for tile matmul"),
                startup,
                init,
                func.body,
            ]
        )
        return func.with_body(body).with_attr("tt.compute_config", config)

    return tirx.transform.prim_func_pass(transform, opt_level=0, name="InsertComputeInitTT")
