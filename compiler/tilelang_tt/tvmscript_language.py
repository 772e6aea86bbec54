"""The DSL's names, built on TVM's TVMScript ``tirx`` namespace: what ``tilelang_tt.language`` (``T``) hands
out. Users import ``tilelang_tt.language``; see its docstring for the language itself.

Tile operators become ``tl.copy`` / ``tl.gemm`` / ``tl.fill`` calls over ``TensorRegion``s whose last
argument is the "file:line:col" of the DSL line (captured from the TVMScript parser while it evaluates the
function body), so every later error and every generated C++ block can point back at it.
"""

from __future__ import annotations

import difflib
import functools
import inspect
import itertools
import math
import os
import threading
import types

import tvm
import tvm.script.tirx as _T
import tvm_ffi
from tvm import tirx
from tvm.script.ir_builder import IRBuilder
from tvm.script.parser.core import dispatch as _dispatch
from tvm.script.parser.core import doc as _doc
from tvm.script.parser.core import entry as _parser_entry
from tvm.script.parser.core import utils as _parser_utils

from . import dtypes, ops, surface
from .eager_trace import const, dynamic, empty
from .errors import TTCompileError, TTUnsupportedNameError
from .factory import source_def_loc
from .ir_utils import (
    STORAGE_DTYPES_ATTR,
    collect_vars,
    find_ops,
    is_global,
    provably_equal,
    simplify,
    substitute_buffers,
)
from .target import BLOCK_FLOAT_DTYPES, compute_dtype

__all__ = [
    "dtype",
    "prim_func",
    "Tensor",
    "Buffer",
    "Kernel",
    "ceildiv",
    "cdiv",
    "alloc_shared",
    "alloc_fragment",
    "alloc_local",
    "alloc_reducer",
    "alloc_var",
    "alloc_global",
    "get_thread_binding",
    "get_thread_bindings",
    "get_thread_extent",
    "get_thread_extents",
    "get_block_binding",
    "get_block_bindings",
    "get_block_extent",
    "get_block_extents",
    "index_to_coordinates",
    "atomic_add",
    "atomic_max",
    "atomic_min",
    "finalize_reducer",
    "grid",
    "clear",
    "sync_grid",
    "fill",
    "copy",
    "im2col",
    "c2d_im2col",
    "gemm",
    "Pipelined",
    "Persistent",
    "Parallel",
    "GemmWarpPolicy",
    "transpose",
    "serial",
    "Serial",
    "unroll",
    "Unroll",
    "vectorized",
    "Vectorized",
    "clamp",
    "round",
    "let",
    "all_of",
    "any_of",
    "infinity",
    "likely",
    "reduce_sum",
    "reduce_max",
    "reduce_min",
    "reduce_abssum",
    "reduce_absmax",
    "const",
    "dynamic",
    "empty",
]

dtype = dtypes.dtype
AnyDType = dtype | str  # TileLang's annotation for "a dtype in any spelling"
PrimExpr, StringImm = tvm.ir.Expr, tvm.ir.StringImm  # TVM 0.27 calls every expression Expr


def get_tvm_dtype(value) -> tvm.DataType:
    """The TVM DataType of any dtype spelling (``T.float16``, "bfloat16", ``torch.float32`` ...)."""
    return tvm.DataType(dtypes.canonical(value))


_PIPELINED_KEY = "tl.pipelined_stages"
_THIS_DIR = os.path.dirname(os.path.abspath(__file__))


def __getattr__(name: str):
    """Everything else comes from TVMScript's tirx namespace (``T.float32``, ``T.grid``, ``T.int32``...),
    except TileLang names that do not lower on Tenstorrent (``surface.py``): those are an AttributeError
    that says why (TTUnsupportedNameError), at the user's line."""
    rejected = surface.rejection(name)
    if rejected is not None:
        raise TTUnsupportedNameError.at_caller(rejected)
    if name.startswith("__"):
        raise AttributeError(name)
    if name in dtypes.OBJECTS:
        return dtypes.OBJECTS[name]
    try:
        return getattr(_T, name)
    except AttributeError:
        known = sorted(set(__all__) | {n for n in dir(_T) if not n.startswith("_")})
        close = difflib.get_close_matches(name, known, n=3)
        hint = f"; did you mean {' or '.join('T.' + c for c in close)}?" if close else ""
        raise AttributeError(f"T.{name} is not part of the TileLang-TT language{hint}") from None


DEF_LOC_ATTR = "tl.def_loc"  # "file:line:col" of the ``def``, where errors about the whole function point


def _caller_frames() -> list:
    """The frames from the caller outwards, each as ``.frame`` the way TVMScript's closure resolution
    reads ``inspect.stack()`` (which would also look up every frame's source: most of a small parse)."""
    frames, frame = [], inspect.currentframe().f_back
    while frame is not None:
        frames.append(types.SimpleNamespace(frame=frame))
        frame = frame.f_back
    return frames


def prim_func(func=None, private: bool = False, check_well_formed: bool = True):
    """``@T.prim_func``: parse a Python function into a PrimFunc (TVMScript), reporting mistakes in it
    (unknown ``T.*`` names, undefined variables, wrong arguments) as TTCompileError on the user's line.

    ``private`` is read by the parser from the decorator's source text, as in TVMScript."""
    caller_frames = _caller_frames()  # the user's frames, for names only annotations mention (PEP 563)

    def parse(f):
        if not inspect.isfunction(f):
            raise TypeError(f"T.prim_func decorates a function, got {type(f).__name__}")
        captured = _parser_utils.inspect_function_capture(f)
        _parser_utils.resolve_closure_vars(f, captured, caller_frames)
        try:
            parsed = _parser_entry.parse(f, captured, check_well_formed=check_well_formed)
        except tvm.error.DiagnosticError as err:
            raise TTCompileError.from_diagnostic(str(err)) from None
        parsed = finish_parse(parsed).with_attr(DEF_LOC_ATTR, source_def_loc(f) or "")
        parsed.__name__ = f.__name__
        return parsed

    parse.dispatch_token = "tirx"
    return parse(func) if func is not None else parse


prim_func.dispatch_token = "tirx"  # how the parser recognises its own decorator in the source


def finish_parse(func: tirx.PrimFunc) -> tirx.PrimFunc:
    """What TVMScript's parse leaves for us to settle: ``T.Parallel`` locations, named scalars as lets,
    ``T.Persistent`` loops as the launch grid they walk, buffers of one name in different scopes apart, the
    block-float storage of parameters."""
    func = _persistent_to_grid(_named_scalars_to_lets(_unique_buffer_names(_attach_parallel_locs(func))))
    return _record_storage_dtypes(func)


def _record_storage_dtypes(func: tirx.PrimFunc) -> tirx.PrimFunc:
    """Records which parameters ``T.Tensor`` declared with a block-float dtype (STORAGE_DTYPES_ATTR:
    name → dtype) and forgets the declarations (those of abandoned parses too)."""
    declared = list(_declared_storage())
    _declared_storage().clear()
    storage = {str(p.name): dtype for p in func.params for param, dtype in declared if p.same_as(param)}
    if not storage:
        return func
    if func.attrs is not None and STORAGE_DTYPES_ATTR in func.attrs:
        storage = {**{str(k): str(v) for k, v in func.attrs[STORAGE_DTYPES_ATTR].items()}, **storage}
    return func.with_attr(STORAGE_DTYPES_ATTR, storage)


