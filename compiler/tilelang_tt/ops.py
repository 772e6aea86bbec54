"""The custom TIR operators of TileLang-TT, registered once per process (route A of notes/tvm-0.27.md).

Two families:
  * ``tl.*``  tile operators the DSL produces (``T.copy``, ``T.gemm``, ``T.fill``); args are
    ``TensorRegion``s, flags and a trailing "file:line:col" location string.
  * ``tt.*``  protocol-less Tenstorrent tile intrinsics produced by stage C and consumed by stage D, plus
    the two markers that survive into kernels (``tt.comment``, ``tt.work_*`` before E1 lowers them).

Metalium API calls in lowered kernels are plain ``call_extern``s named exactly like the C++ function.
"""

from __future__ import annotations

import dataclasses

import tvm
import tvm_ffi
from tvm import tirx

__all__ = [
    "OpSpec",
    "SPECS",
    "TL_OPS",
    "TT_OPS",
    "op",
    "is_op",
    "call",
    "fields",
    "loc_of",
    "extern",
    "is_extern",
]


@dataclasses.dataclass(frozen=True)
class OpSpec:
    """One operator as data: its argument fields in order (a ``tl.*`` / tile op's "file:line:col" location
    follows them), and for tile intrinsics the kernel that runs it and the fields naming the circular
    buffers it reads and writes (a field holding -1 names none). Adding an intrinsic is adding a row."""

    fields: tuple[str, ...]
    kernel: str = ""
    reads: tuple[str, ...] = ()
    writes: tuple[str, ...] = ()


SPECS: dict[str, OpSpec] = {
    # DSL tile operators (regions are TensorRegions)
    "tl.copy": OpSpec(("src", "dst")),
    "tl.gemm": OpSpec(("a", "b", "c", "trans_a", "trans_b")),
    "tl.fill": OpSpec(("dst", "value")),
    "tl.reduce": OpSpec(("src", "dst", "kind", "dim", "clear")),
    "tl.transpose": OpSpec(("src", "dst")),
    "tl.im2col": OpSpec(("img", "col", "nhw_step", "c_step", "kernel", "stride", "dilation", "pad")),
    "tl.atomic_add": OpSpec(("dst", "value")),
    "tl.atomic_max": OpSpec(("dst", "value")),
    "tl.atomic_min": OpSpec(("dst", "value")),
    "tl.loc": OpSpec(()),
    "tl.serial_loc": OpSpec(()),
    "tl.persistent": OpSpec(("workers", "worker", "dims")),
    "tl.sync_grid": OpSpec(()),
    # GEMM-path intrinsics (positions and sizes in tiles; ``tensor`` a parameter index, later an accessor)
    "tt.read_to_cb": OpSpec(("cb", "tensor", "row", "col", "rows", "cols"), "reader", writes=("cb",)),
    "tt.write_from_cb": OpSpec(("cb", "tensor", "row", "col", "rows", "cols"), "writer", reads=("cb",)),
    "tt.mm.mma": OpSpec(
        ("cb_a", "cb_b", "acc", "mt", "nt", "kt", "trans_a", "trans_b"), "compute", reads=("cb_a", "cb_b")
    ),
    "tt.fpu.zero": OpSpec(("acc",), "compute"),
    "tt.pack": OpSpec(("acc", "cb"), "compute", writes=("cb",)),
    # the persistent work loop, and kernel-only markers
    "tt.work_count": OpSpec(()),
    "tt.work_block": OpSpec(("block", "axis")),
    "tt.comment": OpSpec(("text",)),
    "tt.l1_store_f32": OpSpec(("addr", "value")),
    # tile-program intrinsics; an eltwise op also reads the CBs of the operands in its expression
    # consecutive rows of a tensor stored a page per row (row_copies.py): ``row``, ``col``, sizes in elements
    "tt.read_row": OpSpec(("cb", "tensor", "row", "col", "rows", "cols"), "reader", writes=("cb",)),
    "tt.write_row": OpSpec(("cb", "tensor", "row", "col", "rows", "cols"), "writer", reads=("cb",)),
    "tt.gen_tile": OpSpec(("cb", "value", "i", "j", "rows", "cols"), "reader", writes=("cb",)),
    "tt.read_im2col": OpSpec(
        (
            "cb",
            "tensor",
            "nhw_step",
            "c_step",
            "kernel",
            "stride",
            "dilation",
            "pad",
            "height",
            "width",
            "channels",
            "out_height",
            "out_width",
            "positions",
            "rows",
            "cols",
        ),
        "reader",
        writes=("cb",),
    ),
    # index tables: ``table`` the tensor's name until LowerTileProgramTT, then its CB
    "tt.table_value": OpSpec(("table", "index")),
    "tt.read_table": OpSpec(("cb", "tensor", "words", "shared"), "reader", writes=("cb",)),
    "tt.tile.wait_table": OpSpec(("cb",), "compute", reads=("cb",)),
    "tt.tile.release_table": OpSpec(("cb",), "compute"),
    "tt.tile.wait_input": OpSpec(("cb",), "compute", reads=("cb",)),
    # a buffer kept from one loop for a later one of the same trip count: step ``step`` of the first loop
    # waits for its block (earlier blocks stay), the later loop's step reads the block kept for it, and
    # after that loop all ``steps`` blocks are released
    "tt.tile.wait_kept": OpSpec(("cb", "step"), "compute", reads=("cb",)),
    "tt.tile.use_kept": OpSpec(("cb", "step"), "compute"),
    "tt.tile.release_kept": OpSpec(("cb", "steps"), "compute"),
    "tt.tile.tilize": OpSpec(("src", "dst"), "compute", reads=("src",), writes=("dst",)),
    "tt.tile.fill": OpSpec(("cb", "value"), "compute", writes=("cb",)),
    "tt.tile.copy": OpSpec(("src", "dst"), "compute", reads=("src",), writes=("dst",)),
    "tt.tile.eltwise": OpSpec(("dst", "expr"), "compute", writes=("dst",)),
    "tt.tile.operand": OpSpec(("cb", "broadcast")),
    "tt.tile.matmul": OpSpec(("a", "b", "c", "trans_b"), "compute", reads=("a", "b", "c"), writes=("c",)),
    # a matmul into an accumulator the statement before it cleared: C = A·B, C not read
    "tt.tile.matmul_cleared": OpSpec(("a", "b", "c", "trans_b"), "compute", reads=("a", "b"), writes=("c",)),
    "tt.tile.reduce": OpSpec(
        ("src", "dst", "kind", "dim", "clear", "scaler", "scratch", "mask", "identity"),
        "compute",
        reads=("src", "scaler", "scratch", "mask"),
        writes=("dst", "scratch"),
    ),
    "tt.tile.transpose": OpSpec(("src", "dst"), "compute", reads=("src",), writes=("dst",)),
}
TL_OPS = tuple(name for name in SPECS if name.startswith("tl."))
# T.atomic_add / _max / _min: how each combines the value a grid point brings with the element's
ATOMICS = {"tl.atomic_add": "add", "tl.atomic_max": "max", "tl.atomic_min": "min"}
TT_OPS = tuple(name for name in SPECS if name.startswith("tt."))

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


