"""Programs of upstream TileLang, exported as TVMScript, compiled by TileLang-TT.

Upstream ``tilelang`` (0.1.15 on PyPI) runs on its own bundled TVM and a tvm-ffi older than ours, so the two
cannot share a process (README: "Upstream TileLang"). What they share is TVMScript text: upstream prints a
parsed program with ``func.script()``, and this module parses that text with our TVM and turns upstream's
front-end forms into the ones our ``T.*`` produce, after which the program compiles like any other:

    kernel = tilelang_tt.upstream_import.compile_file("gemm.tvmscript", out_idx=[-1], target="wormhole")

The forms upstream prints, and what each becomes:
- ``for bx in T.thread_binding(n, thread="blockIdx.x")`` (``T.Kernel``'s grid) → our launch grid;
- ``tx: T.int32 = T.launch_thread_idx(0)`` → nothing (reading it, SIMT code, is an error);
- ``with T.sblock("tilelang_root")`` → its body; ``T.sblock_alloc_buffer`` → ``T.alloc_shared`` /
  ``alloc_fragment`` / ``alloc_local`` by scope;
- ``T.region(A[i, j], access, *extents)`` → the tile ``A[i:i + e0, j:j + e1]``;
- ``T.copy`` / ``T.fill`` / ``T.gemm`` / ``T.reduce`` over regions → ours (GPU arguments dropped);
- ``T.parallel`` loops (``T.Parallel``) → element loops; ``T.serial(n, annotations={"num_stages": s})``
  (``T.Pipelined``) → a pipelined loop; ``T.match_buffer(..., strides=<compact>)`` → the buffer.
Errors point at lines of the TVMScript file. A form not listed is whatever our ``T`` makes of the name,
or the parser's error naming it.
"""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

import tvm
import tvm.script.tirx as tvmscript
import tvm_ffi
from tvm import tirx
from tvm.script.ir_builder import IRBuilder
from tvm.script.parser.core.diagnostics import Source
from tvm.script.parser.core.error import ParserError
from tvm.script.parser.core.parser import Parser

from . import ops
from . import tvmscript_language as language
from .errors import TTCompileError
from .ir_utils import collect_vars
from .jit import compile as compile_prim_func

__all__ = ["compile_file", "parse_file"]

_PIPELINED = "num_stages"  # upstream's T.Pipelined annotation


def _region(start: tvm.ir.TensorLoad, access_mask: int, *extents) -> tirx.BufferRegion:
    """``T.region(A[i, j], access, e0, e1)``: the tile starting at ``A[i, j]``, the trailing dimensions
    ``extents`` long (leading indices one element)."""
    indices = list(start.indices)
    extents = [1] * (len(indices) - len(extents)) + list(extents)
    return tirx.BufferRegion(
        start.source, [tvm.ir.Range.from_min_extent(i, e) for i, e in zip(indices, extents, strict=True)]
    )


def _copy(src, dst, *gpu_arguments):
    return language.copy(src, dst)


def _gemm(a, b, c, transpose_a, transpose_b, m, n, k, policy, clear_accum, *gpu_arguments):
    return language.gemm(a, b, c, bool(transpose_a), bool(transpose_b), clear_accum=bool(clear_accum))


def _reduce(src, dst, kind: str, dim: int, clear):
    if str(kind) not in language.REDUCE_KINDS:
        raise TypeError(f'T.reduce kind "{kind}" is not one of {", ".join(language.REDUCE_KINDS)}')
    return ops.call("tl.reduce", src, dst, str(kind), int(dim), bool(clear), language._loc())


_THREAD_INDEX = "upstream_thread_index"


def _thread_index(dim: int) -> tvm.ir.Var:
    """``tx = T.launch_thread_idx(0)``: a variable standing for the thread index. A tile program never
    reads it, so its binding is removed after parsing; a program that does read it is an error there."""
    return tirx.Var(f"{_THREAD_INDEX}{int(dim)}", "int32")


def _is_thread_index(stmt) -> bool:
    return (
        isinstance(stmt, tirx.Bind)
        and isinstance(stmt.value, tvm.ir.Var)
        and stmt.value.name.startswith(_THREAD_INDEX)
    )


def _drop_thread_indices(body: tirx.Stmt, source: Source) -> tirx.Stmt:
    """``body`` without its ``tx = T.launch_thread_idx(0)`` bindings, which nothing may read (an error at
    the binding's line of ``source`` if something does)."""
    dropped = []

    def drop(seq: tirx.SeqStmt):
        kept = [stmt for stmt in seq.seq if not _is_thread_index(stmt)]
        dropped.extend((stmt.var, stmt.value) for stmt in seq.seq if _is_thread_index(stmt))
        return seq if len(kept) == len(seq.seq) else tirx.SeqStmt(kept) if len(kept) > 1 else kept[0]

    body = tvm_ffi.structural_map(body, (tirx.SeqStmt, drop), order="post")
    used = collect_vars(body)
    read = [name.name for name, index in dropped if any(v.same_as(name) or v.same_as(index) for v in used)]
    if read:
        binding = re.search(rf"^(\s*){read[0]}\b.*launch_thread_idx", source.source, re.MULTILINE)
        line = source.source.count("\n", 0, binding.start()) + 1 if binding else 1
        raise TTCompileError.at(
            f"{source.source_name}:{line}:{len(binding.group(1)) if binding else 0}",
            f"the program reads the thread index {read[0]} (SIMT code); an upstream program imported as "
            f"TVMScript must be a tile program",
        )
    return body


