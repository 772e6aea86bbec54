"""Before/Expected pass tests: hand-written TVMScript in, one pass applied alone, expected TVMScript out.

    from before_after import T, assert_pass

    @T.prim_func(private=True)  # private: no global_symbol, so before and expected may differ in name
    def before(...): ...
    @T.prim_func(private=True)
    def expected(...): ...

    def test_...():
        assert_pass(LegalizeVectorsTT(), before, expected)

``T`` is ``tvm.script.tirx`` with the operators of ``tilelang_tt.ops`` parseable the way they print:
``T.tl.copy(src, dst, loc)``, ``T.tt.read_to_cb(...)``, ``T.tt.tile.operand(cb, "col")``. A Python int
argument becomes an int32 ``IntImm`` and a str a ``StringImm``, as ``ops.call`` makes them.
"""

from __future__ import annotations

import tvm
import tvm_ffi
from tilelang_tt import ops
from tilelang_tt.records import Options, TensorAccessor
from tilelang_tt.target import DATA_FORMATS, get_target
from tvm import tirx
from tvm.script import tirx as T
from tvm.tirx.script.builder.ir import register_script_namespace

__all__ = ["T", "assert_pass", "module_of", "WORMHOLE", "DEFAULT_OPTIONS", "dram_tensor_64x64"]

# The printed form of a call does not carry its return dtype; these are the tl./tt. operators that return
# a value (the passes build them with these dtypes), every other one is a void statement.
_RETURN_DTYPES = {
    "tt.work_count": "int32",
    "tt.work_block": "int32",
    "tt.tile.operand": "float32",
    "tt.table_value": "int32",
}

# The ``tt.target`` and ``tt.options`` function attributes ApplyTTDefaults sets by default, for inputs of the
# passes that read them (``T.func_attr({"tt.target": WORMHOLE, ...})``).
WORMHOLE = get_target("wormhole").as_record()
DEFAULT_OPTIONS = Options(partition_strategy="row_major", enable_double_buffer=True, enable_prefetch=True)


def dram_tensor_64x64(name: str, index: int, access: str, dtype: str) -> TensorAccessor:
    """What AttachTensorAccessorTT records for a 64×64 interleaved DRAM tensor parameter: 2×2 tiles."""
    fmt, page = DATA_FORMATS[dtype]
    return TensorAccessor(
        name=name,
        param_index=index,
        dtype=dtype,
        format=fmt,
        page_layout="tile",
        pages=4,
        page_size=page,
        shape=[64, 64],
        declared_shape=[64, 64],
        view=[64, 64],
        tiles=[2, 2],
        memory="DRAM",
        layout="interleaved",
        access=access,
        dim_order=[0, 1],
    )


class _OperatorNamespace:
    """``T.<prefix>.<name>(...)`` builds a call of the registered operator ``<prefix>.<name>``; a name that
    is only a prefix of operators (``T.tt.tile``) is a nested namespace."""

    def __init__(self, prefix: str):
        self._prefix = prefix

    def __getattr__(self, name: str):
        full = f"{self._prefix}.{name}"
        if full in ops.TL_OPS + ops.TT_OPS:
            return lambda *args: ops.call(full, *args, dtype=_RETURN_DTYPES.get(full, "void"))
        if any(op.startswith(full + ".") for op in ops.TL_OPS + ops.TT_OPS):
            return _OperatorNamespace(full)
        raise AttributeError(f"no TileLang-TT operator {full} (ops.TL_OPS / ops.TT_OPS)")


for _prefix in ("tl", "tt"):
    register_script_namespace(_prefix, _OperatorNamespace(_prefix))


def _as_module(func_or_mod) -> tvm.IRModule:
    if isinstance(func_or_mod, tvm.IRModule):
        return func_or_mod
    return tvm.IRModule({"main": func_or_mod})