def _unique_buffer_names(func: tirx.PrimFunc) -> tirx.PrimFunc:
    """Python lets two scopes of a kernel name a value alike (``dy_v = ...`` in two ``T.Parallel`` nests);
    each is its own buffer, and the compiler keys buffers (circular buffers, tiles, values) by name: every
    allocation whose name a parameter or an earlier allocation has gets a numbered one (``dy_v_1``)."""
    taken = {str(p.name) for p in func.params}
    renamed: dict = {}

    def visit(node):
        name = str(node.buffer.name)
        if name not in taken:
            taken.add(name)
            return
        n = 1
        while f"{name}_{n}" in taken:
            n += 1
        buf = node.buffer
        renamed[buf] = tirx.decl_buffer(buf.ty.shape, buf.ty.dtype, f"{name}_{n}", scope=buf.ty.storage_scope)
        taken.add(f"{name}_{n}")

    tvm_ffi.structural_walk(func.body, (tirx.AllocBuffer, visit))
    return func.with_body(substitute_buffers(func.body, renamed)) if renamed else func


def _named_scalars_to_lets(func: tirx.PrimFunc) -> tirx.PrimFunc:
    """``x = expr`` in a kernel body parses as a one-element ``local`` buffer stored once and read as
    ``x[0]``; a buffer used that way (one store, straight in a statement sequence, not reading itself) is a
    named value: the store becomes ``Bind(x, expr)`` and each read the variable. Buffers written more than
    once or accumulating (loop-carried values: ``acc[0] += x``) stay buffers."""
    allocs, stores, in_sequence = {}, {}, []

    def visit(node):
        if isinstance(node, tirx.AllocBuffer) and str(node.buffer.ty.storage_scope) == "local":
            if [int(x) for x in node.buffer.ty.shape] == [1]:
                allocs[str(node.buffer.name)] = node.buffer
        elif isinstance(node, tirx.BufferStore):
            stores.setdefault(str(node.buffer.name), []).append(node)
        elif isinstance(node, tirx.SeqStmt):
            in_sequence.extend(s for s in node.seq if isinstance(s, tirx.BufferStore))

    def reads_itself(store) -> bool:
        found = []
        tvm_ffi.structural_walk(
            store.value,
            (tvm.ir.TensorLoad, lambda t: found.append(t) if t.source.same_as(store.buffer) else None),
        )
        return bool(found)

    tvm_ffi.structural_walk(func.body, visit)
    # one store, straight in a statement sequence, that does not accumulate (``acc[0] += x`` is carried)
    names = {
        n
        for n, buf in allocs.items()
        if len(stores.get(n, [])) == 1
        and stores[n][0].buffer.same_as(buf)
        and any(x.same_as(stores[n][0]) for x in in_sequence)
        and not reads_itself(stores[n][0])
    }
    if not names:
        return func
    variables = {n: tirx.Var(n, allocs[n].ty.dtype) for n in names}

    def block(s: tirx.SeqStmt):
        out = []
        for stmt in s.seq:
            if isinstance(stmt, tirx.AllocBuffer) and str(stmt.buffer.name) in names:
                continue
            if isinstance(stmt, tirx.BufferStore) and str(stmt.buffer.name) in names:
                stmt = tirx.Bind(variables[str(stmt.buffer.name)], stmt.value)
            out.append(stmt)
        return tirx.SeqStmt(out) if len(out) > 1 else out[0]

    def load(t):
        return variables[str(t.source.name)] if str(t.source.name) in names else t

    body = tvm_ffi.structural_map(func.body, [(tvm.ir.TensorLoad, load), (tirx.SeqStmt, block)], order="post")
    return func.with_body(body)


# Per thread (parses run in the caller's), the tensor parameters declared with a block-float storage dtype
# since the last finish_parse, as (parameter, dtype): TVM has no such dtypes, so the parameter is a bfloat16
# buffer and finish_parse records its storage in the function attribute STORAGE_DTYPES_ATTR.
_parse_state = threading.local()


def _declared_storage() -> list:
    if not hasattr(_parse_state, "declared_storage"):
        _parse_state.declared_storage = []
    return _parse_state.declared_storage


class _TensorType:
    """``A: T.Tensor((M, K), T.float16)`` — a global tensor parameter; ``T.Tensor(shape, dtype, other.data)``
    is a view of another tensor's memory. ``dtype`` may be a dtype object or string (``T.float`` is
    float32), or a block-float storage dtype ("bfloat8_b", "bfloat4_b": stored as such, computed on as
    bfloat16). The subscript spelling ``T.Tensor[(M, K), T.float16]`` is the same annotation."""

    def __call__(self, shape, dtype="float32", data=None, scope="global", **buffer_options):
        shape = shape if isinstance(shape, tuple | list) else (shape,)  # T.Tensor(n, dtype): one dimension
        dtype = dtypes.canonical(dtype)
        storage = dtype if dtype in BLOCK_FLOAT_DTYPES else None
        if storage is not None and data is not None:
            raise TypeError(
                f"a view of another tensor (T.Tensor(shape, dtype, data)) cannot have dtype {dtype}"
            )
        dtype = compute_dtype(dtype)
        if data is not None:  # a view: declared in the body, where it is evaluated
            return _T.decl_buffer(shape, dtype, data=data, scope=scope, **buffer_options)
        param = _T.Buffer(shape, dtype, data=data, scope=scope, **buffer_options)
        if storage is not None:
            _declared_storage().append((param, storage))
        return param

    def __getitem__(self, key):
        if (
            isinstance(key, tuple)
            and len(key) == 2
            and (isinstance(key[0], tuple | list) or _is_dtype(key[1]))
        ):
            return self(key[0], key[1])  # T.Tensor[(M, K), dtype]; T.Tensor[(batch), dtype]: (batch) is batch
        return self(key)  # T.Tensor[(M, K)]: float32, as T.Tensor((M, K))


def _is_dtype(value) -> bool:
    """Whether ``value`` names a dtype (a string or dtype object), not a size."""
    if not isinstance(value, str | tvm.DataType):
        return False
    try:
        dtypes.canonical(value)
    except (TypeError, ValueError):
        return False
    return True


Tensor = _TensorType()
Buffer = Tensor


def _loc() -> str:
    """ "file:line:col" of the DSL statement being evaluated (TVMScript parser frame, else the caller)."""
    frame = inspect.currentframe()
    fallback = ""
    while frame is not None:
        f_locals = frame.f_locals
        if frame.f_code.co_name == "eval_expr" and "parser" in f_locals and "node" in f_locals:
            source = f_locals["parser"].diag.source
            node = f_locals["node"]
            line = source.start_line + getattr(node, "lineno", 1) - 1
            col = source.start_column + getattr(node, "col_offset", 0)
            return f"{source.source_name}:{line}:{col}"
        filename = frame.f_code.co_filename
        if not fallback and not filename.startswith(_THIS_DIR) and "/tvm/" not in filename:
            fallback = f"{filename}:{frame.f_lineno}:0"
        frame = frame.f_back
    return fallback


def _full_region(buf: tirx.Buffer) -> tvm.ir.TensorRegion:
    return tirx.BufferRegion(buf, [tvm.ir.Range(0, extent) for extent in buf.shape])


