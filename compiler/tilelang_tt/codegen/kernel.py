"""Render one lowered kernel PrimFunc as TT-Metalium C++ (reader, compute or writer).

Shaped like tinygrad's cstyle renderer: ``EXPR_RULES`` / ``STMT_RULES`` map IR node types to text and one
emit loop walks the statement tree tracking indentation. The IR is fully legalised by the passes; nothing
here decides anything. The header (argument and CB comments, argument reads, CB ids, accessors) is
produced from the same tables the host program is generated from (``tt.runtime_args``,
``tt.accessor_args``, ``tt.cb_table``), declaring only the names the body uses.

The text is already in the repository's clang-format style (``formatting``): comments are wrapped at the
column limit, and a statement that would be longer first binds its call's arguments (longest first) to
``const auto`` temporaries named after the API's parameters (``ARG_NAMES``).
"""

from __future__ import annotations

import math
import os

import tvm
import tvm_ffi
from tvm import tirx

from .. import multicast, ops, tile_ops
from ..errors import TTError
from ..ir_utils import cpp_identifier, get_attr, l1_pointer_type, simplify
from .formatting import COLUMN_LIMIT, INDENT, wrap_comment

INCLUDES = {
    "reader": ["<cstdint>", '"api/dataflow/dataflow_api.h"'],
    "writer": ["<cstdint>", '"api/dataflow/dataflow_api.h"'],
    # Runtime arguments, CB waits, DST acquire/release, pack and the hardware start-up: tt-metal 0.81's
    # operation headers no longer bring these in.
    "compute": ["<cstdint>", '"api/compute/common.h"'],
}
# Compute API header of each call a compute kernel may make (data-movement kernels get the whole
# dataflow API from one header).
COMPUTE_HEADERS = {
    "matmul_init": "api/compute/matmul.h",
    "matmul_tiles": "api/compute/matmul.h",
    "matmul_block_init": "api/compute/matmul.h",
    "matmul_block": "api/compute/matmul.h",
    "copy_tile": "api/compute/tile_move_copy.h",
    "copy_init": "api/compute/tile_move_copy.h",
    "transpose_init": "api/compute/transpose.h",
    "transpose_tile": "api/compute/transpose.h",
    **tile_ops.HEADERS,
}

