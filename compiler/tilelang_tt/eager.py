"""The eager style of ``@tilelang.jit``: the decorated function is the kernel, its tensors are parameters.

    @tilelang.jit
    def matmul(A, B, block_M, block_N, block_K, dtype="bfloat16", accum_dtype="float"):
        M, N, K = T.const("M, N, K")             # shape constants, bound per call
        A: T.Tensor((M, K), dtype)               # annotation-only statements make A, B tensor parameters
        B: T.Tensor((K, N), dtype)
        C = T.empty((M, N), dtype)               # an output the kernel allocates
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            ...
        return C                                 # every T.empty, in the order of out_idx

    c = matmul(a, b, 64, 64, 32)                 # M, N, K from a.shape and b.shape; compiles once per shape
    kernel = matmul.compile(M=256, N=256, K=128, block_M=64, block_N=64, block_K=32)   # a JITKernel
    c = kernel(a, b)

How it works. The function's statements before its first ``with T.Kernel`` (the prologue) run as Python
with the non-tensor arguments bound; the ``with`` statements are the kernel body, parsed by TVMScript as
a ``T.prim_func`` whose parameters are the annotated tensors, then the T.empty outputs (in ``return``
order). The prologue runs twice per new call: first with each ``T.const`` as a symbolic Var, which shows
where each constant appears among the tensor dimensions (once per distinct non-tensor arguments), then
with the constants' values (a keyword argument of that name, else the size of the first tensor dimension
that is exactly the constant), giving a static kernel per distinct shape. Errors in the kernel body point
at the user's lines, because the parsed source keeps every line where it is in the user's file.

``T.dynamic("m")`` is a ``T.const`` of one name (TileLang's dynamic dimension: a kernel per distinct size).

Not supported (a TTCompileError says so): signature annotations, scalar parameters (``n: T.int32``),
statements after the kernel other than ``return``, and a constant that is only used
inside expressions (``(M * 2, K)``) and not passed by keyword.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import linecache
import textwrap
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from . import language
from .eager_trace import TRACE, Output, Trace
from .errors import TTArgumentError, TTCompileError
from .factory import KernelFactory, freeze, source_def_loc

if TYPE_CHECKING:  # imported where used, so that telling an eager function from a factory needs no TVM
    from tvm import tirx
    from tvm.script.parser.core.diagnostics import Source

__all__ = ["OUT_IDX_ATTR", "EagerKernelFactory", "is_eager"]

OUT_IDX_ATTR = "tl.out_idx"  # on an eager PrimFunc: its T.empty outputs as negative parameter indices
_DECLARE_TENSOR = "__tt_declare_tensor__"
_PRIM_FUNC = "__tt_prim_func__"


def _kernel_with(stmt: ast.stmt) -> bool:
    """``with T.Kernel(...) as ...:`` (any spelling of the module: ``T.Kernel``, ``Kernel``)."""
    if not isinstance(stmt, ast.With):
        return False
    call = stmt.items[0].context_expr
    target = call.func if isinstance(call, ast.Call) else None
    return (isinstance(target, ast.Attribute) and target.attr == "Kernel") or (
        isinstance(target, ast.Name) and target.id == "Kernel"
    )


def _function_ast(func: Callable) -> tuple[list[str], int, int, ast.FunctionDef] | None:
    """(dedented source lines, first line in the file, indentation, the def) of ``func``, or None."""
    try:
        lines, first = inspect.getsourcelines(func)
    except (OSError, TypeError):
        return None
    indent = len(lines[0]) - len(lines[0].lstrip())
    dedented = textwrap.dedent("".join(lines)).splitlines()
    try:
        module = ast.parse("\n".join(dedented))
    except SyntaxError:
        return None
    defs = [n for n in module.body if isinstance(n, ast.FunctionDef) and n.name == func.__name__]
    return (dedented, first, indent, defs[0]) if defs else None


def is_eager(func: Callable) -> bool:
    """Whether ``func``'s own body opens ``with T.Kernel(...)`` (eager) rather than building a PrimFunc."""
    parsed = _function_ast(func)
    return parsed is not None and any(_kernel_with(s) for s in parsed[3].body)