def cbs_read_and_written(c: tvm.ir.Call) -> tuple[list[int], list[int]]:
    """The CBs one tile intrinsic reads and writes, from its fields (``SPECS``)."""
    spec, f = SPECS[str(c.op.name)], fields(c)
    return f.cbs(spec.reads), f.cbs(spec.writes)


def call(name: str, *args, dtype: str = "void", **named) -> tvm.ir.Call:
    """A call of a registered tl./tt. operator, its arguments given in order or by field name (``SPECS``;
    with names, the location is ``loc=``). Python str args become StringImm, int/bool int32 IntImm."""
    if named:
        spec = SPECS[name]
        unknown = set(named) - set(spec.fields) - {"loc"}
        missing = [f for f in spec.fields if f not in named]
        if args or unknown or missing:
            raise TypeError(f"{name} takes the fields {', '.join(spec.fields)} (+ loc); got {sorted(named)}")
        args = tuple(named[f] for f in spec.fields) + ((named["loc"],) if "loc" in named else ())
    conv = [tvm.ir.StringImm(a) if isinstance(a, str) else a for a in args]
    conv = [tirx.IntImm("int32", a) if isinstance(a, bool | int) else a for a in conv]
    return tvm.ir.Call(_OPS[name], conv, ret_ty=dtype)


class Fields:
    """The arguments of one call by field name (``SPECS``): IntImm → int, StringImm → str, FloatImm →
    float, any other expression as it is. ``fields(call).cb`` instead of ``int(call.args[0].value)``."""

    def __init__(self, c: tvm.ir.Call):
        self._names = SPECS[str(c.op.name)].fields
        self._args = c.args

    def __getattr__(self, name: str):
        try:
            arg = self._args[self._names.index(name)]
        except ValueError:
            raise AttributeError(f"operator fields are {', '.join(self._names)}; no {name!r}") from None
        if isinstance(arg, tirx.IntImm | tirx.FloatImm | tvm.ir.StringImm):
            return arg.value
        return arg

    def cbs(self, which: tuple[str, ...]) -> list[int]:
        """The CB ids the fields ``which`` name, skipping -1 (none)."""
        return [cb for cb in (getattr(self, f) for f in which) if cb >= 0]


def fields(c: tvm.ir.Call) -> Fields:
    return Fields(c.value if isinstance(c, tirx.Evaluate) else c)


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