def _region(value, like=None) -> tvm.ir.TensorRegion:
    """Buffer, slice (TensorRegion) or start index ``A[i, j]`` → region. A start index takes its extents
    from ``like``, aligned to the trailing dimensions: ``Q[b, h, i, 0]`` into a 2-D tile reads one (b, h)."""
    if isinstance(value, tvm.ir.TensorRegion):
        return value
    if isinstance(value, tirx.Buffer):
        return _full_region(value)
    if isinstance(value, tvm.ir.TensorLoad):
        if like is None:
            raise TypeError("a start index A[i, j] needs a buffer on the other side to take its extents from")
        extents = [r.extent for r in _region(like).region]
        if len(extents) > len(value.indices):
            raise TypeError(
                f"start index of {value.source.name} has {len(value.indices)} indices but the "
                f"other operand has {len(extents)} dimensions"
            )
        extents = [1] * (len(value.indices) - len(extents)) + extents
        return tirx.BufferRegion(
            value.source,
            [tvm.ir.Range.from_min_extent(i, e) for i, e in zip(value.indices, extents, strict=True)],
        )
    raise TypeError(f"expected a buffer, a slice or a start index, got {type(value).__name__}")


class Kernel:
    """``with T.Kernel(gx, gy, gz, threads=...) as (bx, by, bz)``: the launch grid, one to three extents
    (``threads`` is accepted and ignored: a Tenstorrent core runs one thread per RISC role)."""

    AXES = ("blockIdx.x", "blockIdx.y", "blockIdx.z")

    def __init__(self, *grid, threads=None, prelude=None):
        if not 1 <= len(grid) <= 3:
            raise TypeError(f"T.Kernel takes one to three grid extents, got {len(grid)}")
        self.grid = grid
        self.threads = threads
        self._frames = []
        self._threads: dict[int, tirx.Var] = {}
        self.blocks: list[tirx.Var] = []

    _current: list = []  # the kernels being parsed, innermost last

    def __enter__(self):
        Kernel._current.append(self)
        ids = []
        for tag, extent in zip(self.AXES, self.grid, strict=False):
            frame = _T.launch_thread(tag, extent)
            ids.append(frame.__enter__())
            self._frames.append(frame)
        self.blocks = ids
        return ids[0] if len(ids) == 1 else tuple(ids)

    def __exit__(self, *exc):
        for frame in reversed(self._frames):
            frame.__exit__(*exc)
        Kernel._current.remove(self)
        return False

    def thread_extents(self) -> tuple:
        """Threads per block along each dimension (TileLang's default is 128 along x)."""
        return tuple(self.threads) if isinstance(self.threads, tuple | list) else (self.threads or 128,)

    def thread(self, dim: int):
        """The SIMT thread index along ``dim`` (``threads`` per block, TileLang's default 128), launched
        here once; VectorizeThreadsTT turns what each thread does into tile statements."""
        extents = self.thread_extents()
        if not 0 <= dim < len(extents):
            raise TypeError(f"T.get_thread_binding({dim}) in a kernel with threads={self.threads}")
        if dim not in self._threads:
            frame = _T.launch_thread(f"threadIdx.{'xyz'[dim]}", int(extents[dim]))
            self._threads[dim] = frame.__enter__()
            self._frames.append(frame)
        return self._threads[dim]


def _names_kernel(expr) -> bool:
    """Whether a with-statement's expression is a call of ``T.Kernel`` (or ``Kernel``)."""
    func = getattr(expr, "func", None)
    return isinstance(expr, _doc.Call) and (
        (isinstance(func, _doc.Attribute) and func.attr == "Kernel")
        or (isinstance(func, _doc.Name) and func.id == "Kernel")
    )


def _bind_one_index_kernels_like_upstream() -> None:
    """``with T.Kernel(n) as (bx,):``, TileLang's form for a one-dimensional grid, binds bx as ``as bx`` does;
    TVMScript would try to unpack the one index (a variable) and stop with its own message. Installed over
    the tirx dialect's with-statement visitor, which every other with-statement reaches unchanged."""
    visit_with = _dispatch.get(token="tirx", type_name="With")

    def visit_with_kernel_tuple(parser, node):
        for item in node.items:
            target = item.optional_vars
            if isinstance(target, _doc.Tuple) and len(target.elts) == 1 and _names_kernel(item.context_expr):
                item.optional_vars = target.elts[0]
        return visit_with(parser, node)

    _dispatch.register(token="tirx", type_name="With")(visit_with_kernel_tuple)


_bind_one_index_kernels_like_upstream()


def _binds_a_python_callable(parser, node) -> bool:
    """``scan = T.cumsum if op == "cumsum" else T.cummax``: a name for a Python function (or class, or
    module) chosen in the body, bound as Python binds it (TVMScript would make it an IR value and fail).
    Only values without calls are looked at, so nothing is evaluated twice."""
    if len(node.targets) != 1 or not isinstance(node.targets[0], _doc.Name):
        return False
    if not isinstance(node.value, _doc.IfExp | _doc.Name | _doc.Attribute):
        return False
    value = parser.eval_expr(node.value)
    if not (callable(value) or isinstance(value, types.ModuleType)) or isinstance(value, tvm.ir.Node):
        return False
    parser.var_table.add(node.targets[0].id, value, allow_shadowing=True)
    return True


def _assign_chains_like_python() -> None:
    """``A[i] = B[i] = C[i] = 1``, which TileLang's front end takes and TVMScript refuses: as Python, the
    value once (a constant as it is, anything else named first), then each target from left to right.
    Installed over the tirx dialect's assignment visitor, which every single assignment reaches unchanged."""
    visit_assign = _dispatch.get(token="tirx", type_name="Assign")

    def visit_assign_chain(parser, node):
        if _binds_a_python_callable(parser, node):
            return None
        if len(node.targets) < 2:
            return visit_assign(parser, node)
        at = (node.lineno, node.col_offset, node.end_lineno, node.end_col_offset)
        value = node.value
        if not isinstance(value, _doc.Constant):
            name = f"_chain_{node.lineno}_{node.col_offset}"
            visit_assign(parser, _doc.Assign([_doc.Name(name, _doc.Store(), *at)], value, *at))
            value = _doc.Name(name, _doc.Load(), *at)
        for target in node.targets:
            visit_assign(parser, _doc.Assign([target], value, *at))
        return None

    _dispatch.register(token="tirx", type_name="Assign")(visit_assign_chain)


_assign_chains_like_python()