class _DeclareTensors(ast.NodeTransformer):
    """``A: T.Tensor(...)`` (no value) → ``A = __tt_declare_tensor__("A", T.Tensor(...), "file:line:col")``
    (the location, for errors about the annotation)."""

    def __init__(self, params: set[str], where: Callable[[ast.AST], tuple[str, int, int]]):
        self.params, self.where, self.names = params, where, []

    def visit_AnnAssign(self, node: ast.AnnAssign):
        if node.value is not None or not isinstance(node.target, ast.Name):
            return node
        name = node.target.id
        if name not in self.params:
            raise TTCompileError(f"{name} is annotated as a tensor but is not a parameter", *self.where(node))
        self.names.append(name)
        loc = ast.Constant(":".join(str(part) for part in self.where(node)))
        call = ast.Call(ast.Name(_DECLARE_TENSOR, ast.Load()), [ast.Constant(name), node.annotation, loc], [])
        return ast.copy_location(ast.Assign([ast.Name(name, ast.Store())], call), node)


@dataclasses.dataclass
class _Template:
    """The symbolic run: the constants and where each first appears as a whole tensor dimension."""

    consts: list[str]
    dims: dict[str, tuple[str, int]]  # const → (tensor parameter, dimension)
    shapes: dict[str, tuple]  # tensor parameter → its annotated shape


def _is_dtype_annotation(node: ast.expr) -> bool:
    """``T.dtype`` / ``dtype`` (any module prefix), or a Python scalar type (``BLOCK_N: int``): the
    annotation of a parameter that is not a tensor."""
    return (isinstance(node, ast.Attribute) and node.attr == "dtype") or (
        isinstance(node, ast.Name) and node.id in ("dtype", "int", "float", "bool", "str")
    )


