"""B2 · GridToCoreGrid — turn the T.Kernel launch grid into a persistent loop over the core's work list.

Input expectations
    ``tt.core_work`` / ``tt.grid`` (LayoutAwareWorkPartitionTT); the body starts with ``blockIdx.x`` /
    ``blockIdx.y`` / ``blockIdx.z`` launch threads.
Output guarantees
    No ``thread_extent`` attributes remain. The body is
    ``for block in range(tt.work_count()): bx = tt.work_block(block, 0); by = tt.work_block(block, 1); ...``
    (and ``bz = tt.work_block(block, 2)``) where the grid variables are rebound (``Bind``) to the
    coordinates of the core's ``block``-th work item; how those two intrinsics read runtime arguments is
    decided later (FinalizePersistentSignatureTT).
Example
    before: bx = T.launch_thread("blockIdx.x", 4); by = T.launch_thread("blockIdx.y", 4); <body>
    after:  for block in range(T.tt.work_count()):
                bx: T.int32 = T.tt.work_block(block, 0); by: T.int32 = T.tt.work_block(block, 1); <body>
Test
    ./bazelw test //compiler/tests/passes:passes_test --test_arg=-k \\
        --test_arg=test_grid_to_core_grid
"""

from __future__ import annotations

import tvm
from tvm import tirx

from .. import ops
from ..ir_utils import require_attr, seq

AXES = ("blockIdx.x", "blockIdx.y", "blockIdx.z")


def GridToCoreGrid() -> tvm.transform.Pass:  # noqa: N802
    def transform(func: tirx.PrimFunc, mod, ctx) -> tirx.PrimFunc:
        require_attr(func, "tt.work_encoding", "GridToCoreGrid")  # small: proves the partition ran
        grid_vars, node = {}, func.body
        while isinstance(node, tirx.AttrStmt) and node.attr_key == "thread_extent":
            grid_vars[str(node.node.thread_tag)] = node.node.var
            node = node.body
        block = tirx.Var("block", "int32")
        binds = [
            tirx.Bind(grid_vars[tag], ops.call("tt.work_block", block=block, axis=axis, dtype="int32"))
            for axis, tag in enumerate(AXES)
            if tag in grid_vars
        ]
        body = seq(binds + [node])
        persistent = tirx.For(block, 0, ops.call("tt.work_count", dtype="int32"), tirx.ForKind.SERIAL, body)
        return func.with_body(persistent).with_attr("tt.persistent", True)

    return tirx.transform.prim_func_pass(transform, opt_level=0, name="GridToCoreGrid")
