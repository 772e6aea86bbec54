"""Render one lowered kernel PrimFunc as TT-Metalium C++ (reader, compute or writer).

Shaped like tinygrad's cstyle renderer: ``EXPR_RULES`` / ``STMT_RULES`` map IR node types to text and one
emit loop walks the statement tree tracking indentation. The IR is fully legalised by the passes; nothing
here decides anything. The header (argument and CB comments, argument reads, CB ids, accessors) is
produced from the same tables the host program is generated from (``tt.runtime_args``,
``tt.accessor_args``, ``tt.cb_table``), declaring only the names the body uses.
"""

from __future__ import annotations

import math
import os

import tvm
import tvm_ffi
from tvm import tirx

from .. import ops, tile_ops
from ..errors import TTError
from ..ir_utils import cb_name, get_attr

INCLUDES = {
    "reader": ["<cstdint>", '"api/dataflow/dataflow_api.h"'],
    "writer": ["<cstdint>", '"api/dataflow/dataflow_api.h"'],
    "compute": ["<cstdint>"],
}
# Compute API header of each call a compute kernel may make (data-movement kernels get the whole
# dataflow API from one header).
COMPUTE_HEADERS = {
    "mm_init": "compute_kernel_api/matmul.h",
    "mm_init_short": "compute_kernel_api/matmul.h",
    "matmul_tiles": "compute_kernel_api/matmul.h",
    "copy_tile": "compute_kernel_api/tile_move_copy.h",
    "copy_tile_to_dst_init_short": "compute_kernel_api/tile_move_copy.h",
    "transpose_wh_init_short": "compute_kernel_api/transpose_wh.h",
    "transpose_wh_tile": "compute_kernel_api/transpose_wh.h",
    **tile_ops.HEADERS,
}

_BINARY = {
    tirx.Add: ("+", 4),
    tirx.Sub: ("-", 4),
    tirx.Mul: ("*", 5),
    tirx.FloorDiv: ("/", 5),
    tirx.Div: ("/", 5),
    tirx.FloorMod: ("%", 5),
    tirx.Mod: ("%", 5),
    tirx.EQ: ("==", 2),
    tirx.NE: ("!=", 2),
    tirx.LT: ("<", 3),
    tirx.LE: ("<=", 3),
    tirx.GT: (">", 3),
    tirx.GE: (">=", 3),
    tirx.And: ("&&", 1),
    tirx.Or: ("||", 0),
}


_C_TYPES = {"int32": "int32_t", "uint32": "uint32_t", "float32": "float", "bool": "bool"}


def _float(value: float) -> str:
    """A float literal; infinities and NaN through the compiler builtins (no <limits> in kernels)."""
    if math.isinf(value):
        return "-__builtin_inff()" if value < 0 else "__builtin_inff()"
    if math.isnan(value):
        return '__builtin_nanf("")'
    return f"{value!r}f"


def expr(e, parent: int = -1) -> str:
    """C++ text of an expression; parentheses only where precedence needs them."""
    if isinstance(e, tirx.IntImm):
        return f"{int(e.value)}u" if e.ty.dtype == "uint32" else str(int(e.value))
    if isinstance(e, tirx.FloatImm):
        return _float(float(e.value))
    if isinstance(e, tvm.ir.Var):
        return str(e.name)
    if isinstance(e, tvm.ir.StringImm):
        return f'"{e.value}"'
    if isinstance(e, tirx.Not):
        if isinstance(e.a, tirx.EQ):
            return expr(tirx.NE(e.a.a, e.a.b), parent)
        return f"!({expr(e.a)})"
    for node_type, (op, prec) in _BINARY.items():
        if isinstance(e, node_type):
            text = f"{expr(e.a, prec)} {op} {expr(e.b, prec + 1)}"
            return f"({text})" if prec < parent else text
    if isinstance(e, tirx.Min | tirx.Max):  # no <algorithm> in kernels
        a, b = expr(e.a, 4), expr(e.b, 4)
        return f"({a} {'<' if isinstance(e, tirx.Min) else '>'} {b} ? {a} : {b})"
    if isinstance(e, tirx.Cast):
        return f"static_cast<{_C_TYPES[str(e.ty.dtype)]}>({expr(e.value)})"
    if isinstance(e, tirx.Select) or (
        isinstance(e, tvm.ir.Call) and str(getattr(e.op, "name", "")).endswith(".if_then_else")
    ):
        cond, a, b = (e.condition, e.true_value, e.false_value) if isinstance(e, tirx.Select) else e.args
        text = f"{expr(cond, 1)} ? {expr(a, 1)} : {expr(b, 1)}"
        return f"({text})" if parent >= 0 else text
    if isinstance(e, tvm.ir.Call) and ops.is_extern(tirx.Evaluate(e)):
        return f"{e.args[0].value}({', '.join(expr(a) for a in list(e.args)[1:])})"
    raise TTError(f"internal error: the kernel renderer has no C++ rule for {type(e).__name__}: {e}")


