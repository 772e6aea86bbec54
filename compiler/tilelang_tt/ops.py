"""The custom TIR operators of TileLang-TT, registered once per process (route A of notes/tvm-0.27.md).

Two families:
  * ``tl.*``  tile operators the DSL produces (``T.copy``, ``T.gemm``, ``T.fill``); args are
    ``TensorRegion``s, flags and a trailing "file:line:col" location string.
  * ``tt.*``  protocol-less Tenstorrent tile intrinsics produced by stage C and consumed by stage D, plus
    the two markers that survive into kernels (``tt.comment``, ``tt.work_*`` before E1 lowers them).

Metalium API calls in lowered kernels are plain ``call_extern``s named exactly like the C++ function.
"""

from __future__ import annotations

import tvm
import tvm_ffi
from tvm import tirx

__all__ = ["TL_OPS", "TT_OPS", "op", "is_op", "call", "loc_of", "extern", "is_extern"]

TL_OPS = ("tl.copy", "tl.gemm", "tl.fill", "tl.reduce", "tl.transpose", "tl.loc")
TT_OPS = (
    "tt.read_to_cb",
    "tt.write_from_cb",
    "tt.mm.mma",
    "tt.fpu.zero",
    "tt.pack",
    "tt.work_count",
    "tt.work_block",
    "tt.comment",
    "tt.gen_tile",
    "tt.l1_store_f32",
    "tt.tile.wait_input",
    "tt.tile.fill",
    "tt.tile.copy",
    "tt.tile.eltwise",
    "tt.tile.operand",
    "tt.tile.matmul",
    "tt.tile.reduce",
    "tt.tile.transpose",
)

_OPAQUE = tirx.CallEffectKind.Opaque.value


def _register(name: str) -> None:
    try:
        existing = tvm.ir.Op.get(name)
    except AttributeError:  # "Operator ... is not registered"
        existing = None
    if existing is None:
        tvm_ffi.get_global_func("ir.RegisterOp")(name, f"TileLang-TT operator {name}")
        existing = tvm.ir.Op.get(name)
    if existing.get_attr("TCallEffectKind") is None:
        tvm.ir.register_op_attr(name, "TCallEffectKind", _OPAQUE)
    if existing.get_attr("TScriptPrinterName") is None:
        tvm.ir.register_op_attr(name, "TScriptPrinterName", name)


for _name in TL_OPS + TT_OPS:
    _register(_name)

_OPS = {name: tvm.ir.Op.get(name) for name in TL_OPS + TT_OPS}
_EXTERN = tvm.ir.Op.get("tirx.call_extern")


def op(name: str) -> tvm.ir.Op:
    return _OPS[name]


def is_op(node, name: str) -> bool:
    """True when ``node`` is a Call (or an Evaluate of one) of operator ``name``."""
    if isinstance(node, tirx.Evaluate):
        node = node.value
    return isinstance(node, tvm.ir.Call) and isinstance(node.op, tvm.ir.Op) and node.op.same_as(_OPS[name])


def call(name: str, *args, dtype: str = "void") -> tvm.ir.Call:
    """A call of a registered tl./tt. operator; Python str args become StringImm."""
    conv = [tvm.ir.StringImm(a) if isinstance(a, str) else a for a in args]
    conv = [tirx.IntImm("int32", a) if isinstance(a, bool | int) else a for a in conv]
    return tvm.ir.Call(_OPS[name], conv, ret_ty=dtype)


def loc_of(c: tvm.ir.Call) -> str:
    """The trailing "file:line:col" argument of a tl./tt. call ("" when absent)."""
    last = c.args[len(c.args) - 1] if len(c.args) else None
    return last.value if isinstance(last, tvm.ir.StringImm) else ""


def extern(name: str, *args) -> tirx.Evaluate:
    """``Evaluate(call_extern("void", name, *args))``: one Metalium API call statement."""
    return tirx.Evaluate(tirx.call_extern("void", name, *args))


def is_extern(node, name: str | None = None) -> bool:
    if isinstance(node, tirx.Evaluate):
        node = node.value
    if not (isinstance(node, tvm.ir.Call) and isinstance(node.op, tvm.ir.Op) and node.op.same_as(_EXTERN)):
        return False
    return name is None or node.args[0].value == name