def ceildiv(a, b):
    """⌈a / b⌉, a Python int when both are ints."""
    if isinstance(a, int) and isinstance(b, int):
        return -(-a // b)
    return _T.ceildiv(a, b)


cdiv = ceildiv


def _tile_dtype(dtype) -> str:
    """A tile buffer's dtype. A block-float dtype is a tensor storage, so a tile declared with one holds
    what kernels compute on (bfloat16); the circular buffer that carries a block-float tensor's tiles takes
    the tensor's format whatever its tile buffer says (ApplyTTDefaults)."""
    return compute_dtype(dtypes.canonical(dtype))


def alloc_shared(shape, dtype, scope: str = "shared"):
    """A tile buffer in L1 (lowered to a circular buffer)."""
    return _T.alloc_buffer(shape, _tile_dtype(dtype), scope="shared" if scope == "shared.dyn" else scope)


def alloc_fragment(shape, dtype, scope: str = "local.fragment"):
    """An accumulator tile (kept in DST, spilled to an L1 circular buffer when larger than DST)."""
    return _T.alloc_buffer(shape, _tile_dtype(dtype), scope=scope)


def alloc_global(shape, dtype):
    """A workspace tensor in DRAM, in the function's body before its ``T.Kernel`` blocks (split-KV partial
    outputs that a second kernel combines): passed to each kernel that uses it as one more tensor,
    allocated per call and zero at the start of it (``stages.py``)."""
    return _T.alloc_buffer(shape, dtypes.canonical(dtype), scope="global")


def alloc_local(shape, dtype, scope: str = "local"):
    return _T.alloc_buffer(shape, _tile_dtype(dtype), scope=scope)


def alloc_var(dtype, *args, scope: str = "local.var", init=None):
    """``x = T.alloc_var(T.float32)``: a scalar variable, assigned with ``x = ...`` / ``x += ...`` and read as
    ``x``; ``init`` (keyword, or the one non-string positional argument) is its first value. TileLang's
    positional scope string (``T.alloc_var(T.int32, "local.var")``) is accepted; every scope is a
    variable of the core that runs the statement."""
    positional = [a for a in args if not isinstance(a, str)]
    if len(positional) > 1 or (positional and init is not None):
        raise TypeError("T.alloc_var takes one initial value (positionally or as init=)")
    init = positional[0] if positional else init
    variable = _T.local_scalar(dtype=dtypes.canonical(dtype))
    if init is not None:
        _T.buffer_store(variable.scalar.source, init, [0])
    return variable


def _fill_value(value) -> tirx.PrimExpr:
    """A fill value as a float32 constant (``0``, ``1.5``, ``-T.infinity(T.float32)``)."""
    if isinstance(value, bool | int | float):
        return tirx.const(float(value), "float32")
    folded = simplify(tirx.Cast("float32", value))
    if not isinstance(folded, tirx.FloatImm):
        raise TypeError(f"T.fill takes a constant value, got {value}")
    return folded


def _variable(value) -> tirx.Buffer | None:
    """The buffer of a ``T.alloc_var`` variable (as the parser hands it over), else None."""
    if isinstance(value, _T.scalar_wrapper):
        return value.scalar.source
    if isinstance(value, tvm.ir.TensorLoad) and str(value.source.ty.storage_scope) == "local":
        return value.source
    return None


def _statement(call: tvm.ir.Call) -> None:
    """Emits a tile operation into the function being parsed, where it is called. A kernel may call T.copy,
    T.reduce_sum, ... from a plain Python helper (``_reduce_op(T, op, src, dst)`` in TileLang's tests); the
    parser drops what such a helper returns, so the operation must not depend on being returned."""
    _T.evaluate(call)


def fill(buffer, value):
    """Set every element of ``buffer`` (a shared or fragment tile, a ``T.alloc_var``, or a region of a
    global tensor: the ``T.Parallel`` nest of element stores that means, which reach the tensor through a
    staged tile) to the constant ``value``."""
    variable = _variable(buffer)
    if variable is not None:
        _T.buffer_store(variable, tirx.Cast(variable.ty.dtype, _fill_value(value)), [0])
        return None
    region, loc = _region(buffer), _loc()
    if not is_global(region.source):
        return _statement(ops.call("tl.fill", region, _fill_value(value), loc))
    _T.evaluate(ops.call("tl.loc", loc))  # the nest below is a T.Parallel statement
    frame = _T.grid(*[r.extent for r in region.region])
    ids = frame.__enter__()
    ids = [ids] if isinstance(ids, tvm.ir.Var) else list(ids)
    try:
        element = tirx.Cast(region.source.ty.dtype, _fill_value(value))
        _T.buffer_store(region.source, element, [r.min + i for r, i in zip(region.region, ids, strict=True)])
    finally:
        frame.__exit__(None, None, None)
    return None


def clear(buffer):
    return fill(buffer, 0)


def sync_grid():
    """A barrier across every block of the launch grid (a persistent kernel's phases): the kernel is split
    there into programs that run one after another on the device (stages.py)."""
    return _statement(ops.call("tl.sync_grid", _loc()))


def copy(src, dst, coalesced_width=None, disable_tma: bool = False, eviction_policy=None, loop_layout=None):
    """Copy a tile between any two scopes; ``A[i, j]`` (extents from the other side) or ``A[i:i+n, j:j+m]``.
    ``coalesced_width``, ``disable_tma``, ``eviction_policy`` and ``loop_layout`` are GPU knobs, accepted
    and ignored."""
    src_region = _region(src, like=dst)
    dst_region = _region(dst, like=src_region)
    return _statement(ops.call("tl.copy", src_region, dst_region, _loc()))


def im2col(img, col, nhw_step, c_step, kernel, stride, dilation, pad, eviction_policy=None, annotations=None):
    """The im2col rows of a 2-D convolution into the tile ``col`` (block_M x block_K): row i is output
    position m = nhw_step * block_M + i of the (N, OH, OW) grid, column j is k = c_step * block_K + j of
    the (KH, KW, C) window of the NHWC tensor ``img``, zero where the window reaches into the padding
    (a square ``kernel``, ``stride``, ``dilation``, ``pad``). ``eviction_policy`` and ``annotations``
    are GPU knobs, accepted and ignored."""
    return _statement(
        ops.call(
            "tl.im2col",
            img=_region(img),
            col=_region(col),
            nhw_step=nhw_step,
            c_step=c_step,
            kernel=int(kernel),
            stride=int(stride),
            dilation=int(dilation),
            pad=int(pad),
            loc=_loc(),
        )
    )


c2d_im2col = im2col  # TileLang's older name


def gemm(
    A,
    B,
    C,
    transpose_A: bool = False,
    transpose_B: bool = False,
    policy=None,
    clear_accum: bool = False,
    k_pack: int = 1,
    wg_wait: int = 0,
):
    """C += op(A) @ op(B) on tiles (C = ... with ``clear_accum``); policy, k_pack and wg_wait are GPU
    knobs, accepted and ignored."""
    loc = _loc()
    if clear_accum:
        _T.evaluate(ops.call("tl.fill", _region(C), tirx.const(0.0, "float32"), loc))
    return _statement(
        ops.call("tl.gemm", _region(A), _region(B), _region(C), bool(transpose_A), bool(transpose_B), loc)
    )


def serial(*args, **kwargs):
    """``for k in T.serial(n)``: a sequential loop. Its DSL line is kept (``tl.serial_loc``) so that a
    nest of element statements VectorizeElementLoopsTT turns into tile math reports errors there."""
    _T.evaluate(ops.call("tl.serial_loc", _loc()))
    return _T.serial(*args, **kwargs)


def grid(*extents):
    """``for i, j in T.grid(M, N)``: a nest of sequential loops (see ``serial``)."""
    _T.evaluate(ops.call("tl.serial_loc", _loc()))
    return _T.grid(*extents)


def Serial(*args, **kwargs):  # noqa: N802
    """TileLang's capitalised ``T.serial``."""
    return serial(*args, **kwargs)


def unroll(start, stop=None, step=None, *, explicit: bool = False, unroll_factor=None, annotations=None):
    """``T.unroll``: a sequential loop (whether it is unrolled is the RISC-V kernel compiler's choice)."""
    return serial(start, stop, step, annotations=annotations)


def vectorized(start, stop=None, *, annotations=None):
    """``T.vectorized``: a sequential loop (a tile statement in it covers whole tiles anyway)."""
    return serial(start, stop, annotations=annotations)


Unroll, Vectorized = unroll, vectorized


def clamp(value, min_val=None, max_val=None):
    """``min(max(value, min_val), max_val)``; a bound given as None is left open."""
    if min_val is not None:
        value = _T.max(value, min_val)
    if max_val is not None:
        value = _T.min(value, max_val)
    return value


def round(x, rounding_mode: str = "ties-to-even", span=None):  # noqa: A001 - TileLang's name
    """``T.round(x)``: x rounded to an integer, halves to even (TVM's round; the SFPU's); with
    ``rounding_mode="ties-away-from-zero"`` halves away from zero (C's ``roundf``), built from trunc, a
    comparison of what it cut off and a select: ``x - trunc(x)`` is exact, so the half is seen exactly."""
    if rounding_mode == "ties-to-even":
        return _T.round(x)
    if rounding_mode != "ties-away-from-zero":
        raise TypeError(
            f"T.round: rounding_mode {rounding_mode!r} is not one of 'ties-to-even', 'ties-away-from-zero'"
        )
    if isinstance(x, int | float):
        x = tirx.const(float(x), "float32")
    whole = _T.trunc(x)
    one, zero = (tirx.const(v, str(x.ty)) for v in (1.0, 0.0))
    away = _T.if_then_else(x < zero, zero - one, one)
    return whole + _T.if_then_else(_T.abs(x - whole) >= 0.5, away, zero)


def infinity(dtype, span=None):
    """``T.infinity(dtype)``: +inf of a float dtype (TVM's own knows no bfloat16)."""
    name = str(dtype)
    if not name.startswith(("float", "bfloat")):
        raise TypeError(f"T.infinity: {name} is not a floating-point dtype")
    return tirx.const(float("inf"), name)


def all_of(region):
    """``T.all_of(mask[b, k, :])``: whether every element of a small region (a row of a bool block mask)
    is set — the conjunction of its elements, each a value the kernels read as an index table does."""
    return _fold_region("all_of", region, tirx.And)


def any_of(region):
    """``T.any_of(mask[b, k, :])``: whether some element of a small region is set (their disjunction)."""
    return _fold_region("any_of", region, tirx.Or)


def _fold_region(what: str, region, combine):
    """``combine`` over the elements of ``region`` (a buffer, or a slice of constant extents), each as a
    condition (a number: not zero)."""
    r = _region(region)
    extents = [int(x.extent) if isinstance(x.extent, tirx.IntImm) else None for x in r.region]
    if None in extents or math.prod(extents) > MAX_FOLDED_ELEMENTS:
        raise TypeError(
            f"T.{what} of {r.source.name}: a region of constant extents, at most {MAX_FOLDED_ELEMENTS} "
            f"elements, is supported on Tenstorrent (got {[str(x.extent) for x in r.region]})"
        )
    terms = []
    for offsets in itertools.product(*(range(e) for e in extents)):
        element = tirx.BufferLoad(r.source, [x.min + o for x, o in zip(r.region, offsets, strict=True)])
        terms.append(element if str(element.ty) == "bool" else element != tirx.const(0, str(element.ty)))
    return functools.reduce(combine, terms)


MAX_FOLDED_ELEMENTS = 64  # T.all_of / T.any_of: one condition term per element


class _Let:
    """``T.let``: TVMScript's annotation of a named value (``x: T.let[T.int32] = ...``), and TileLang's
    statement binding a variable declared earlier (``v = T.int32()``; ``T.let(v, ko * block_K)``), after which
    ``v`` names that value."""

    def __getitem__(self, item):
        return _T.let[item]

    def __call__(self, var, value):
        if not isinstance(var, tirx.Var):
            raise TypeError(
                f"T.let binds a variable (v = T.int32(); T.let(v, value)); got {type(var).__name__}"
            )
        _T.bind(value, var=var)


let = _Let()


def likely(condition):
    """A branch-probability hint on GPUs; on Tenstorrent the condition itself."""
    return condition


def atomic_add(dst, value, memory_order=None, return_prev: bool = False, use_tma: bool = False):
    """``T.atomic_add(C[i, j], x)`` in a ``T.Parallel`` nest: C[i, j] += x, whichever grid point adds
    (SerializeSplitKTT makes the grid points that add into one element take turns on one core).
    ``T.atomic_add(C[by * bM, bx * bN], C_local)`` (or a slice ``C[r:r + bM, :]``) adds a whole tile: the
    same, as a ``T.Parallel`` nest over the tile. ``memory_order`` and ``use_tma`` are GPU knobs; the
    previous value cannot be returned."""
    return _atomic("add", dst, value, return_prev)


def atomic_max(dst, value, memory_order=None, return_prev: bool = False):
    """``T.atomic_max(C[i, j], x)``: C[i, j] = max(C[i, j], x), whichever grid point writes; an element in a
    ``T.Parallel`` nest or a whole tile, as ``T.atomic_add``."""
    return _atomic("max", dst, value, return_prev)


def atomic_min(dst, value, memory_order=None, return_prev: bool = False):
    """``T.atomic_min(C[i, j], x)``: C[i, j] = min(C[i, j], x), as ``T.atomic_max``."""
    return _atomic("min", dst, value, return_prev)


def _atomic(kind: str, dst, value, return_prev: bool):
    """One ``tl.atomic_<kind>`` statement per element (``ops.ATOMICS``), or a ``T.Parallel`` nest of them
    over a tile."""
    name = f"T.atomic_{kind}"
    if return_prev:
        raise TypeError(f"{name}(return_prev=True) is not supported on Tenstorrent yet")
    loc = _loc()
    if isinstance(value, tirx.Buffer | tvm.ir.TensorRegion) or isinstance(dst, tvm.ir.TensorRegion):
        _atomic_tile(kind, _region(dst, like=value), _region(value), loc)
        return None
    if not isinstance(dst, tvm.ir.TensorLoad):
        raise TypeError(f"{name} writes into an element C[i, j] or a tile region; got {type(dst).__name__}")
    return _statement(ops.call(f"tl.atomic_{kind}", dst=dst, value=value, loc=loc))


def _atomic_tile(kind: str, dst: tvm.ir.TensorRegion, src: tvm.ir.TensorRegion, loc: str) -> None:
    """``dst op= src`` element by element, written into the function being parsed as the ``T.Parallel``
    nest a user would write: one loop per dimension of ``src`` whose extent is not 1, matched with the
    dimensions of ``dst`` whose extent is not 1, in order."""

    def varying(r):
        return [
            d
            for d, x in enumerate(r.region)
            if not (isinstance(x.extent, tirx.IntImm) and int(x.extent) == 1)
        ]

    src_dims, dst_dims = varying(src), varying(dst)
    src_extents = [src.region[d].extent for d in src_dims]
    dst_extents = [dst.region[d].extent for d in dst_dims]
    if len(src_dims) != len(dst_dims) or not all(map(provably_equal, src_extents, dst_extents)):
        shapes = [", ".join(str(e) for e in extents) for extents in (dst_extents, src_extents)]
        raise TypeError(
            f"T.atomic_{kind}: the region of {dst.source.name} ({shapes[0]}) and the tile {src.source.name} "
            f"({shapes[1]}) differ in shape"
        )
    _T.evaluate(ops.call("tl.loc", loc))
    frame = _T.grid(*src_extents)
    ids = frame.__enter__()
    ids = [ids] if isinstance(ids, tvm.ir.Var) else list(ids)  # one variable, or an Array of them
    for axis, var in enumerate(ids):
        IRBuilder.name(f"i{axis}", var)
    try:
        position = dict(zip(src_dims, ids, strict=True))
        src_index = [r.min + position[d] if d in position else r.min for d, r in enumerate(src.region)]
        position = dict(zip(dst_dims, ids, strict=True))
        dst_index = [r.min + position[d] if d in position else r.min for d, r in enumerate(dst.region)]
        element = tirx.BufferLoad(src.source, src_index)
        target = tirx.BufferLoad(dst.source, dst_index)
        _T.evaluate(ops.call(f"tl.atomic_{kind}", dst=target, value=element, loc=loc))
    finally:
        frame.__exit__(None, None, None)


def _kernel(what: str) -> Kernel:
    if not Kernel._current:
        raise TypeError(f"T.{what} is used inside a T.Kernel")
    return Kernel._current[-1]


def _axis(what: str, values, dim: int):
    if not 0 <= dim < len(values):
        raise TypeError(f"T.{what}({dim}): the kernel has {len(values)} such dimension(s)")
    return values[dim]


def get_thread_binding(dim: int = 0):
    """The index of the current thread along ``dim`` (``threadIdx.x`` for 0) in SIMT-style TileLang code."""
    return _kernel("get_thread_binding").thread(dim)


def get_thread_bindings():
    """The thread indices along every dimension of the block."""
    kernel = _kernel("get_thread_bindings")
    return [kernel.thread(d) for d in range(len(kernel.thread_extents()))]


def get_thread_extent(dim: int = 0):
    """Threads per block along ``dim``."""
    return _axis("get_thread_extent", _kernel("get_thread_extent").thread_extents(), dim)


def get_thread_extents():
    return list(_kernel("get_thread_extents").thread_extents())


def get_block_binding(dim: int = 0):
    """The grid index along ``dim`` (what ``with T.Kernel(...) as (bx, by)`` binds)."""
    return _axis("get_block_binding", _kernel("get_block_binding").blocks, dim)


def get_block_bindings():
    return list(_kernel("get_block_bindings").blocks)


def get_block_extent(dim: int = 0):
    """The grid's extent along ``dim``."""
    return _axis("get_block_extent", _kernel("get_block_extent").grid, dim)


def get_block_extents():
    return list(_kernel("get_block_extents").grid)


def index_to_coordinates(index, shape) -> list:
    """The row-major coordinates of flat ``index`` in ``shape`` (last dimension fastest)."""
    coordinates = []
    for extent in reversed(list(shape)):
        coordinates.append(index % extent)
        index = index // extent
    return coordinates[::-1]


def alloc_reducer(shape, dtype, op: str = "sum", replication=None):
    """TileLang's per-thread reduction buffer: on Tenstorrent a fragment, reduced as a tile
    (``o[i] += x[i, j]`` in ``T.Parallel`` is a row sum, ``o[i] = T.max(o[i], x[i, j])`` a row maximum);
    ``op`` is "sum", "max" or "min"; ``replication`` is a GPU knob."""
    if op not in ("sum", "max", "min"):
        raise TypeError(f'T.alloc_reducer(op="{op}"): "sum", "max" and "min" reducers are supported')
    return alloc_fragment(shape, dtype)


def finalize_reducer(reducer, batch: int = 1):
    """Nothing to do on Tenstorrent: the reduction is complete after the statement that makes it.
    ``batch`` (rows per batched all-reduce on a GPU) must be positive, as upstream checks."""
    if int(batch) < 1:
        raise TypeError(f"T.finalize_reducer: batch must be >= 1, got {batch}")
    return None


def Parallel(*extents, loop_layout=None, prefer_async=None):  # noqa: N802
    """``for i, j in T.Parallel(M, N)``: an element-wise loop nest over a tile; its body is lowered to whole
    tile operations (every element is computed independently). The loops carry their DSL line as the
    ``tl.loc`` annotation (see ``_attach_parallel_locs``); ``loop_layout`` and ``prefer_async`` are GPU
    knobs, accepted and ignored."""
    # A marker statement lands right before the loop nest; the parser wrapper moves it onto the loops.
    _T.evaluate(ops.call("tl.loc", _loc()))
    return _T.grid(*extents)


def _attach_parallel_locs(func: tirx.PrimFunc) -> tirx.PrimFunc:
    """Every ``tl.loc`` (``tl.serial_loc``) marker → a ``tl.loc`` (``tl.serial_loc``) annotation on each
    loop of the nest that follows it."""

    def annotate(nest: tirx.For, key: str, loc: tvm.ir.StringImm) -> tirx.For:
        body = annotate(nest.body, key, loc) if isinstance(nest.body, tirx.For) else nest.body
        annotations = {**(dict(nest.annotations) if nest.annotations else {}), key: loc}
        return tirx.For(
            nest.loop_var, nest.min, nest.extent, nest.kind, body, nest.thread_binding, annotations
        )

    def rewrite(block: tirx.SeqStmt):
        out, pending = [], None
        for stmt in block.seq:
            marker = next((m for m in ("tl.loc", "tl.serial_loc") if ops.is_op(stmt, m)), None)
            if marker is not None:
                pending = (marker, stmt.value.args[0])
                continue
            if pending is not None and isinstance(stmt, tirx.For):
                stmt = annotate(stmt, *pending)
            pending = None
            out.append(stmt)
        return tirx.SeqStmt(out) if len(out) > 1 else out[0]

    return func.with_body(tvm_ffi.structural_map(func.body, (tirx.SeqStmt, rewrite), order="post"))


def Persistent(domain, wave_size, index, group_size=8):  # noqa: N802
    """``for bx, by in T.Persistent([m_blocks, n_blocks], num_workers, worker)`` in a kernel launched as
    ``T.Kernel(num_workers) as worker``: every point of ``domain`` once, the points spread over the
    workers. On Tenstorrent every kernel is persistent already (each core loops over the blocks the work
    partition gives it), so the loop becomes the launch grid: its domain the grid, the worker axis gone
    (``finish_parse``); ``group_size``, a GPU cache-locality order, is accepted and ignored."""
    domain = list(domain)
    _T.evaluate(ops.call("tl.persistent", workers=wave_size, worker=index, dims=len(domain), loc=_loc()))
    return _T.grid(*domain)


def _persistent_to_grid(func: tirx.PrimFunc) -> tirx.PrimFunc:
    """A kernel of one launch axis (the workers) whose body has one ``tl.persistent`` marker followed by
    its loop nest → a kernel launched over the loops' domain, with the nest's body in place of the nest."""
    markers = find_ops(func.body, ("tl.persistent",))
    if not markers:
        return func
    loc = markers[0].loc
    launches, node = [], func.body
    while isinstance(node, tirx.AttrStmt) and node.attr_key == "thread_extent":
        launches.append(node)
        node = node.body
    worker, dims = ops.fields(markers[0].call).worker, int(ops.fields(markers[0].call).dims)
    blocks = [a for a in launches if str(a.node.thread_tag).startswith("blockIdx")]
    if (
        len(markers) > 1
        or markers[0].loops
        or len(blocks) != 1
        or not blocks[0].node.var.same_as(worker)
        or not 1 <= dims <= len(Kernel.AXES)
    ):
        raise TTCompileError.at(
            loc,
            "T.Persistent is supported as the one loop of a kernel launched over its workers alone "
            "(T.Kernel(num_workers) as worker), indexed by that worker",
        )
    found = {}

    def rewrite(block: tirx.SeqStmt):
        out, seq_ = [], list(block.seq)
        for k, stmt in enumerate(seq_):
            if ops.is_op(stmt, "tl.persistent"):
                nest, loops = seq_[k + 1], []
                while len(loops) < dims:  # the T.Persistent loops, not a loop their body starts with
                    loops.append(nest)
                    nest = nest.body
                found["loops"] = loops
                out.append(nest)
                out.extend(seq_[k + 2 :])
                break
            out.append(stmt)
        return tirx.SeqStmt(out) if len(out) > 1 else out[0]

    body = tvm_ffi.structural_map(node, (tirx.SeqStmt, rewrite), order="post")
    if any(v.same_as(worker) for v in collect_vars(body)):
        raise TTCompileError.at(
            loc, "a T.Persistent kernel uses its worker index outside the T.Persistent loop"
        )
    for axis, loop in reversed(list(zip(Kernel.AXES, found["loops"], strict=False))):
        dom = tvm.ir.Range(0, loop.extent)
        body = tirx.AttrStmt(
            tirx.IterVar(dom, loop.loop_var, tirx.IterVar.ThreadIndex, axis),
            "thread_extent",
            loop.extent,
            body,
        )
    for launch in reversed(launches):
        if not launch.same_as(blocks[0]):
            body = tirx.AttrStmt(launch.node, launch.attr_key, launch.value, body)
    return func.with_body(body)


def reshape(src, shape):
    """``T.reshape(A, [N // M, M])``: a view of global tensor ``A``'s memory in another shape with the same
    number of elements (``T.Tensor(shape, dtype, A.data)``). Tile buffers have a fixed tile layout on
    Tenstorrent and cannot be reshaped."""
    return view(src, shape)


def view(src, shape=None, dtype=None):
    """``T.view(A, shape)``: as ``T.reshape``; a ``dtype`` other than ``A``'s (reinterpreting bits) is not
    supported on Tenstorrent."""
    if not isinstance(src, tirx.Buffer) or str(src.ty.storage_scope) != "global":
        raise TypeError(
            "T.reshape / T.view of a tile buffer is not supported on Tenstorrent yet (views of global "
            "tensors are)"
        )
    if dtype is not None and dtypes.canonical(dtype) != str(src.ty.dtype):
        raise TypeError(
            f"T.view of {src.name} as {dtypes.canonical(dtype)}: reinterpreting bits is not supported on "
            "Tenstorrent"
        )
    shape = list(src.ty.shape) if shape is None else list(shape)
    count, src_count = 1, 1
    for extent in shape:
        count = count * extent
    for extent in src.ty.shape:
        src_count = src_count * extent
    if not provably_equal(count, src_count):
        raise TypeError(
            f"T.reshape of {src.name}{tuple(src.ty.shape)} to {tuple(shape)}: the element counts differ"
        )
    return Tensor(shape, str(src.ty.dtype), src.data)


def _scan(what: str, src, dim: int) -> tuple:
    """(region, shape, dim in 0..rank-1, DSL location, a name for its buffers) of ``T.<what>(src,
    dim=dim)``, checked: a vector or a 2-D tile, and a dimension of it."""
    src_region = _region(src)
    shape = [r.extent for r in src_region.region]
    rank = len(shape)
    if rank not in (1, 2):
        raise TypeError(
            f"T.{what} of {src_region.source.name}: vectors and 2-D tiles are supported on Tenstorrent"
        )
    if not -rank <= dim < rank:
        raise TypeError(f"T.{what}: dim {dim} is out of range for the {rank}-D tile {src_region.source.name}")
    loc = _loc()
    line = loc.rsplit(":", 2)[-2] if loc.count(":") >= 2 else "0"
    # the statement's line keeps the names of its buffers apart from another scan's: names must be unique
    return src_region, shape, dim % rank, loc, f"{src_region.source.name}_{what}_line{line}"


def cumsum(src, dst=None, dim: int = 0, reverse: bool = False, annotations=None):
    """``T.cumsum(src, dst=None, dim=0, reverse=False)``: the inclusive running sum of a 2-D tile along
    ``dim`` (into ``src`` itself without ``dst``; ``reverse`` sums from the end). A Tenstorrent core has no
    scan unit, but a running sum is a product with a triangular matrix of ones, which the matrix engine
    computes a tile at a time: along rows (dim=1) ``src @ U`` with ``U[k, j] = (k <= j)``, down columns
    (dim=0) ``L @ src`` with ``L[i, k] = (k <= i)`` (``>=`` when reversed). The triangle is a tile the
    reader generates; the product accumulates in float32. A vector (one line, which a product would need as
    a tile of one row) takes the masked scan of ``T.cummax`` instead. ``annotations`` is accepted and
    ignored."""
    if len(_region(src).region) == 1:
        return _masked_scan("cumsum", "sum", src, dst, dim, reverse)
    src_region, shape, dim, loc, name = _scan("cumsum", src, dim)
    n = shape[dim]
    triangle = _T.alloc_buffer((n, n), "float32", scope="shared")
    IRBuilder.name(f"{name}_triangle", triangle)
    _T.evaluate(ops.call("tl.loc", loc))  # the nest below is a T.Parallel statement
    frame = _T.grid(n, n)
    k, j = frame.__enter__()
    IRBuilder.name("tri_row", k)
    IRBuilder.name("tri_col", j)
    try:
        # row dim=1: U[k, j], summing src[:, k] into column j; dim=0: L[j, k], summing src[k, :] into row j
        keep = (k >= j if reverse else k <= j) if dim == 1 else (k <= j if reverse else k >= j)
        one, zero = tirx.const(1.0, "float32"), tirx.const(0.0, "float32")
        _T.buffer_store(triangle, _T.if_then_else(keep, one, zero), [k, j])
    finally:
        frame.__exit__(None, None, None)
    total = _T.alloc_buffer(tuple(shape), "float32", scope="local.fragment")
    IRBuilder.name(f"{name}_sum", total)
    whole = _full_region(triangle)
    _T.evaluate(ops.call("tl.fill", _full_region(total), tirx.const(0.0, "float32"), loc))
    a, b = (src_region, whole) if dim == 1 else (whole, src_region)
    _T.evaluate(ops.call("tl.gemm", a, b, _full_region(total), False, False, loc))
    _T.evaluate(ops.call("tl.copy", _full_region(total), _region(dst if dst is not None else src), loc))
    return None


def cummax(src, dst=None, dim: int = 0, reverse: bool = False, annotations=None):
    """``T.cummax(src, dst=None, dim=0, reverse=False)``: the running maximum of a vector, or of a 2-D tile
    along ``dim`` (into ``src`` itself without ``dst``; ``reverse`` runs from the end). The matrix engine
    that computes ``T.cumsum`` adds rather than takes maxima: a masked scan (``_masked_scan``), exact.
    ``annotations`` is accepted and ignored."""
    _masked_scan("cummax", "max", src, dst, dim, reverse)


def _masked_scan(what: str, kind: str, src, dst, dim: int, reverse: bool) -> None:
    """``T.<what>`` as the running ``kind`` ("max", "sum") of a vector or a 2-D tile along ``dim``, with
    no scan unit: element ``k`` of each line is the ``kind`` of the line masked to the positions up to
    ``k`` (from ``k`` when reversed) — a loop over the line's ``n`` positions, each a masked copy, a
    reduction along ``dim`` and a select of its result into position ``k``: ``n`` passes over the tile."""
    src_region, shape, dim, loc, name = _scan(what, src, dim)
    source = src_region.source
    rank = len(shape)
    masked = _T.alloc_buffer(tuple(shape), "float32", scope="local.fragment")
    IRBuilder.name(f"{name}_masked", masked)
    running = _T.alloc_buffer(tuple(shape), "float32", scope="local.fragment")
    IRBuilder.name(f"{name}_result", running)
    lane = _T.alloc_buffer((shape[1 - dim],) if rank == 2 else (1,), "float32", scope="local.fragment")
    IRBuilder.name(f"{name}_line", lane)
    _T.evaluate(ops.call("tl.copy", src_region, _full_region(running), loc))

    def parallel(store):
        """``for *ids in T.Parallel(*shape): store(ids)``, as the DSL writes it."""
        _T.evaluate(ops.call("tl.loc", loc))
        frame = _T.grid(*shape)
        ids = frame.__enter__()
        ids = [ids] if isinstance(ids, tvm.ir.Var) else list(ids)
        for axis, var in enumerate(ids):
            IRBuilder.name(f"{name}_{'ij'[axis]}", var)
        try:
            store(ids)
        finally:
            frame.__exit__(None, None, None)

    _T.evaluate(ops.call("tl.serial_loc", loc))
    steps = _T.serial(shape[dim])
    k = steps.__enter__()
    IRBuilder.name(f"{name}_k", k)
    try:
        identity = tirx.const(float("-inf") if kind == "max" else 0.0, "float32")

        def mask(ids):
            keep = ids[dim] >= k if reverse else ids[dim] <= k
            value = tirx.BufferLoad(source, [r.min + x for r, x in zip(src_region.region, ids, strict=True)])
            value = value if str(source.ty.dtype) == "float32" else tirx.Cast("float32", value)
            _T.buffer_store(masked, _T.if_then_else(keep, value, identity), ids)

        parallel(mask)
        _T.evaluate(ops.call("tl.reduce", _full_region(masked), _full_region(lane), kind, dim, True, loc))

        def place(ids):
            line = tirx.BufferLoad(lane, [ids[1 - dim]] if rank == 2 else [0])
            kept = tirx.BufferLoad(running, ids)
            _T.buffer_store(running, _T.if_then_else(ids[dim] == k, line, kept), ids)

        parallel(place)
    finally:
        steps.__exit__(None, None, None)
    _T.evaluate(ops.call("tl.copy", _full_region(running), _region(dst if dst is not None else src), loc))


def transpose(src, dst, annotations=None):
    """``dst[j, i] = src[i, j]`` for two tile buffers (``annotations`` is accepted and ignored)."""
    return _statement(ops.call("tl.transpose", _region(src), _region(dst), _loc()))


REDUCE_KINDS = ("sum", "max", "min", "abssum", "absmax")


def _reduce(kind: str, src, dst, dim: int, clear: bool, batch: int = 1, nan_propagate: bool = False) -> None:
    """One reduction statement. ``batch`` (rows per batched all-reduce) and ``annotations`` are GPU knobs;
    ``nan_propagate`` asks max/min to return NaN when a row holds one."""
    rank = len(src.shape)
    if not -rank <= dim < rank:
        raise TypeError(f"T.reduce_{kind}: dim {dim} is out of range for the {rank}-D buffer {src.name}")
    if int(batch) < 1:
        raise TypeError(f"T.reduce_{kind}: batch must be >= 1, got {batch}")
    if nan_propagate:
        raise TypeError(f"T.reduce_{kind}(nan_propagate=True) is not supported on Tenstorrent yet")
    return _statement(
        ops.call("tl.reduce", _region(src), _region(dst), kind, dim % rank, bool(clear), _loc())
    )


def reduce_sum(buffer, out, dim: int = -1, clear: bool = True, batch: int = 1, annotations=None):
    """``out[i] (+)= Σ_j buffer[i, j]`` for dim=1 (or -1); dim=0 sums over rows."""
    return _reduce("sum", buffer, out, dim, clear, batch)


def reduce_max(
    buffer, out, dim: int = -1, clear: bool = True, batch: int = 1, nan_propagate=False, annotations=None
):
    """``out = max(buffer, dim)``; with ``clear=False`` also the max with ``out``'s current value."""
    return _reduce("max", buffer, out, dim, clear, batch, nan_propagate)


def reduce_min(
    buffer, out, dim: int = -1, clear: bool = True, batch: int = 1, nan_propagate=False, annotations=None
):
    return _reduce("min", buffer, out, dim, clear, batch, nan_propagate)


def reduce_abssum(buffer, out, dim: int = -1, clear: bool = True, batch: int = 1, annotations=None):
    return _reduce("abssum", buffer, out, dim, clear, batch)


def reduce_absmax(
    buffer, out, dim: int = -1, clear: bool = True, batch: int = 1, nan_propagate=False, annotations=None
):
    return _reduce("absmax", buffer, out, dim, clear, batch, nan_propagate)


class GemmWarpPolicy:
    """TileLang's warp partition policies for ``T.gemm(policy=...)``: accepted and ignored (a Tenstorrent
    core's matrix engine takes whole tiles)."""

    Square, FullRow, FullCol = 0, 1, 2


def Pipelined(start, stop=None, num_stages: int = 0, order=None, stage=None, sync=None, group=None):  # noqa: N802
    """``for k in T.Pipelined(n, num_stages=s)``: a serial loop whose tiles are multi-buffered s deep."""
    if stop is None:
        start, stop = 0, start
    return _T.serial(start, stop, annotations={_PIPELINED_KEY: int(num_stages)})


def _ignored(name: str, reason: str):
    """A GPU hint of TileLang's that means nothing on a Tenstorrent core: accepted with any arguments."""

    def hint(*args, **kwargs):
        return None

    hint.__name__ = name
    hint.__doc__ = f"``T.{name}``: accepted and ignored ({reason})."
    return hint


for _name in surface.names_with(surface.IGNORED):
    if _name not in globals():
        globals()[_name] = _ignored(_name, surface.standing(_name).reason)
        __all__.append(_name)
del _name


def _fast_math(name: str):
    """TileLang's fast-math spelling ``T.__exp`` of ``T.exp``: the SFPU has one accuracy for each function;
    like upstream's, it takes floating-point values only."""
    function = getattr(_T, name[2:])

    def fast(x):
        dtype = str(x.ty) if isinstance(x, tvm.ir.Node) and hasattr(x, "ty") else "float32"
        if not dtype.startswith(("float", "bfloat")) or dtype.startswith("float8"):
            raise TypeError(f"T.{name} only supports floating-point inputs, but got {dtype}")
        return function(x)

    fast.__name__ = fast.__qualname__ = name
    return fast


globals().update({name: _fast_math(name) for name in surface.FAST_MATH})