def _for(s, emit):
    v = s.loop_var.name
    emit(f"for (uint32_t {v} = {expr(s.min)}; {v} < {expr(s.extent)}; ++{v}) {{", +1)
    emit_stmt(s.body, emit)
    emit("}", -1)


def _bind(s, emit):
    # A pointer is an L1 address seen as words (the reader's zero fill); every other value is a word.
    ctype = "volatile tt_l1_ptr uint32_t*" if isinstance(s.var.ty, tvm.ir.PointerType) else "uint32_t"
    emit(f"{ctype} {s.var.name} = {expr(s.value)};")


def _store(s, emit):
    emit(f"{s.buffer.name}[{expr(s.indices[0])}] = {expr(s.value)};")


def _if(s, emit):
    emit(f"if ({expr(s.condition)}) {{", +1)
    emit_stmt(s.then_case, emit)
    if s.else_case is not None:
        emit("} else {", 0)
        emit_stmt(s.else_case, emit)
    emit("}", -1)


def _evaluate(s, emit):
    if ops.is_op(s, "tt.comment"):
        emit(f"// {s.value.args[0].value}", comment=True)
    elif ops.is_op(s, "tt.l1_store_f32"):
        address, value = s.value.args
        emit(f"*reinterpret_cast<volatile tt_l1_ptr float*>({expr(address)}) = {expr(value)};")
    elif isinstance(s.value, tirx.IntImm):
        return
    else:
        emit(f"{expr(s.value)};")


def _seq(s, emit):
    for child in s.seq:
        emit_stmt(child, emit)


STMT_RULES = {
    tirx.SeqStmt: _seq,
    tirx.For: _for,
    tirx.Bind: _bind,
    tirx.BufferStore: _store,
    tirx.IfThenElse: _if,
    tirx.Evaluate: _evaluate,
}


def emit_stmt(s, emit) -> None:
    rule = STMT_RULES.get(type(s))
    if rule is None:
        raise TTError(f"internal error: the kernel renderer has no C++ rule for statement {type(s).__name__}")
    rule(s, emit)


class _Emitter:
    """Collects lines at the current indentation; a comment after code gets a blank line before it."""

    def __init__(self, depth: int = 1):
        self.lines: list[str] = []
        self.depth = depth
        self._last_was_comment = True

    def __call__(self, text: str, delta: int = 0, comment: bool = False) -> None:
        if delta < 0 or (delta == 0 and text.startswith("}")):
            self.depth -= 1
        if comment and not self._last_was_comment and self.lines and not self.lines[-1].endswith("{"):
            self.lines.append("")
        self.lines.append("    " * self.depth + text)
        if delta > 0 or (delta == 0 and text.endswith("{")):
            self.depth += 1
        self._last_was_comment = comment


def includes(func, role: str) -> list[str]:
    if role != "compute":
        return INCLUDES[role]
    calls = set()
    tvm_ffi.structural_walk(
        func.body,
        (tvm.ir.Call, lambda c: calls.add(c.args[0].value) if ops.is_extern(tirx.Evaluate(c)) else None),
    )
    names = {c.split("<")[0] for c in calls}
    return INCLUDES[role] + sorted({f'"{COMPUTE_HEADERS[c]}"' for c in names if c in COMPUTE_HEADERS})


def used_names(func) -> set[str]:
    names = set()
    tvm_ffi.structural_walk(func.body, (tvm.ir.Var, lambda v: names.add(str(v.name))))
    return names