def module_of(*funcs) -> tvm.IRModule:
    """An IRModule of PrimFuncs, each under its ``global_symbol`` (split kernels: gemm_reader, ...)."""
    return tvm.IRModule({str(f.attrs["global_symbol"]): f for f in funcs})


def _fresh_loop_vars(stmt):
    """``stmt`` with every loop binding a variable of its own: passes may reuse one variable for several
    loops (``for tile`` twice), which TVMScript cannot write."""

    def fresh(f: tirx.For, mutator):
        f = mutator.default_mutate(f)
        var = tirx.Var(str(f.loop_var.name), f.loop_var.ty.dtype)
        body = tvm_ffi.structural_map(f.body, (tvm.ir.Var, lambda v: var if v.same_as(f.loop_var) else v))
        return tirx.For(var, f.min, f.extent, f.kind, body, f.thread_binding, f.annotations)

    return tvm_ffi.structural_mutate(stmt, (tirx.For, fresh))


def _normalized(mod: tvm.IRModule) -> tvm.IRModule:
    """``mod`` with fresh loop variables and each function's free variables replaced by one variable per
    name. A free variable of a kernel is a named constant its C++ header declares (``ir_utils.named``,
    ``cb_var``) and the passes make a fresh one per use; the name is all that reaches the code, so the
    comparison is by name."""
    out = {}
    for gv, func in mod.functions.items():
        if not isinstance(func, tirx.PrimFunc):
            out[gv] = func
            continue
        canonical = {}
        free = {
            var: canonical.setdefault(str(var.name), tirx.Var(str(var.name), var.ty.dtype))
            for var in _free_scalars(func)
        }
        out[gv] = func.with_body(_substitute(_fresh_loop_vars(func.body), free))
    return tvm.IRModule(out, attrs=mod.attrs)


def _substitute(stmt, vmap: dict):
    return tvm_ffi.structural_map(stmt, (tvm.ir.Var, lambda v: vmap.get(v, v)))


def _free_scalars(func: tirx.PrimFunc) -> list:
    """The scalar variables ``func`` uses but neither takes nor binds (loops, lets, launched threads)."""
    bound = {p for p in func.params}
    used = []
    tvm_ffi.structural_walk(
        func.body,
        [
            (tirx.For, lambda f: bound.add(f.loop_var)),
            (tirx.Bind, lambda b: bound.add(b.var)),
            (tirx.IterVar, lambda iv: bound.add(iv.var)),
            (tvm.ir.Var, used.append),
        ],
    )
    return [v for v in used if v not in bound and not isinstance(getattr(v, "ty", None), tirx.BufferType)]


def assert_pass(pass_, before, expected) -> tvm.IRModule:
    """Apply ``pass_`` alone to ``before`` (a PrimFunc, as module function "main", or an IRModule) and assert
    the result is structurally equal to ``expected``, attributes included: the same function names, each
    function compared on its own (passes may share a variable between the kernels they split), and the
    same module attributes. On a mismatch the message shows both sides as TVMScript. Returns the result."""
    got = _normalized(pass_(_as_module(before)))
    want = _normalized(_as_module(expected))

    def fail(reason):
        raise AssertionError(
            f"{pass_.info.name} did not produce the expected IR: {reason}\n"
            f"--- got ---\n{got.script(show_meta=False)}\n--- expected ---\n{want.script(show_meta=False)}"
        )

    got_names = sorted(gv.name_hint for gv in got.get_global_vars())
    want_names = sorted(gv.name_hint for gv in want.get_global_vars())
    if got_names != want_names:
        fail(f"functions {got_names}, expected {want_names}")
    for name in got_names:
        try:
            tvm.ir.assert_structural_equal(got[name], want[name], map_free_vars=True)
        except ValueError as err:
            fail(f"in {name}: {err}")
    if not tvm_ffi.structural_equal(got.attrs, want.attrs):
        fail(f"module attributes {got.attrs}, expected {want.attrs}")
    return got
