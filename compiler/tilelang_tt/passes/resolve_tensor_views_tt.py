"""A00 · ResolveTensorViewsTT — a tensor parameter used through a reshaped view takes the view's shape.

TileLang programs reshape global tensors by aliasing their memory: ``kernel_flat = T.Tensor((KH * KW * C,
F), dtype, kernel.data)`` (TVMScript prints it as ``kernel.view(...)``) and then index only the view. On
Tenstorrent a tensor's DRAM layout (tiles of its 2-D view, see ``ir_utils.tile_view_shape``) follows the
shape the kernel indexes it by, so the parameter itself becomes the view: the host passes the caller's
array reshaped (free for a C-contiguous array), and ``tt.declared_shapes`` keeps the shape callers pass.

Input expectations
    A PrimFunc from the DSL; views are ``DeclBuffer`` statements whose data is a parameter's.
Output guarantees
    No view of a parameter remains: a parameter with one view has the view's shape (same name, dtype and
    element count), every access of the view is an access of the parameter, and ``tt.declared_shapes``
    {tensor: caller's shape} is set. A view whose element count or dtype differs from its tensor, a
    tensor used both directly and through a view or through two views, and a view of a non-parameter are
    TTCompileErrors at the view's first use (using one tensor through several shapes needs a different
    DRAM layout per shape; not supported on Tenstorrent yet).
Example
    before: def f(A: T.Buffer((64, 64), "float32"), ...):
                A2 = A.view(2, 32, 64); T.tl.copy(A2[bx, 0:32, 0:64], S...)
    after:  def f(A: T.Buffer((2, 32, 64), "float32"), ...):
                T.tl.copy(A[bx, 0:32, 0:64], S...)
            T.func_attr({"tt.declared_shapes": {"A": [64, 64]}})
Test
    ./bazelw test //compiler/tests/passes:passes_test --test_arg=-k --test_arg=test_resolve_tensor_views_tt
"""

from __future__ import annotations

import math

import tvm
import tvm_ffi
from tvm import tirx

from ..errors import TTCompileError
from ..ir_utils import def_loc, first_use_loc, get_attr, tensor_params


def _views(func: tirx.PrimFunc) -> list[tirx.DeclBuffer]:
    found = []
    tvm_ffi.structural_walk(func.body, (tirx.DeclBuffer, found.append))
    return found


def _uses(func: tirx.PrimFunc) -> set:
    """Every buffer the body loads, stores or takes a region of."""
    used = []
    tvm_ffi.structural_walk(
        func.body,
        [
            (tirx.BufferStore, lambda s: used.append(s.buffer)),
            (tvm.ir.TensorLoad, lambda t: used.append(t.source)),
            (tvm.ir.TensorRegion, lambda r: used.append(r.source)),
        ],
    )
    return used


def _shape(buf) -> list[int]:
    return [int(s) for s in buf.ty.shape]


def _check(view, params, used, loc) -> tirx.Buffer:
    """The parameter ``view`` reshapes, after checking that the reshape can be the parameter's layout."""
    source = view.data.args[0] if isinstance(view.data, tvm.ir.Call) and len(view.data.args) else None
    param = next((p for p in params if source is not None and p.same_as(source)), None)
    buf = view.buffer
    if param is None:
        raise TTCompileError.at(
            loc,
            f"{buf.name} is a view of {source}, which is not a tensor parameter; views of parameters only",
        )
    if any(u.same_as(param) for u in used):
        raise TTCompileError.at(
            loc,
            f"{param.name} is used both as {tuple(_shape(param))} and through its view {buf.name} "
            f"{tuple(_shape(buf))}; using one tensor through several shapes is not supported on Tenstorrent "
            f"yet (use the view everywhere)",
        )
    if math.prod(_shape(buf)) != math.prod(_shape(param)) or str(buf.ty.dtype) != str(param.ty.dtype):
        raise TTCompileError.at(
            loc,
            f"view {buf.name} {tuple(_shape(buf))} {buf.ty.dtype} of {param.name} {tuple(_shape(param))} "
            f"{param.ty.dtype} does not hold the same elements; a view must reshape its tensor",
        )
    return param


def ResolveTensorViewsTT() -> tvm.transform.Pass:  # noqa: N802
    def transform(func: tirx.PrimFunc, mod, ctx) -> tirx.PrimFunc:
        views = _views(func)
        if not views:
            return func
        params, used = tensor_params(func), _uses(func)
        replaced: dict[str, tuple] = {}  # parameter name → (view, new parameter)
        for view in views:
            loc = first_use_loc(func, view.buffer) or def_loc(func)
            param = _check(view, params, used, loc)
            if param.name in replaced:
                raise TTCompileError.at(
                    loc,
                    f"{param.name} has two views ({replaced[param.name][0].buffer.name} and "
                    f"{view.buffer.name}); using one tensor through several shapes is not supported on "
                    f"Tenstorrent yet",
                )
            new = tirx.decl_buffer(_shape(view.buffer), view.buffer.ty.dtype, str(param.name))
            replaced[str(param.name)] = (view, new)

        def target(buf):
            for view, new in replaced.values():
                if view.buffer.same_as(buf):
                    return new
            return None

        def store(s):
            new = target(s.buffer)
            return s if new is None else tirx.BufferStore(new, s.value, s.indices)

        def load(t):
            new = target(t.source)
            return t if new is None else tirx.BufferLoad(new, t.indices)

        def region(r):
            new = target(r.source)
            return r if new is None else tirx.BufferRegion(new, r.region)

        def drop_views(s):
            kept = [x for x in s.seq if not (isinstance(x, tirx.DeclBuffer) and target(x.buffer) is not None)]
            return s if len(kept) == len(s.seq) else (tirx.SeqStmt(kept) if len(kept) != 1 else kept[0])

        body = tvm_ffi.structural_map(
            func.body,
            [
                (tirx.BufferStore, store),
                (tvm.ir.TensorLoad, load),
                (tvm.ir.TensorRegion, region),
                (tirx.SeqStmt, drop_views),
            ],
            order="post",
        )
        new_params = [replaced[str(p.name)][1] if str(p.name) in replaced else p for p in func.params]
        declared = {**get_attr(func, "tt.declared_shapes", {})}
        for name in replaced:
            declared.setdefault(name, _shape(next(p for p in params if str(p.name) == name)))
        out = tirx.PrimFunc(new_params, body, func.ret_type, func.attrs)
        return out.with_attr("tt.declared_shapes", declared)

    return tirx.transform.prim_func_pass(transform, opt_level=0, name="ResolveTensorViewsTT")
