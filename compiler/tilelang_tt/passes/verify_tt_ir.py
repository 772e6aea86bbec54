"""F · VerifyTTIR — check the invariants of the final kernels; name the pass that broke one.

Input expectations
    The module after FinalizePersistentSignatureTT.
Output guarantees
    The module is returned unchanged when: every program has a reader, a compute and a writer kernel
    (SplitDeviceKernel); no ``tl.*`` op (LowerTTTileIntrinsics), data-movement intrinsic (LowerCBIntrinsics),
    math intrinsic (InsertDSTManagementTT) or work intrinsic (FinalizePersistentSignatureTT) is left; every
    CB a kernel names is in ``tt.cb_table`` (LowerSharedToCB); each compute kernel acquires and releases DST
    equally often (InsertDSTManagementTT); and the resources fit: DST subblock ≤ DST capacity, CB bytes ≤
    the L1 budget, runtime arguments ≤ the per-core limit. Resource violations raise TTResourceError, the
    rest TTCompileError ("internal error after <pass>: ..."). ``verify_module`` returns the messages instead.
Example
    before/after: identical module; a leftover ``T.tt.pack`` in the compute kernel raises
    "internal error after InsertDSTManagementTT: gemm_compute still contains tt.pack".
Test
    ./bazelw test //compiler/tests/passes:passes_test --test_arg=-k \\
        --test_arg=test_verify_tt_ir
"""

from __future__ import annotations

import tvm
import tvm_ffi
from tvm import tirx

from .. import ops
from ..errors import TTCompileError, TTResourceError
from ..ir_utils import find_ops, get_attr, l1_for_circular_buffers

OWNER = {
    **{n: "LowerTTTileIntrinsics" for n in ops.TL_OPS},
    "tt.read_to_cb": "LowerCBIntrinsics",
    "tt.write_from_cb": "LowerCBIntrinsics",
    "tt.mm.mma": "InsertDSTManagementTT",
    "tt.pack": "InsertDSTManagementTT",
    "tt.fpu.zero": "InsertDSTManagementTT",
    "tt.work_count": "FinalizePersistentSignatureTT",
    "tt.work_block": "FinalizePersistentSignatureTT",
}


def _resource_errors(name: str, func) -> list[str]:
    errors = []
    target = get_attr(func, "tt.target")
    for acc in get_attr(func, "tt.accumulators", []):
        cap = target.dst_capacity(acc.fp32)
        sh, sw = acc.subblock or acc.tiles
        if sh * sw > cap:
            errors.append(
                f"{name}: accumulator {acc.buffer} holds {sh}x{sw} = {sh * sw} tiles in DST at once "
                f"but {target.name} DST holds {cap} ({'fp32' if acc.fp32 else '16-bit'}, half-sync)"
            )
    total = sum(e.total_bytes for e in get_attr(func, "tt.cb_table", []))
    budget, taken = l1_for_circular_buffers(func, target)
    if total > budget:
        errors.append(
            f"{name}: circular buffers need {total} bytes of L1 per core, {target.name} has {budget}{taken}"
        )
    for core in get_attr(func, "tt.core_runtime_args", []):
        if len(core.values) > target.max_runtime_args:
            errors.append(
                f"{name}: core {tuple(core['core'])} has {len(core.values)} runtime arguments, "
                f"limit {target.max_runtime_args}"
            )
    return errors


def _ir_errors(name: str, func) -> list[str]:
    errors = []
    for site in find_ops(func.body, tuple(OWNER)):
        op = str(site.call.op.name)
        errors.append(f"internal error after {OWNER[op]}: {name} still contains {op}")
    known = {e.name for e in get_attr(func, "tt.cb_table", [])}
    # a tensor's accessor variables are named after it: a tensor cb (Mamba's chunk scan) has cb_tile_bytes
    tensors = tuple(f"{a.accessor}_" for a in get_attr(func, "tt.accessor_args", []))
    used = set()
    tvm_ffi.structural_walk(
        func.body,
        (
            tvm.ir.Var,
            lambda v: used.add(str(v.name))
            if str(v.name).startswith("cb_") and not str(v.name).startswith(tensors)
            else None,
        ),
    )
    for cb in sorted(used - known):
        errors.append(f"internal error after LowerSharedToCB: {name} uses {cb}, which is not in tt.cb_table")
    calls = []
    tvm_ffi.structural_walk(
        func.body,
        (tvm.ir.Call, lambda c: calls.append(c.args[0].value) if ops.is_extern(tirx.Evaluate(c)) else None),
    )
    if calls.count("tile_regs_acquire") != calls.count("tile_regs_release"):
        errors.append(
            f"internal error after InsertDSTManagementTT: {name} acquires DST "
            f"{calls.count('tile_regs_acquire')} times but releases it {calls.count('tile_regs_release')}"
        )
    return errors


def verify_module(mod: tvm.IRModule) -> tuple[list[str], list[str]]:
    """(resource errors, other errors) of a fully lowered module."""
    resource, other = [], []
    programs: dict[str, set] = {}
    for gvar, func in mod.functions.items():
        role = get_attr(func, "tt.kernel_role")
        if role is None:
            other.append(f"internal error after SplitDeviceKernel: {gvar.name_hint} is not a tt kernel")
            continue
        programs.setdefault(get_attr(func, "tt.program"), set()).add(role)
        other += _ir_errors(gvar.name_hint, func)
        if role == "compute":
            resource += _resource_errors(gvar.name_hint, func)
    for program, roles in programs.items():
        missing = {"reader", "compute", "writer"} - roles
        if missing:
            other.append(
                f"internal error after SplitDeviceKernel: {program} lacks {', '.join(sorted(missing))}"
            )
    return resource, other


def _verify(mod: tvm.IRModule, ctx) -> tvm.IRModule:
    resource, other = verify_module(mod)
    if resource:
        raise TTResourceError("; ".join(resource))
    if other:
        raise TTCompileError("; ".join(other))
    return mod


def VerifyTTIR() -> tvm.transform.Pass:  # noqa: N802
    return tvm.transform.module_pass(_verify, opt_level=0, name="VerifyTTIR")
