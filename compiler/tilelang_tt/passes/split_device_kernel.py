"""D1 · SplitDeviceKernel — split each tile program into its reader, compute and writer kernels.

Input expectations
    A module whose PrimFuncs carry ``tt.tile_dfg`` (BuildTileDFGTT); bodies hold the persistent work loop,
    the reduction loops and ``tt.*`` tile intrinsics.
Output guarantees
    (module pass) each such ``<name>`` is replaced by ``<name>_reader``, ``<name>_compute`` and
    ``<name>_writer``: parameterless PrimFuncs with ``tt.kernel_role`` ∈ reader | compute | writer and
    ``tt.program`` = ``<name>``, all other ``tt.*`` attributes copied. Each body keeps only its role's
    intrinsics (role from the DFG's kernel of the op) and the loops and ifs around them; loops and ifs left
    empty and grid bindings no longer used are removed.
Example
    before: gemm: for block: bx = ...; by = ...; zero; for k: read A; read B; mma; pack; write
    after:  gemm_reader:  for block: bx = ...; by = ...; for k: read A; read B
            gemm_compute: for block: zero; for k: mma; pack
            gemm_writer:  for block: bx = ...; by = ...; write
Test
    ./bazelw test //compiler/tests/passes:passes_test --test_arg=-k \\
        --test_arg=test_split_device_kernel
"""

from __future__ import annotations

import tvm
from tvm import tirx

from ..ir_utils import collect_vars, get_attr, is_noop, op_name, seq, with_loop_body
from .build_tile_dfg_tt import KERNEL_OF

ROLES = ("reader", "compute", "writer")


def _uses(stmt, var) -> bool:
    return any(v.same_as(var) for v in collect_vars(stmt))


def keep_role(stmt, role: str):
    """``stmt`` with only ``role``'s intrinsics, empty loops and unused Binds dropped (None when empty)."""
    if isinstance(stmt, tirx.SeqStmt):
        kept = []
        for s in reversed(list(stmt.seq)):
            if isinstance(s, tirx.Bind):
                if any(_uses(k, s.var) for k in kept):
                    kept.insert(0, s)
                continue
            out = keep_role(s, role)
            if out is not None:
                kept.insert(0, out)
        return seq(kept) if kept else None
    if isinstance(stmt, tirx.For):
        body = keep_role(stmt.body, role)
        if body is None:
            return None
        return with_loop_body(stmt, body)
    if isinstance(stmt, tirx.IfThenElse):
        then = keep_role(stmt.then_case, role)
        other = None if stmt.else_case is None else keep_role(stmt.else_case, role)
        if then is None and other is None:
            return None
        return tirx.IfThenElse(stmt.condition, then if then is not None else tirx.Evaluate(0), other)
    if isinstance(stmt, tirx.Evaluate) and isinstance(stmt.value, tvm.ir.Call):
        name = op_name(stmt.value) if isinstance(stmt.value.op, tvm.ir.Op) else ""
        return stmt if KERNEL_OF.get(name) == role else None
    if is_noop(stmt):
        return None
    return stmt


def _split(mod: tvm.IRModule, ctx) -> tvm.IRModule:
    out = {}
    for gvar, func in mod.functions.items():
        if get_attr(func, "tt.tile_dfg") is None:
            out[gvar.name_hint] = func
            continue
        attrs = {k: v for k, v in func.attrs.items() if str(k).startswith("tt.")}
        for role in ROLES:
            body = keep_role(func.body, role) or tirx.Evaluate(0)
            name = f"{gvar.name_hint}_{role}"
            kernel = tirx.PrimFunc([], body).with_attrs(
                {**attrs, "global_symbol": name, "tt.kernel_role": role, "tt.program": gvar.name_hint}
            )
            out[name] = kernel
    return tvm.IRModule(out)


def SplitDeviceKernel() -> tvm.transform.Pass:  # noqa: N802
    return tvm.transform.module_pass(_split, opt_level=0, name="SplitDeviceKernel")
