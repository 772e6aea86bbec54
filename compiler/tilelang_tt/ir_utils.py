"""Small IR helpers shared by the passes: attribute access as plain Python, a context-tracking statement
walk, tile-region decoding and statement builders. No pass logic lives here."""

from __future__ import annotations

import dataclasses
import os

import tvm
import tvm_ffi
from tvm import tirx

from . import ops
from .errors import TTCompileError, dsl_line, register_with_tvm, split_loc
from .records import CircularBuffer
from .target import TILE

register_with_tvm()

_ANALYZER = tvm.sym.Analyzer()
extern = ops.extern


def to_py(value):
    """tvm_ffi containers / IntImm / StringImm → plain Python (dict keys keep their order)."""
    if isinstance(value, tvm_ffi.Map):
        return {str(k): to_py(v) for k, v in value.items()}
    if isinstance(value, tvm_ffi.Array):
        return [to_py(v) for v in value]
    if isinstance(value, tirx.IntImm):
        return int(value.value)
    if isinstance(value, tirx.FloatImm):
        return float(value.value)
    if isinstance(value, tvm.ir.StringImm):
        return str(value.value)
    if isinstance(value, str):
        return str(value)
    return value


def get_attr(func: tirx.PrimFunc, key: str, default=None):
    if func.attrs is None or key not in func.attrs:
        return default
    return to_py(func.attrs[key])


STORAGE_DTYPES_ATTR = "tt.storage_dtypes"  # tensor parameter name → block-float storage dtype (T.Tensor)


def storage_dtype(func: tirx.PrimFunc, buf) -> str:
    """The dtype tensor ``buf`` is stored in on the device: its block-float storage dtype when ``T.Tensor``
    declared one ("bfloat8_b"), else its dtype."""
    return get_attr(func, STORAGE_DTYPES_ATTR, {}).get(str(buf.name), str(buf.dtype))