# Names of the arguments of the calls whose statements can outgrow a line (the API's parameter names);
# any other call's argument i is named <callee>_arg<i>.
ARG_NAMES = {
    "noc_async_read_tile": ("tile_id", "accessor", "l1_write_addr"),
    "noc_async_write_tile": ("tile_id", "accessor", "l1_read_addr"),
    "reduce_tile": ("icb", "icb_scaler", "itile", "itile_scaler", "idst"),
    "reinterpret_cast<volatile tt_l1_ptr uint32_t*>": ("l1_addr",),
    "reinterpret_cast<volatile tt_l1_ptr float*>": ("l1_addr",),
    "noc_async_write_multicast": ("src_l1_addr", "dst_noc_addr_multicast", "size", "num_dests"),
    "noc_semaphore_set_multicast": ("src_l1_addr", "dst_noc_addr_multicast", "num_dests"),
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


# C++ precedence: | below &, both between && and ==; shifts between the relational and additive operators.
_BITWISE = {
    tirx.BitwiseOr: ("|", 1.3),
    tirx.BitwiseAnd: ("&", 1.6),
    tirx.RShift: (">>", 3.5),
    tirx.LShift: ("<<", 3.5),
}


def _hex(value: tirx.IntImm) -> str:
    """A bit mask as C++ spells one: 0x55555555u."""
    return f"0x{int(value.value):08X}u"


_C_TYPES = {"int32": "int32_t", "uint32": "uint32_t", "float32": "float", "bool": "bool"}


def _float(value: float) -> str:
    """A float literal; infinities and NaN through the compiler builtins (no <limits> in kernels)."""
    if math.isinf(value):
        return "-__builtin_inff()" if value < 0 else "__builtin_inff()"
    if math.isnan(value):
        return '__builtin_nanf("")'
    return f"{value!r}f"


def _can_go_negative(e) -> bool:
    """An int32 expression with a subtraction or a negative constant in it (``bx * 64 - 128``). The
    kernels compute in uint32_t words, whose wrap-around gives the right low bits for +, - and *, but not
    for what reads the sign: division, modulo, min, max and ordering comparisons."""
    if str(getattr(getattr(e, "ty", None), "dtype", "")) != "int32":
        return False
    found = []
    tvm_ffi.structural_walk(
        e,
        [
            (tirx.Sub, found.append),
            (tirx.IntImm, lambda i: found.append(i) if int(i.value) < 0 else None),
        ],
    )
    return bool(found)


_SIGN_READERS = (tirx.FloorDiv, tirx.FloorMod, tirx.Min, tirx.Max, tirx.LT, tirx.LE, tirx.GT, tirx.GE)


def _signed(e) -> str:
    """``e`` read as int32_t: the word's bits are the two's-complement value TIR means (constants and
    signed divisions already are int)."""
    if isinstance(e, tirx.IntImm) and str(e.ty.dtype) == "int32":
        return expr(e, 6)
    if isinstance(e, tirx.FloorDiv | tirx.FloorMod) and _can_go_negative(e.a):
        return expr(e)
    return f"static_cast<int32_t>({expr(e)})"


def _signed_division(e) -> str:
    """TIR's floor division or modulo of an operand that can be negative, for a positive divisor
    (C++'s ``/`` truncates towards zero): ⌊a / b⌋ = (a - (b - 1)) / b when a < 0."""
    a, b = _signed(e.a), expr(e.b, 6)
    b_less_one = str(int(e.b.value) - 1) if isinstance(e.b, tirx.IntImm) else f"({b} - 1)"
    floor = f"({a} >= 0 ? {a} / {b} : ({a} - {b_less_one}) / {b})"
    return floor if isinstance(e, tirx.FloorDiv) else f"({a} - {floor} * {b})"


def expr(e, parent: int = -1) -> str:
    """C++ text of an expression; parentheses only where precedence needs them. Integers are uint32_t
    words; an operator that reads the sign of an operand that can go negative reads it as int32_t."""
    if isinstance(e, tirx.IntImm):
        return f"{int(e.value)}u" if e.ty.dtype == "uint32" else str(int(e.value))
    if isinstance(e, tirx.FloatImm):
        return _float(float(e.value))
    if isinstance(e, tvm.ir.Var):
        return cpp_identifier(str(e.name))
    if isinstance(e, tvm.ir.StringImm):
        return f'"{e.value}"'
    if isinstance(e, tvm.ir.TensorLoad):  # a word of L1 through a pointer (an index table's copy)
        return f"{e.source.name}[{expr(e.indices[0])}]"
    if isinstance(e, tirx.Not):
        if isinstance(e.a, tirx.EQ):
            return expr(tirx.NE(e.a.a, e.a.b), parent)
        return f"!({expr(e.a)})"
    signed = isinstance(e, _SIGN_READERS) and (_can_go_negative(e.a) or _can_go_negative(e.b))
    if signed and isinstance(e, tirx.FloorDiv | tirx.FloorMod):
        return _signed_division(e)
    for node_type, (op, prec) in _BINARY.items():
        if isinstance(e, node_type):
            a, b = (_signed(e.a), _signed(e.b)) if signed else (expr(e.a, prec), expr(e.b, prec + 1))
            text = f"{a} {op} {b}"
            return f"({text})" if prec < parent else text
    if isinstance(e, tirx.Min | tirx.Max):  # no <algorithm> in kernels
        a, b = (_signed(e.a), _signed(e.b)) if signed else (expr(e.a, 4), expr(e.b, 4))
        return f"({a} {'<' if isinstance(e, tirx.Min) else '>'} {b} ? {a} : {b})"
    if isinstance(e, tirx.Cast):
        return f"static_cast<{_C_TYPES[str(e.ty.dtype)]}>({expr(e.value)})"
    if isinstance(e, tirx.Select) or (
        isinstance(e, tvm.ir.Call) and str(getattr(e.op, "name", "")).endswith(".if_then_else")
    ):
        cond, a, b = (e.condition, e.true_value, e.false_value) if isinstance(e, tirx.Select) else e.args
        text = f"{expr(cond, 1)} ? {expr(a, 1)} : {expr(b, 1)}"
        return f"({text})" if parent >= 0 else text
    if type(e) in _BITWISE:
        op, prec = _BITWISE[type(e)]
        # Operands in parentheses whatever their precedence: C++ readers do not trust it around bit operators.
        a, b = (
            _hex(x) if isinstance(x, tirx.IntImm) and int(x.value) > 255 else expr(x, 10) for x in (e.a, e.b)
        )
        text = f"{a} {op} {b}"
        return f"({text})" if prec < parent else text
    if isinstance(e, tvm.ir.Call) and ops.is_extern(tirx.Evaluate(e)):
        return f"{e.args[0].value}({', '.join(expr(a) for a in list(e.args)[1:])})"
    raise TTError(f"internal error: the kernel renderer has no C++ rule for {type(e).__name__}: {e}")


def _for(s, emit):
    """``for v in range(min, min + extent)`` (a TIR loop carries its start and trip count)."""
    v = cpp_identifier(str(s.loop_var.name))
    end = simplify(s.min + s.extent)
    condition = expr(tirx.LT(s.loop_var, end))
    emit(f"for (uint32_t {v} = {expr(s.min)}; {condition}; ++{v}) {{", +1)
    emit_stmt(s.body, emit)
    emit("}", -1)


def _arguments(e) -> tuple[str, list]:
    """(callee, argument expressions) of an extern call; ("", []) for any other expression."""
    if isinstance(e, tvm.ir.Call) and ops.is_extern(tirx.Evaluate(e)):
        return str(e.args[0].value), list(e.args)[1:]
    return "", []


def _fitted(emit, args: list, names: list[str], line, target: str = "") -> None:
    """Emit ``target = line(rendered args);`` (``line(...);`` without a target); while that is longer
    than the column limit, bind the longest argument that is not a plain name or number to a
    ``const auto`` temporary (emitted first) and use its name. An assignment still too long, the
    temporaries' included, breaks after its ``=``, as clang-format does."""
    texts = [expr(a) for a in args]
    movable = [i for i, a in enumerate(args) if not isinstance(a, tvm.ir.Var | tirx.IntImm | tirx.FloatImm)]
    prefix = f"{target} = " if target else ""
    while emit.too_long(prefix + line(texts)) and movable:
        i = max(movable, key=lambda j: len(texts[j]))
        movable.remove(i)
        name = emit.fresh(names[i])
        if emit.too_long(f"const auto {name} = {texts[i]};"):
            emit(f"const auto {name} =")
            emit(INDENT + f"{texts[i]};")
        else:
            emit(f"const auto {name} = {texts[i]};")
        texts[i] = name
    if target and emit.too_long(prefix + line(texts)):
        emit(f"{target} =")
        emit(INDENT + line(texts))
    else:
        emit(prefix + line(texts))


def _call_names(callee: str, count: int) -> list[str]:
    names = ARG_NAMES.get(callee, ARG_NAMES.get(callee.split("<")[0], ()))
    return [names[i] if i < len(names) else f"{callee.split('<')[0]}_arg{i}" for i in range(count)]


def _bind(s, emit):
    # A pointer is an L1 address seen as words (the reader's zero fill, an index table's copy); every other
    # value is a word.
    ctype = l1_pointer_type(s.var) if isinstance(s.var.ty, tvm.ir.PointerType) else "uint32_t"
    callee, args = _arguments(s.value)
    if not callee:
        emit(f"{ctype} {cpp_identifier(str(s.var.name))} = {expr(s.value)};")
        return
    _fitted(
        emit,
        args,
        _call_names(callee, len(args)),
        lambda texts: f"{callee}({', '.join(texts)});",
        f"{ctype} {cpp_identifier(str(s.var.name))}",
    )


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
        emit.comment(str(ops.fields(s).text))
    elif ops.is_op(s, "tt.l1_store_f32"):
        _fitted(
            emit,
            list(s.value.args),
            ["l1_addr", "value"],
            lambda t: f"*reinterpret_cast<volatile tt_l1_ptr float*>({t[0]}) = {t[1]};",
        )
    elif isinstance(s.value, tirx.IntImm):
        return
    elif _arguments(s.value)[0]:
        callee, args = _arguments(s.value)
        _fitted(emit, args, _call_names(callee, len(args)), lambda texts: f"{callee}({', '.join(texts)});")
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
    """Collects lines at the current indentation; a comment after code gets a blank line before it.
    ``fresh`` names temporaries apart from the kernel's own names (``taken``) and from each other."""

    def __init__(self, taken: set[str], depth: int = 1):
        self.lines: list[str] = []
        self.depth = depth
        self.taken = set(taken)
        self._last_was_comment = True

    def __call__(self, text: str, delta: int = 0, comment: bool = False) -> None:
        if delta < 0 or (delta == 0 and text.startswith("}")):
            self.depth -= 1
        if comment and not self._last_was_comment and self.lines and not self.lines[-1].endswith("{"):
            self.lines.append("")
        self.lines.append(INDENT * self.depth + text)
        if delta > 0 or (delta == 0 and text.endswith("{")):
            self.depth += 1
        self._last_was_comment = comment

    def comment(self, text: str) -> None:
        indent = INDENT * self.depth
        for line in wrap_comment(text, indent):
            self(line[len(indent) :], comment=True)

    def too_long(self, text: str) -> bool:
        return len(INDENT * self.depth + text) > COLUMN_LIMIT

    def fresh(self, name: str) -> str:
        unique, n = name, 1
        while unique in self.taken:
            unique, n = f"{name}_{n}", n + 1
        self.taken.add(unique)
        return unique


def includes(func, role: str) -> list[str]:
    if role != "compute":
        return INCLUDES[role]
    calls = set()
    tvm_ffi.structural_walk(
        func.body,
        (tvm.ir.Call, lambda c: calls.add(c.args[0].value) if ops.is_extern(tirx.Evaluate(c)) else None),
    )
    names = {c.split("<")[0] for c in calls}
    headers = {f'"{COMPUTE_HEADERS[c]}"' for c in names if c in COMPUTE_HEADERS}
    return INCLUDES[role] + sorted(headers - set(INCLUDES[role]))


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
        if a.accessor in used:
            used |= {
                a.addr,
                a.args,
                a.tile_bytes,
                (next(e for e in cbs if e.cb == a.cb)).name,
            }
    comments = [
        f"// {program}: {role} kernel, generated by TileLang-TT from {source}.",
        "//",
        "// Runtime arguments (per core):",
    ]
    decls = []
    for i, a in enumerate(rt_args):
        what = {
            "addr": f"base address of {a.tensor}",
            "work_start": "first work item of this core",
            "work_count": (
                "number of positions of the Z curve this core walks (outside the grid: skipped)"
                if get_attr(func, "tt.work_encoding") == "range_z_order"
                else "number of output blocks this core computes"
            ),
            "work_row0": "first block row of this core's rectangle of output blocks",
            "work_col0": "first block column of that rectangle",
            "work_cols": "block columns of that rectangle (it is walked row by row)",
            "multicast": multicast.arg_meaning(a.name) if a.kind == "multicast" else "",
            "shape": a.meaning,
            "halo_window": a.meaning,
        }[a.kind]
        comments.append(f"//   {i}: {a.name}: {what}")
        if a.name in used:
            decls.append(f"const uint32_t {a.name} = get_arg_val<uint32_t>({i});")
    if accessors:
        comments.append("// Compile-time arguments:")
        for a in accessors:
            layout = f"sharded {a.shard_grid[0]} x {a.shard_grid[1]}" if a.shard_grid else "interleaved"
            comments.append(f"//   {a.ct_offset}: TensorAccessorArgs of {a.tensor} ({a.memory}, {layout})")
    comments.append("// Circular buffers:")
    cb_decls = []
    for e in sorted(cbs, key=lambda e: e.cb):
        if e.name not in used:
            continue
        comments.append(
            f"//   {e.name} = c_{e.cb}: {e.buffer} ({e.role}, {e.dtype}, "
            f"{e.tiles} tiles per block, {e.depth} pages)"
        )
        cb_decls.append(f"constexpr uint32_t {e.name} = tt::CBIndex::c_{e.cb};")
    acc_decls = []
    previous = None
    cb_of = {e.cb: e.name for e in cbs}
    for a in accessors:
        offset = "0" if previous is None else f"{previous}.next_compile_time_args_offset()"
        acc_decls += [
            f"constexpr auto {a.args} = TensorAccessorArgs<{offset}>();",
            (
                f"const uint32_t {a.tile_bytes} = get_tile_size({cb_of[a.cb]});"
                if a.page_layout == "tile"
                else f"constexpr uint32_t {a.tile_bytes} = {a.page_size};  "
                f"// {_PAGE_OF[a.page_layout]} {a.tensor}"
            ),
            f"const auto {a.accessor} = TensorAccessor({a.args}, {a.addr}, {a.tile_bytes});",
        ]
        previous = a.args
    return comments, decls + ([""] if decls else []) + cb_decls + ([""] if acc_decls else []) + acc_decls


_PAGE_OF = {"row_major": "one page per row of", "table": "one page holds all of"}


def _prelude(func, role: str) -> list[str]:
    """Macros the SDK's headers need before they are included: reduce.h names REDUCE_OP and REDUCE_DIM in
    default template arguments (the SDK's host defines them per kernel); every reduce call here spells its
    own, so any value does."""
    if role != "compute" or '"api/compute/reduce.h"' not in includes(func, role):
        return []
    return ["#define REDUCE_OP PoolType::SUM", "#define REDUCE_DIM ReduceDim::REDUCE_ROW", ""]


def render_kernel(func) -> str:
    role = get_attr(func, "tt.kernel_role")
    program = get_attr(func, "tt.program")
    locs = [e.loc for e in get_attr(func, "tt.cb_table", []) if e.loc]
    source = os.path.basename(locs[0].rsplit(":", 2)[0]) if locs else "a TileLang-TT program"
    used = used_names(func)
    comments, decls = _header(func, role, program, source, used)
    body = _Emitter(used)
    emit_stmt(func.body, body)
    lines = (
        [line for comment in comments for line in wrap_comment(comment[3:])]
        + [""]
        + _prelude(func, role)
        + [f"#include {inc}" for inc in includes(func, role)]
        + ["", "void kernel_main() {"]
    )
    lines += ["    " + d if d else "" for d in decls]
    lines += [""] + body.lines + ["}", ""]
    return "\n".join(lines)