class EagerKernelFactory(KernelFactory):
    """An eager-style ``@tilelang.jit`` function: call it with tensors, or ``.compile(**consts)``."""

    def __init__(self, func: Callable, compile_fn: Callable):
        super().__init__(func, compile_fn)
        self.lines, self.first_line, self.indent, fdef = _function_ast(func)
        self.def_index = fdef.lineno - 1  # of the `def` line in self.lines (decorators come before it)
        self.filename = inspect.getsourcefile(func)
        self.def_loc = source_def_loc(func)
        for arg in fdef.args.args + fdef.args.kwonlyargs:
            # ``dtype: T.dtype = T.float16`` types a non-tensor parameter; tensors are declared in the body.
            if arg.annotation is not None and not _is_dtype_annotation(arg.annotation):
                raise TTCompileError(
                    "an eager @tilelang.jit kernel declares tensors in its body (`A: T.Tensor(...)`), not "
                    "with annotations in the signature",
                    *self._where(arg),
                )
        kernel_at = next(i for i, s in enumerate(fdef.body) if _kernel_with(s))
        prologue, rest = fdef.body[:kernel_at], fdef.body[kernel_at:]
        self.returns: list[str] = []
        if isinstance(rest[-1], ast.Return):
            self.returns = self._returned_names(rest.pop())
        for stmt in rest:
            if not _kernel_with(stmt):
                raise TTCompileError(
                    "after `with T.Kernel(...)` an eager @tilelang.jit kernel may only `return` its "
                    "T.empty outputs; move this statement before the kernel or into it",
                    *self._where(stmt),
                )
        self.kernel_stmts = rest
        declare = _DeclareTensors(set(self.signature.parameters), self._where)
        module = ast.Module([declare.visit(s) for s in prologue], type_ignores=[])
        for node in ast.walk(module):  # the user's file positions, for tracebacks of the prologue
            if hasattr(node, "lineno"):
                node.lineno += self.first_line - 1
                node.end_lineno = (node.end_lineno or node.lineno) + self.first_line - 1
                node.col_offset += self.indent
                node.end_col_offset = (node.end_col_offset or 0) + self.indent
        self.prologue = compile(ast.fix_missing_locations(module), self.filename, "exec", dont_inherit=True)
        self.tensor_params = [p for p in self.signature.parameters if p in declare.names]
        self._templates: dict = {}

    def _where(self, node: ast.AST) -> tuple[str, int, int]:
        return self.filename, self.first_line + node.lineno - 1, self.indent + node.col_offset

    def _returned_names(self, ret: ast.Return) -> list[str]:
        values = ret.value.elts if isinstance(ret.value, ast.Tuple) else [ret.value] if ret.value else []
        if not all(isinstance(v, ast.Name) for v in values):
            raise TTCompileError(
                "an eager kernel returns the names its T.empty outputs are bound to", *self._where(ret)
            )
        return [v.id for v in values]

    # -- arguments -------------------------------------------------------------------------------------
    def _split(self, args, kwargs) -> tuple[inspect.BoundArguments, dict]:
        """The call's parameters (tensor parameters not given are None) and its constant keywords."""
        params = {k: v for k, v in kwargs.items() if k in self.signature.parameters}
        consts = {k: v for k, v in kwargs.items() if k not in params}
        try:
            bound = self.signature.bind_partial(*args, **params)
        except TypeError as err:
            raise TypeError(f"{self.func.__name__}(): {err}") from None
        for name in self.tensor_params:
            bound.arguments.setdefault(name, None)
        bound.apply_defaults()
        missing = [p for p in self.signature.parameters if p not in bound.arguments]
        if missing:
            raise TypeError(f"{self.func.__name__}(): missing argument {', '.join(missing)}")
        return bound, consts

    def _static_key(self, bound: inspect.BoundArguments) -> tuple:
        return tuple(
            (name, freeze(value, f"argument {name} of {self.func.__name__}"))
            for name, value in bound.arguments.items()
            if name not in self.tensor_params
        )

    # -- the two runs of the prologue ------------------------------------------------------------------
    def _run_prologue(self, bound: inspect.BoundArguments, const_values: dict | None) -> tuple[Trace, dict]:
        trace = Trace(const_values)

        def declare_tensor(name, annotation, loc):
            if not hasattr(annotation, "shape") or not hasattr(annotation, "dtype"):
                raise TTCompileError.at(
                    loc,
                    f"{name}: an eager kernel's annotated parameters are tensors (T.Tensor(shape, dtype)); "
                    f"scalar parameters are not supported on Tenstorrent yet",
                )
            trace.tensors[name] = annotation
            return annotation

        namespace = dict(self.func.__globals__)
        namespace.update(inspect.getclosurevars(self.func).nonlocals)
        namespace.update(bound.arguments)
        namespace[_DECLARE_TENSOR] = declare_tensor
        token = TRACE.set(trace)
        try:
            exec(self.prologue, namespace)  # noqa: S102 -- the user's own function body
        finally:
            TRACE.reset(token)
        return trace, namespace

    def const_names(self) -> list[str]:
        """The ``T.const`` sizes (given by a call's tensors, or by name to ``.compile``), for the defaults."""
        bound, _ = self._split((), {})
        return list(self._template(bound).consts)

    def _template(self, bound: inspect.BoundArguments) -> _Template:
        from tvm import tirx

        key = self._static_key(bound)
        if key not in self._templates:
            trace, _ = self._run_prologue(bound, None)
            dims: dict[str, tuple[str, int]] = {}
            for name, annotation in trace.tensors.items():
                for d, extent in enumerate(annotation.shape):
                    if isinstance(extent, tirx.Var) and extent.name in trace.consts:
                        dims.setdefault(extent.name, (name, d))
            shapes = {name: tuple(a.shape) for name, a in trace.tensors.items()}
            self._templates[key] = _Template(list(trace.consts), dims, shapes)
        return self._templates[key]

    def _const_values(self, template: _Template, bound: inspect.BoundArguments, given: dict) -> dict:
        unknown = sorted(set(given) - set(template.consts))
        if unknown:
            raise TypeError(
                f"{self.func.__name__}() got unexpected keyword argument(s) {', '.join(unknown)} (neither a "
                f"parameter nor a T.const: {', '.join(template.consts) or 'none'})"
            )
        for name in self.tensor_params:
            value = bound.arguments[name]
            shape = template.shapes[name]
            if value is not None and len(np.shape(value)) != len(shape):
                raise TTArgumentError(
                    f"{self.func.__name__}: {name} must have {len(shape)} dimensions {shape}, got shape "
                    f"{np.shape(value)}"
                )
        values = {}
        for name in template.consts:
            if name in given:
                values[name] = int(given[name])
                continue
            param, d = template.dims.get(name, (None, None))
            if param is None or bound.arguments[param] is None:
                where = f"dimension {d} of {param}" if param else "no tensor dimension by itself"
                raise TTArgumentError(
                    f"{self.func.__name__}: T.const {name} has no value: pass {name}=<int> or the tensor "
                    f"whose shape gives it ({where})"
                )
            values[name] = int(np.shape(bound.arguments[param])[d])  # arrays or nested lists
        return values

    # -- the kernel ------------------------------------------------------------------------------------
    def _kernel_source(self, params: list[str]) -> Source:
        """The user's lines with the prologue and ``return`` blanked, the def line replaced by a
        ``T.prim_func`` header over ``params``; line i of the text is line start_line + i of the file."""
        from tvm.script.parser.core.diagnostics import Source

        fdef_line = self.def_index
        # A line before the def for the decorator: the user's own decorator line, or one added in front
        # (an undecorated function passed to tilelang.jit), which shifts the text's first line up by one.
        text = [""] * (len(self.lines) + 1)
        lines = [""] + list(self.lines)
        text[fdef_line] = f"@{_PRIM_FUNC}"
        header = ", ".join(f"{p}: __tt_param_{p}__" for p in params)
        text[fdef_line + 1] = f"def {self.func.__name__}({header}):"
        for stmt in self.kernel_stmts:
            text[stmt.lineno : stmt.end_lineno + 1] = lines[stmt.lineno : stmt.end_lineno + 1]
        source = Source("\n".join(text[fdef_line:]))
        source.source_name = self.filename
        source.start_line = self.first_line + fdef_line - 1
        source.start_column = self.indent
        source.full_source = "".join(linecache.getlines(self.filename))
        return source

    def _parse(self, source: Source, namespace: dict) -> tirx.PrimFunc:
        """TVMScript's parse of ``source`` (as ``tvm.script.parser.core.entry.parse``, well-formedness
        checks included) with the prologue's names in scope; a mistake is a located TTCompileError."""
        import tvm
        from tvm.script.ir_builder import IRBuilder
        from tvm.script.parser.core.error import ParserError
        from tvm.script.parser.core.parser import Parser

        parser = Parser(source, {})
        try:
            with IRBuilder() as builder:
                try:
                    parser.parse(extra_vars=namespace)
                except ParserError as err:
                    parser.report_error(err.node, err.args[0])
            func = builder.get()
            try:
                tvm.s_tir.analysis.verify_well_formed(tvm.IRModule.from_expr(func))
                tvm.tirx.analysis.verify_tirx_well_formed(func)
            except Exception as err:  # noqa: BLE001 -- reported as the parser reports it
                parser.report_error(source.as_ast(), f"the kernel is not well-formed: {err}")
        except tvm.error.DiagnosticError as err:
            raise TTCompileError.from_diagnostic(str(err)) from None
        return func

    def get_tir(self, *args, **kwargs) -> tirx.PrimFunc:
        """The static PrimFunc for these arguments (tensors and/or constants by keyword)."""
        bound, given = self._split(args, kwargs)
        const_values = self._const_values(self._template(bound), bound, given)
        trace, namespace = self._run_prologue(bound, const_values)
        outputs = {n: v for n, v in namespace.items() if isinstance(v, Output)}
        if sorted(self.returns) != sorted(outputs):
            raise TTCompileError.at(
                self.def_loc,
                f"an eager kernel returns every T.empty output and nothing else: it declares "
                f"{', '.join(outputs) or 'none'} and returns {', '.join(self.returns) or 'nothing'}",
            )
        params = self.tensor_params + self.returns
        namespace[_PRIM_FUNC] = language.prim_func
        for name, annotation in trace.tensors.items():
            namespace[f"__tt_param_{name}__"] = annotation
        for name in self.returns:
            namespace[f"__tt_param_{name}__"] = language.Tensor(outputs[name].shape, outputs[name].dtype)
        func = self._parse(self._kernel_source(params), namespace)
        n = len(self.returns)
        func = language.finish_parse(func).with_attr(language.DEF_LOC_ATTR, self.def_loc)
        return func.with_attr(OUT_IDX_ATTR, [i - n for i in range(n)]) if n else func

    def compile(self, *args, **kwargs):
        """The JITKernel for these arguments, compiled once per distinct constants and non-tensor
        arguments (``matmul.compile(M=1024, N=1024, K=1024, block_M=128, ...)``)."""
        bound, given = self._split(args, kwargs)
        const_values = self._const_values(self._template(bound), bound, given)
        key = (self._static_key(bound), tuple(sorted(const_values.items())))
        return self.cached_kernel(key, lambda: self.get_tir(*args, **kwargs))

    def __call__(self, *args, **kwargs):
        """Compile for these tensors' shapes if needed, run, and return the T.empty outputs."""
        bound, _ = self._split(args, kwargs)
        absent = [name for name in self.tensor_params if bound.arguments[name] is None]
        if absent:
            raise TTArgumentError(
                f"{self.func.__name__}() needs its tensor argument(s) {', '.join(absent)}; use "
                f"{self.func.__name__}.compile(...) to build the kernel without tensors"
            )
        kernel = self.compile(*args, **kwargs)
        return kernel(*[bound.arguments[name] for name in self.tensor_params])