def _parallel(extent, annotations=None):
    return language.Parallel(extent)


def _serial(start, stop=None, annotations=None, **kwargs):
    if annotations and _PIPELINED in annotations:
        return language.Pipelined(start, stop, num_stages=int(annotations[_PIPELINED]))
    return language.serial(start, stop, annotations=annotations, **kwargs)


def _allocate(shape, dtype="float32", scope="global", **kwargs):
    """``T.sblock_alloc_buffer``: a tile of the scope's kind (upstream's shared memory is "shared.dyn")."""
    if str(scope).startswith("shared"):
        return language.alloc_shared(shape, dtype)
    if scope == "local.fragment":
        return language.alloc_fragment(shape, dtype)
    if scope == "local":
        return language.alloc_local(shape, dtype)
    raise TypeError(f'an allocation in scope "{scope}" is not supported')


def _root_block(name: str):
    """``with T.sblock("tilelang_root")``: upstream's frame around the kernel body; nothing of ours."""
    return contextlib.nullcontext()


def _nothing(*args, **kwargs):
    return None


def _match_buffer(param, shape, dtype="float32", strides=None, **kwargs):
    compact = [1]
    for extent in reversed(list(shape)[1:]):
        compact.insert(0, compact[0] * extent)
    if strides is not None and [int(s) for s in strides] != [int(c) for c in compact]:
        raise TypeError(f"a parameter with strides {list(strides)} (not compact) is not supported")
    return tvmscript.match_buffer(param, shape, dtype, **kwargs)


class _UpstreamT:
    """``T`` as upstream's printed programs use it: upstream's printed forms, else our language's names
    (whose ``__getattr__`` says why a name is not supported, at the line that uses it)."""

    region = staticmethod(_region)
    copy = staticmethod(_copy)
    gemm = staticmethod(_gemm)
    reduce = staticmethod(_reduce)
    parallel = staticmethod(_parallel)
    serial = staticmethod(_serial)
    match_buffer = staticmethod(_match_buffer)
    launch_thread_idx = staticmethod(_thread_index)
    thread_binding = staticmethod(tvmscript.thread_binding)  # the grid's loops, made a grid below
    sblock_alloc_buffer = staticmethod(_allocate)
    sblock = staticmethod(_root_block)
    reads = writes = sblock_attr = staticmethod(_nothing)

    def __getattr__(self, name: str):
        return getattr(language, name)


def _launch_grid(loop: tirx.For):
    """A ``blockIdx`` thread-binding loop → the launch-grid attribute ``T.Kernel`` makes."""
    if loop.kind != tirx.ForKind.THREAD_BINDING or not str(loop.thread_binding.thread_tag).startswith(
        "blockIdx"
    ):
        return loop
    axis = tirx.IterVar(
        tvm.ir.Range(0, loop.extent), loop.loop_var, tirx.IterVar.ThreadIndex, loop.thread_binding.thread_tag
    )
    return tirx.AttrStmt(axis, "thread_extent", loop.extent, loop.body)


def _to_our_forms(func: tirx.PrimFunc, source: Source) -> tirx.PrimFunc:
    """The parsed program as ``T.prim_func`` leaves ours: launch grid, ``finish_parse`` (which makes the
    thread indices' named scalars bindings), no thread indices."""
    func = func.with_body(tvm_ffi.structural_map(func.body, (tirx.For, _launch_grid), order="post"))
    func = language.finish_parse(func)
    return func.with_body(_drop_thread_indices(func.body, source))


def parse_file(path: str | Path) -> tirx.PrimFunc:
    """The PrimFunc in upstream TileLang's TVMScript file ``path``, in our front end's forms."""
    path = Path(path)
    source = Source(path.read_text())
    source.source_name = str(path)
    parser = Parser(source, {})
    try:
        with IRBuilder() as builder:
            try:
                parser.parse(extra_vars={"T": _UpstreamT()})
            except ParserError as err:
                parser.report_error(err.node, err.args[0])
    except tvm.error.DiagnosticError as err:
        raise TTCompileError.from_diagnostic(str(err)) from None
    func = builder.get()
    if not isinstance(func, tirx.PrimFunc):
        raise TTCompileError(f"{path} holds a {type(func).__name__}; expected one T.prim_func")
    func = _to_our_forms(func, source)
    return func.with_attr(language.DEF_LOC_ATTR, f"{path}:1:0")


def compile_file(path: str | Path, **options):
    """``tilelang_tt.compile`` of the program in ``path`` (``parse_file``), with ``compile``'s options."""
    return compile_prim_func(parse_file(path), **options)