def _header(func, role: str, program: str, source: str, used: set[str]) -> tuple[list[str], list[str]]:
    """(comment lines, declaration lines) for the kernel's arguments, CBs and accessors."""
    rt_args = get_attr(func, "tt.runtime_args", [])
    accessors = get_attr(func, "tt.accessor_args", [])
    cbs = get_attr(func, "tt.cb_table", [])
    for a in accessors:
        if a["accessor"] in used:
            used |= {
                a["addr"],
                a["args"],
                a["tile_bytes"],
                cb_name(next(e for e in cbs if e["cb"] == a["cb"])),
            }
    comments = [
        f"// {program}: {role} kernel, generated by TileLang-TT from {source}.",
        "//",
        "// Runtime arguments (per core):",
    ]
    decls = []
    for i, a in enumerate(rt_args):
        what = {
            "addr": f"base address of {a['tensor']}",
            "work_start": "first work item of this core",
            "work_count": "number of output blocks this core computes",
            "work_list": "the ids of those blocks (by * grid_x + bx), one word each",
        }[a["kind"]]
        comments.append(f"//   {i}{'...' if a['kind'] == 'work_list' else ''}: {a['name']}: {what}")
        if a["name"] in used:
            decls.append(f"const uint32_t {a['name']} = get_arg_val<uint32_t>({i});")
    if accessors:
        comments.append("// Compile-time arguments:")
        for a in accessors:
            comments.append(
                f"//   {a['ct_offset']}: TensorAccessorArgs of {a['tensor']} ({a['memory']}, interleaved)"
            )
    comments.append("// Circular buffers:")
    cb_decls = []
    for e in sorted(cbs, key=lambda e: e["cb"]):
        if cb_name(e) not in used:
            continue
        comments.append(
            f"//   {cb_name(e)} = c_{e['cb']}: {e['buffer']} ({e['role']}, {e['dtype']}, "
            f"{e['tiles']} tiles per block, {e['depth']} pages)"
        )
        cb_decls.append(f"constexpr uint32_t {cb_name(e)} = tt::CBIndex::c_{e['cb']};")
    acc_decls = []
    previous = None
    cb_of = {e["cb"]: cb_name(e) for e in cbs}
    for a in accessors:
        offset = "0" if previous is None else f"{previous}.next_compile_time_args_offset()"
        acc_decls += [
            f"constexpr auto {a['args']} = TensorAccessorArgs<{offset}>();",
            f"const uint32_t {a['tile_bytes']} = get_tile_size({cb_of[a['cb']]});",
            f"const auto {a['accessor']} = TensorAccessor({a['args']}, {a['addr']}, {a['tile_bytes']});",
        ]
        previous = a["args"]
    return comments, decls + ([""] if decls else []) + cb_decls + ([""] if acc_decls else []) + acc_decls


def _prelude(func, role: str) -> list[str]:
    """Macros the SDK's headers need before they are included: reduce.h names REDUCE_OP and REDUCE_DIM in
    default template arguments (the SDK's host defines them per kernel); every reduce call here spells its
    own, so any value does."""
    if role != "compute" or '"compute_kernel_api/reduce.h"' not in includes(func, role):
        return []
    return ["#define REDUCE_OP PoolType::SUM", "#define REDUCE_DIM ReduceDim::REDUCE_ROW", ""]


def render_kernel(func) -> str:
    role = get_attr(func, "tt.kernel_role")
    program = get_attr(func, "tt.program")
    locs = [e["loc"] for e in get_attr(func, "tt.cb_table", []) if e.get("loc")]
    source = os.path.basename(locs[0].rsplit(":", 2)[0]) if locs else "a TileLang-TT program"
    comments, decls = _header(func, role, program, source, used_names(func))
    body = _Emitter()
    emit_stmt(func.body, body)
    lines = (
        comments
        + [""]
        + _prelude(func, role)
        + [f"#include {inc}" for inc in includes(func, role)]
        + ["", "void kernel_main() {"]
    )
    lines += ["    " + d if d else "" for d in decls]
    lines += [""] + body.lines + ["}", ""]
    return "\n".join(lines)
