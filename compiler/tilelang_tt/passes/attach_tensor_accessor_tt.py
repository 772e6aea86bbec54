"""A3 · AttachTensorAccessorTT — describe an abstract tensor accessor for every global buffer.

Input expectations
    ``tt.data_formats`` and ``tt.layout_desc`` (stages A–A2); ``tl.copy`` ops between global and tile
    buffers.
Output guarantees
    ``tt.tensor_accessors``: one entry per parameter, in parameter order: {name, param_index, dtype, format,
    page_size (bytes of one tile), shape (as declared, N-D), view (the 2-D tile view,
    ``ir_utils.tile_view_shape``: the last two dimensions padded up to multiples of 32, leading dimensions
    flattened into rows so that each leading index starts on a tile row), tiles [rows, cols] of the view,
    memory, layout, access ∈ read | write | read_write | unused}. The DRAM buffer holds the view's tiles;
    the host zero-pads inputs into it and crops outputs out of it. Access is derived from the copies'
    directions. Global tensors have 2 or more dimensions, else TTCompileError at the first copy touching
    them.
Example
    before: A: T.Buffer((256, 128), "bfloat16"), T.tl.copy(A[...], A_s[...])
    after:  "tt.tensor_accessors": [{"name": "A", "param_index": 0, "tiles": [8, 4], "page_size": 2048,
                                     "format": "Float16_b", "access": "read", "memory": "DRAM", ...}, ...]
    (B: (2, 100, 64) → "view": [256, 64], "tiles": [8, 2]: each of the 2 leading slices padded to 128 rows)
Test
    ./bazelw test //compiler/tests/passes:passes_test --test_arg=-k \\
        --test_arg=test_attach_tensor_accessor_tt
"""

from __future__ import annotations

import tvm
from tvm import tirx

from ..errors import TTCompileError
from ..ir_utils import (
    def_loc,
    find_ops,
    get_attr,
    is_global,
    is_tensor,
    region,
    require_attr,
    tile_view_shape,
)
from ..target import DATA_FORMATS, TILE


def _access_modes(func: tirx.PrimFunc) -> tuple[dict[str, set], dict[str, str]]:
    modes: dict[str, set] = {}
    first_loc: dict[str, str] = {}
    for site in find_ops(func.body, ("tl.copy",)):
        src, dst = region(site.call.args[0], site.loc), region(site.call.args[1], site.loc)
        for reg, mode in ((src, "read"), (dst, "write")):
            if is_global(reg.buffer):
                modes.setdefault(reg.name, set()).add(mode)
                first_loc.setdefault(reg.name, site.loc)
    return modes, first_loc


def AttachTensorAccessorTT() -> tvm.transform.Pass:  # noqa: N802
    def transform(func: tirx.PrimFunc, mod, ctx) -> tirx.PrimFunc:
        formats = require_attr(func, "tt.data_formats", "AttachTensorAccessorTT")
        layouts = require_attr(func, "tt.layout_desc", "AttachTensorAccessorTT")
        modes, first_loc = _access_modes(func)
        accessors = []
        declared = get_attr(func, "tt.declared_shapes", {})
        for index, param in enumerate(func.params):
            if not is_tensor(param):
                raise TTCompileError.at(
                    def_loc(func),
                    f"parameter {param.name} is a scalar; only tensor parameters are supported on "
                    f"Tenstorrent yet",
                )
            buf = param
            name, shape = str(buf.name), [int(s) for s in buf.shape]
            loc = first_loc.get(name, "")
            if len(shape) < 2:
                raise TTCompileError.at(
                    loc,
                    f"tensor {name} has shape {tuple(shape)}; tensors of 2 or more dimensions are supported",
                )
            view = tile_view_shape(shape)
            mode = modes.get(name, set())
            access = "read_write" if len(mode) == 2 else (next(iter(mode)) if mode else "unused")
            accessors.append(
                {
                    "name": name,
                    "param_index": index,
                    "dtype": str(buf.dtype),
                    "format": formats[name],
                    "page_size": DATA_FORMATS[str(buf.dtype)][1],
                    "shape": shape,
                    # what callers pass: a 1-D tensor is (L, 1) or (1, L) here (LegalizeVectorsTT)
                    "declared_shape": declared.get(name, shape),
                    "view": view,
                    "tiles": [view[0] // TILE, view[1] // TILE],
                    "memory": layouts[name]["memory"],
                    "layout": layouts[name]["layout"],
                    "access": access,
                }
            )
        return func.with_attr("tt.tensor_accessors", accessors)

    return tirx.transform.prim_func_pass(transform, opt_level=0, name="AttachTensorAccessorTT")