def l1_for_circular_buffers(func: tirx.PrimFunc, target) -> tuple[int, str]:
    """(bytes of each core's L1 left for circular buffers, what took the rest): the target's CB budget less
    the L1 that tensors placed in L1 take on a core (a shard; an L1-interleaved tensor's pages spread over
    the worker cores), as the device allocates them beside the CBs. The text is "" when none is in L1."""
    taken = []
    cores = int(target.grid[0]) * int(target.grid[1])
    for a in get_attr(func, "tt.tensor_accessors", []):
        if a.memory != "L1":
            continue
        shards = a.shard_grid[0] * a.shard_grid[1] if a.shard_grid else cores
        taken.append((a.name, -(-a.pages // shards) * a.page_size))
    if not taken:
        return target.l1_cb_budget, ""
    used = sum(b for _, b in taken)
    return target.l1_cb_budget - used, " (after " + ", ".join(f"{b} bytes of {n}" for n, b in taken) + ")"


def def_loc(func: tirx.PrimFunc) -> str:
    """ "file:line:col" of the function's ``def`` (set by ``T.prim_func``; "" for other PrimFuncs)."""
    return get_attr(func, "tl.def_loc", "")


def require_attr(func: tirx.PrimFunc, key: str, pass_name: str):
    value = get_attr(func, key)
    if value is None:
        raise TTCompileError(f"{pass_name} needs function attribute {key!r}; run the passes before it first")
    return value


def simplify(expr):
    return _ANALYZER.simplify(expr)


def cast_to(value, dtype: str):
    """``value`` as ``dtype``: itself when it already is, else a Cast."""
    return value if str(value.ty.dtype) == str(dtype) else tirx.Cast(str(dtype), value)


def provably_equal(a, b) -> bool:
    return _ANALYZER.can_prove_equal(a, b)


def is_zero_mod(expr, modulus: int) -> bool:
    return _ANALYZER.can_prove_equal(tirx.floormod(expr, modulus), 0)


@dataclasses.dataclass
class OpSite:
    """A tl./tt. call with the loops that enclose it (outermost first)."""

    call: tvm.ir.Call
    loops: list

    @property
    def loc(self) -> str:
        return ops.loc_of(self.call)


def find_ops(stmt, names: tuple[str, ...]) -> list[OpSite]:
    """Every call of an operator in ``names`` under ``stmt``, in program order, with enclosing loops."""
    sites: list[OpSite] = []
    targets = {n: ops.op(n) for n in names}

    def visit(node, loops):
        if isinstance(node, tirx.SeqStmt):
            for s in node.seq:
                visit(s, loops)
        elif isinstance(node, tirx.For):
            visit(node.body, loops + [node])
        elif isinstance(node, tirx.AttrStmt):
            visit(node.body, loops)
        elif isinstance(node, tirx.IfThenElse):
            visit(node.then_case, loops)
            if node.else_case is not None:
                visit(node.else_case, loops)
        elif isinstance(node, tirx.Evaluate) and isinstance(node.value, tvm.ir.Call):
            call = node.value
            if isinstance(call.op, tvm.ir.Op) and any(call.op.same_as(o) for o in targets.values()):
                sites.append(OpSite(call, loops))

    visit(stmt, [])
    return sites


def op_name(call: tvm.ir.Call) -> str:
    return str(call.op.name)


@dataclasses.dataclass
class Region:
    """A decoded TensorRegion: buffer, start expressions and constant extents. ``view_shape`` is set when
    the region is seen through its buffer's 2-D tile view (see ``region``)."""

    buffer: tirx.Buffer
    mins: list
    extents: list[int]
    view_shape: list[int] | None = None

    @property
    def name(self) -> str:
        return str(self.buffer.name)

    @property
    def shape(self) -> list[int]:
        return self.view_shape if self.view_shape is not None else [int(s) for s in self.buffer.shape]


def gemm_operands(call, loc: str):
    """(a, b, c regions, trans_a, trans_b, (m, n, k)) of a ``tl.gemm``; shapes that do not multiply are a
    TTCompileError at ``loc``."""
    f = ops.fields(call)
    a, b, c = (region(r, loc) for r in (f.a, f.b, f.c))
    ta, tb = f.trans_a, f.trans_b
    m, k = a.extents[::-1] if ta else a.extents
    k2, n = b.extents[::-1] if tb else b.extents
    if k != k2 or c.extents != [m, n]:
        raise TTCompileError.at(
            loc,
            f"shape mismatch in T.gemm: {a.name}{tuple(a.extents)}{'ᵀ' if ta else ''} @ "
            f"{b.name}{tuple(b.extents)}{'ᵀ' if tb else ''} → {c.name}{tuple(c.extents)}",
        )
    return a, b, c, ta, tb, (m, n, k)


def padded_to_tile(n: int) -> int:
    """``n`` rounded up to a whole number of tiles (the padding rule of every tensor's tile view)."""
    return -(-int(n) // TILE) * TILE


def tile_view_shape(shape) -> list[int]:
    """The 2-D shape a tensor is tiled as, given its dimensions in stored order (``stored_shape``), its DRAM
    pages being the tiles of this view in row-major order: the last two dimensions padded up to multiples
    of the tile, and the leading dimensions flattened into rows so that each leading index starts on a tile
    row: (B, H, S, D) → (B·H·ceil32(S), ceil32(D)). The padding is zeros on input (host) and cropped on
    output, so one (b, h) slice never overlaps the next."""
    lead = 1
    for extent in shape[:-2]:
        lead *= int(extent)
    return [lead * padded_to_tile(shape[-2]), padded_to_tile(shape[-1])]


def storage_order(buf: tirx.Buffer) -> list[int]:
    """The order a global tensor's dimensions are stored in DRAM, outermost first, as declared dimension
    numbers: the declared order, unless AttachTensorAccessorTT gave the buffer the strides of another
    (``stored_strides``; a (B, S, H, D) tensor tiled along S is stored as (B, H, S, D): [0, 2, 1, 3])."""
    strides = [int(s) for s in buf.ty.strides]
    if not strides:
        return list(range(len(buf.shape)))
    return sorted(range(len(strides)), key=lambda d: -strides[d])


def stored_shape(shape, order) -> list[int]:
    """``shape`` (declared order) with its dimensions in the stored ``order``."""
    return [int(shape[d]) for d in order]


def stored_strides(shape, order) -> list[int]:
    """Element strides, in declared order, of a tensor stored in ``order`` with its last two stored
    dimensions padded to whole tiles (the tile view before tilizing). The row dimension's stride is below
    every leading one's, so ``storage_order`` reads the order back unambiguously (leading dimensions of
    equal stride have extent 1, where their order does not matter)."""
    padded = stored_shape(shape, order)
    padded[-2:] = [padded_to_tile(padded[-2]), padded_to_tile(padded[-1])]
    strides, step = [0] * len(order), 1
    for k in reversed(range(len(order))):
        strides[order[k]] = step
        step *= padded[k]
    return strides


def _tile_view(reg: Region, loc: str) -> Region:
    """An N-D region whose extents are 1 in every stored leading dimension (``storage_order``) → the same
    elements as a region of the 2-D tile view (row = flattened leading index · ceil32(rows) + row, see
    ``tile_view_shape``)."""
    rank = len(reg.extents)
    if rank < 2:
        raise TTCompileError.at(
            loc, f"{reg.name} has {rank} dimension; only buffers of 2 or more dimensions are supported yet"
        )
    order = storage_order(reg.buffer)
    spanning = [d for d in order[:-2] if reg.extents[d] != 1]
    if spanning:
        raise TTCompileError.at(
            loc,
            f"this tile region of {reg.name} spans {reg.extents[spanning[0]]} entries of dimension "
            f"{spanning[0]} of {rank}; a tile must lie in two dimensions: the last and one other (one index "
            f"for each remaining one, e.g. Q[b, h, i:i + n, :] or Q[b, i:i + n, h, :])",
        )
    shape = stored_shape(reg.buffer.shape, order)
    mins = [reg.mins[d] for d in order]
    lead = mins[0]
    for k in range(1, rank - 2):
        lead = lead * shape[k] + mins[k]
    row = lead * padded_to_tile(shape[-2]) + mins[-2]
    extents = [reg.extents[d] for d in order[-2:]]
    return Region(reg.buffer, [simplify(row), mins[-1]], extents, tile_view_shape(shape))


def region(value, loc: str = "", tile_view: bool = True) -> Region:
    """Decode a TensorRegion; with ``tile_view`` a global tensor's region is returned on its 2-D tile view
    (``tile_view_shape``: the shape it reports is the padded view's)."""
    if not isinstance(value, tvm.ir.TensorRegion):
        raise TTCompileError.at(loc, f"expected a tile region, got {type(value).__name__}")
    extents = []
    for r in value.region:
        ext = simplify(r.extent)
        if not isinstance(ext, tirx.IntImm):
            raise TTCompileError.at(loc, f"tile extents must be constants, got {ext} for {value.source.name}")
        extents.append(int(ext.value))
    reg = Region(value.source, [simplify(r.min) for r in value.region], extents)
    if not tile_view:
        return reg
    if len(extents) != 2:
        return _tile_view(reg, loc)
    return (
        Region(reg.buffer, reg.mins, extents, tile_view_shape(reg.buffer.shape))
        if is_global(reg.buffer)
        else reg
    )


def tiles(n: int) -> int:
    return n // TILE


def buffer_scope(buf: tirx.Buffer) -> str:
    return str(buf.scope())


def is_global(buf: tirx.Buffer) -> bool:
    return buffer_scope(buf) == "global"


def seq(stmts) -> tirx.Stmt:
    """SeqStmt of the non-empty statements (one statement is returned as is, none as a no-op)."""
    flat = []
    for s in stmts:
        if s is None:
            continue
        if isinstance(s, tirx.SeqStmt):
            flat.extend(s.seq)
        else:
            flat.append(s)
    if not flat:
        return tirx.Evaluate(0)
    return flat[0] if len(flat) == 1 else tirx.SeqStmt(flat)


def is_noop(stmt) -> bool:
    return isinstance(stmt, tirx.Evaluate) and isinstance(stmt.value, tirx.IntImm)


def loop(name: str, extent: int, body_fn) -> tirx.Stmt:
    """``for name in range(extent): body_fn(var)``; extent 1 substitutes 0 and emits no loop."""
    if extent == 1:
        return body_fn(tirx.const(0, "int32"))
    var = tirx.Var(name, "int32")
    return tirx.For(var, 0, extent, tirx.ForKind.SERIAL, body_fn(var))


def map_children(stmt, fn):
    """``stmt`` (a sequence, loop, attribute or branch) with ``fn`` applied to each statement it holds;
    any other statement is returned as it is."""
    if isinstance(stmt, tirx.SeqStmt):
        return seq([fn(s) for s in stmt.seq])
    if isinstance(stmt, tirx.For):
        return with_loop_body(stmt, fn(stmt.body))
    if isinstance(stmt, tirx.AttrStmt):
        return tirx.AttrStmt(stmt.node, stmt.attr_key, stmt.value, fn(stmt.body))
    if isinstance(stmt, tirx.IfThenElse):
        else_case = None if stmt.else_case is None else fn(stmt.else_case)
        return tirx.IfThenElse(stmt.condition, fn(stmt.then_case), else_case)
    return stmt


def with_loop_body(stmt: tirx.For, body: tirx.Stmt) -> tirx.For:
    """``stmt`` with its body replaced; loop variable, range, kind, binding and annotations kept."""
    return tirx.For(
        stmt.loop_var, stmt.min, stmt.extent, stmt.kind, body, stmt.thread_binding, stmt.annotations
    )


def comment(text: str) -> tirx.Evaluate:
    return tirx.Evaluate(ops.call("tt.comment", text))


def dsl_comment(loc: str) -> tirx.Evaluate | None:
    """``// file.py:LINE: <DSL text>`` for a location string, or None when unknown."""
    filename, lineno, _ = split_loc(loc)
    if filename is None:
        return None
    return comment(f"{os.path.basename(filename)}:{lineno}: {dsl_line(loc)}")


def uint_var(name: str) -> tirx.Var:
    return tirx.Var(name, "int32")


def substitute_buffers(stmt, mapping: dict):
    """``stmt`` with each buffer ``old`` of ``mapping`` replaced by ``mapping[old]``: its allocation allocates
    the new buffer (annotations kept) and every mention of the old one names the new one."""

    def new_of(var):
        return next((new for old, new in mapping.items() if old.same_as(var)), None)

    def alloc(node):
        new = new_of(node.buffer)
        return node if new is None else tirx.AllocBuffer(new, node.annotations)

    def var(v):
        new = new_of(v)
        return v if new is None else new

    return tvm_ffi.structural_map(stmt, [(tirx.AllocBuffer, alloc), (tvm.ir.Var, var)], order="post")


def collect_vars(expr) -> list:
    found = []
    tvm_ffi.structural_walk(expr, (tvm.ir.Var, found.append))
    return found


def tensor_loads(node) -> list:
    """Every element load (TensorLoad) under ``node``, an expression or a statement."""
    found = []
    tvm_ffi.structural_walk(node, (tvm.ir.TensorLoad, found.append))
    return found


def is_tensor(var) -> bool:
    """True for a buffer-typed Var (a tensor parameter or allocation), False for scalars."""
    return isinstance(getattr(var, "ty", None), tirx.BufferType)


def tensor_params(func: tirx.PrimFunc) -> list:
    return [p for p in func.params if is_tensor(p)]


def parallel_loc(nest) -> str | None:
    """The DSL location of a ``T.Parallel`` loop nest (its ``tl.loc`` annotation), None for other loops."""
    if not isinstance(nest, tirx.For) or not nest.annotations or "tl.loc" not in nest.annotations:
        return None
    loc = nest.annotations["tl.loc"]
    return loc.value if isinstance(loc, tvm.ir.StringImm) else str(loc)


def first_use_loc(func: tirx.PrimFunc, buf) -> str:
    """The DSL location of the first tile op or ``T.Parallel`` statement using buffer ``buf`` (a Buffer, or
    a name), "" when none does."""
    name = str(buf if isinstance(buf, str) else buf.name)
    found: list[str] = []

    def uses(node) -> bool:
        hits = []
        tvm_ffi.structural_walk(
            node,
            [
                (tirx.BufferStore, lambda s: hits.append(str(s.buffer.name))),
                (tvm.ir.TensorLoad, lambda t: hits.append(str(t.source.name))),
                (tvm.ir.TensorRegion, lambda r: hits.append(str(r.source.name))),
            ],
        )
        return name in hits

    def visit(node):
        if found:
            return
        if isinstance(node, tirx.SeqStmt):
            for s in node.seq:
                visit(s)
        elif parallel_loc(node) is not None:
            if uses(node):
                found.append(parallel_loc(node))
        elif isinstance(node, tirx.For | tirx.AttrStmt):
            visit(node.body)
        elif isinstance(node, tirx.IfThenElse):
            visit(node.then_case)
            if node.else_case is not None:
                visit(node.else_case)
        elif isinstance(node, tirx.Evaluate) and isinstance(node.value, tvm.ir.Call) and uses(node):
            found.append(ops.loc_of(node.value))

    visit(func.body)
    return found[0] if found else ""


_C_ELEMENT = {"uint32": "uint32_t", "float32": "float"}


def l1_pointer_type(var: tirx.Var) -> str:
    """The C++ type of an L1 pointer variable: ``volatile tt_l1_ptr uint32_t*`` (or ``float*``)."""
    return f"volatile tt_l1_ptr {_C_ELEMENT[str(var.ty.element_type.dtype)]}*"


def l1_word_pointer(name: str, dtype: str = "uint32") -> tirx.Var:
    """A variable the kernel declares as ``volatile tt_l1_ptr uint32_t* name`` (``float*`` for float32)."""
    return tirx.Var(name, tvm.ir.PointerType(tvm.ir.PrimType(dtype)))


def l1_words_of(addr, dtype: str = "uint32") -> tvm.ir.Call:
    """The L1 address ``addr`` seen as words: ``reinterpret_cast<volatile tt_l1_ptr uint32_t*>(addr)``
    (``float*`` for float32)."""
    pointer = tvm.ir.PointerType(tvm.ir.PrimType(dtype))
    cast = f"reinterpret_cast<volatile tt_l1_ptr {_C_ELEMENT[dtype]}*>"
    return tvm.ir.Call(tvm.ir.Op.get("tirx.call_extern"), [tvm.ir.StringImm(cast), addr], ret_ty=pointer)


def zero_fill_l1(name: str, addr, nbytes) -> tirx.Stmt:
    """``nbytes`` (a multiple of 4) of L1 at ``addr`` set to zeros, word by word, through a ``volatile
    tt_l1_ptr uint32_t*`` named ``name`` (the pointer and the word array stored through it share it)."""
    words = l1_word_pointer(name)
    view = tirx.decl_buffer((1,), "uint32", words.name)
    word = uint_var("word")
    fill = tirx.BufferStore(view, tirx.const(0, "uint32"), [word])
    return seq(
        [
            tirx.Bind(words, l1_words_of(addr)),
            tirx.For(word, 0, simplify(nbytes // 4), tirx.ForKind.SERIAL, fill),
        ]
    )


def cb_var(entry: CircularBuffer) -> tirx.Var:
    return tirx.Var(entry.name, "int32")


# C++ keywords a DSL name can spell without being a Python keyword (``dO`` → accessor ``do``).
# fmt: off
_CPP_KEYWORDS = frozenset((
    "alignas", "alignof", "asm", "auto", "bool", "char", "char16_t", "char32_t", "const", "const_cast",
    "constexpr", "decltype", "default", "delete", "do", "double", "dynamic_cast", "enum", "explicit",
    "export", "extern", "float", "friend", "goto", "inline", "int", "long", "mutable", "namespace", "new",
    "noexcept", "nullptr", "operator", "private", "protected", "public", "register", "reinterpret_cast",
    "short", "signed", "sizeof", "static", "static_assert", "static_cast", "struct", "switch", "template",
    "this", "thread_local", "throw", "typedef", "typeid", "typename", "union", "unsigned", "using",
    "virtual", "void", "volatile", "wchar_t", "case", "catch",
))
# fmt: on


def cpp_identifier(name: str) -> str:
    """``name`` as a C++ identifier in generated code: a C++ keyword gets a trailing underscore."""
    return f"{name}_" if name in _CPP_KEYWORDS else name


def named(name: str) -> tirx.Var:
    """A free variable the kernel header declares (argument, accessor, tile size); rendered by name."""
    return tirx.Var(name, "int32")


def has_narrow_int(expr) -> bool:
    """Whether ``expr`` has a sub-expression of an integer type narrower than 32 bits (an int8 mask's
    ``mask[k] != 0``), which TVM's simplifier cannot take: its rewrites trip a type check."""
    found = []

    def visit(e):
        dtype = str(getattr(e.ty, "dtype", ""))  # strings and other non-scalar types have none
        if dtype.lstrip("u").startswith("int") and tvm.DataType(dtype).bits < 32:
            found.append(e)

    tvm_ffi.structural_walk(expr, (tvm.ir.Expr, visit))
    return bool(found)
