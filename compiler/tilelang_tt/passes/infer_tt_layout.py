"""A1 · InferTTLayout — give every buffer a layout descriptor ``tt.layout_desc``.

Input expectations
    ``tt.data_formats`` (ApplyTTDefaults). Optional user hints in function attribute ``tt.layout_hints``
    (or the original fork's ``tt.user_layout``; ``tilelang_tt.annotate_tt_layout`` writes them):
    ``{"A": {"memory": "DDR", "layout": "interleaved", "tile_id_order": "row_major"}}``.
Output guarantees
    ``tt.layout_desc``: buffer name → ``LayoutDesc`` (memory, layout, tile_id_order; for a sharded tensor
    its shard grid). Global buffers default to DRAM, interleaved, row_major tile ids; shared/fragment buffers
    are L1 circular-buffer tiles. Hint spellings are normalised (DDR/dram → DRAM, SRAM/l1 → L1, lower-case
    layouts). Buffer names are unique, and hint keys name real buffers and set only those three fields,
    ``nd_shard`` and ``halo``, else TTCompileError. ``halo`` = [rows, columns]: elements of the tile view
    each shard's core also holds on both sides of its shard (checked by AttachTensorAccessorTT).
    ``nd_shard`` = ``{"axes": [dims], "grid": [shards per dim], "order": "row_major" | "col_major"}``
    splits the listed dimensions of the tensor: the dimensions before the last make the rows of its tile
    view, the last its columns, so the shard grid over the view is [product of the grid over row
    dimensions, the last dimension's count] (1 where none is listed). Other values are validated by
    PropagateTTLayout.
Example
    before: T.func_attr({"tt.layout_hints": {"A": {"memory": "ddr"}}})
    after:  "tt.layout_desc": {"A": LayoutDesc(memory="DRAM", layout="interleaved",
    tile_id_order="row_major"),
                               "A_s": LayoutDesc(memory="L1", layout="cb", tile_id_order="row_major"), ...}
Test
    ./bazelw test //compiler/tests/passes:passes_test --test_arg=-k \\
        --test_arg=test_infer_tt_layout
"""

from __future__ import annotations

import tvm
import tvm_ffi
from tvm import tirx

from ..errors import TTCompileError
from ..ir_utils import def_loc, get_attr, require_attr, tensor_params
from ..records import LayoutDesc

DEFAULT_GLOBAL = {"memory": "DRAM", "layout": "interleaved", "tile_id_order": "row_major"}
DEFAULT_TILE_BUFFER = {"memory": "L1", "layout": "cb", "tile_id_order": "row_major"}
_MEMORY_ALIASES = {"DDR": "DRAM", "DRAM": "DRAM", "SRAM": "L1", "L1": "L1"}
SHARD_ORDERS = ("row_major", "col_major")


def normalise_hint(hint: dict) -> dict:
    out = {}
    for key, value in hint.items():
        text = str(value).strip()
        if key == "memory":
            out[key] = _MEMORY_ALIASES.get(text.upper(), text)
        else:
            out[key] = text.lower()
    return out


def _shard_grid(name: str, shard, func, loc: str) -> dict:
    """LayoutDesc fields (shard_grid over the tile view, shard_order) of ``nd_shard`` hint ``shard``."""
    params = {str(p.name): p for p in tensor_params(func)}
    if name not in params:
        raise TTCompileError.at(
            loc, f"the layout of {name} sets nd_shard, but {name} is not a tensor parameter"
        )
    rank = len(params[name].shape)
    if not isinstance(shard, dict) or set(shard) - {"axes", "grid", "order"} or "grid" not in shard:
        raise TTCompileError.at(
            loc,
            f"nd_shard of {name} is {shard!r}; give "
            f"{{'axes': [dims], 'grid': [shards per dim], 'order': ...}}",
        )
    try:
        grid = [int(g) for g in shard["grid"]]
        axes = [int(a) for a in shard.get("axes", list(range(rank - len(grid), rank)))]
    except (TypeError, ValueError):
        raise TTCompileError.at(
            loc,
            f"nd_shard of {name} has axes {shard.get('axes')} and grid {shard['grid']}; give dimension "
            f"numbers (0 to {rank - 1}, or -1 for the last) and a shard count for each",
        ) from None
    if any(not -rank <= a < rank for a in axes):
        raise TTCompileError.at(
            loc, f"nd_shard of {name} splits axes {axes}, but {name} has {rank} dimensions"
        )
    axes = [a % rank for a in axes]
    if len(axes) != len(grid) or len(set(axes)) != len(axes) or any(g < 1 for g in grid):
        raise TTCompileError.at(
            loc,
            f"nd_shard of {name} splits axes {shard.get('axes')} into grid {shard['grid']}: give one "
            f"positive shard count per distinct axis of its {rank} dimensions",
        )
    order = str(shard.get("order", "row_major")).lower()
    if order not in SHARD_ORDERS:
        raise TTCompileError.at(
            loc, f"nd_shard of {name} has order {order!r}; choose {' or '.join(SHARD_ORDERS)}"
        )
    shape = [int(d) for d in params[name].shape]
    split = dict(zip(axes, grid, strict=True))
    row_axes = sorted(a for a in split if a != rank - 1)
    if row_axes and any((split[d] != shape[d]) if d in split else shape[d] != 1 for d in range(row_axes[-1])):
        raise TTCompileError.at(
            loc,
            f"nd_shard of {name} {tuple(shape)} splits axes {sorted(split)} into "
            f"{[split[a] for a in sorted(split)]}: its shards are not contiguous runs of rows; every "
            f"dimension before the last split one (of the first {rank - 1}) must be split into all its "
            f"indices",
        )
    rows = cols = 1
    for axis, count in zip(axes, grid, strict=True):
        if axis == rank - 1:
            cols *= count
        else:
            rows *= count
    return {"shard_grid": [rows, cols], "shard_order": order}


def _halo(name: str, halo, loc: str) -> list[int]:
    """``halo`` hint of ``name`` as [rows, columns] of non-negative element counts."""
    values = [] if isinstance(halo, str) or not hasattr(halo, "__len__") else list(halo)
    if len(values) != 2 or not all(type(v) is int and v >= 0 for v in values):
        raise TTCompileError.at(
            loc,
            f"the halo of {name} is {halo!r}; give [rows, columns]: how many elements of its neighbours each "
            f"shard's core also holds on each side",
        )
    return values


def InferTTLayout() -> tvm.transform.Pass:  # noqa: N802
    def transform(func: tirx.PrimFunc, mod, ctx) -> tirx.PrimFunc:
        formats = require_attr(func, "tt.data_formats", "InferTTLayout")
        params = {str(p.name) for p in tensor_params(func)}
        allocated = []
        tvm_ffi.structural_walk(func.body, (tirx.AllocBuffer, lambda a: allocated.append(str(a.buffer.name))))
        names = [str(p.name) for p in tensor_params(func)] + allocated
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise TTCompileError.at(
                def_loc(func), f"buffer names must be unique; {', '.join(duplicates)} is used more than once"
            )
        # the original Tenstorrent fork's attribute name for the same hints
        hints = {**get_attr(func, "tt.user_layout", {}), **get_attr(func, "tt.layout_hints", {})}
        for name in hints:
            if name not in formats:
                raise TTCompileError.at(
                    def_loc(func),
                    f"tt.layout_hints names {name!r}, which is not a buffer of {func.attrs['global_symbol']}",
                )
        desc = {}
        for name in formats:
            base = dict(DEFAULT_GLOBAL if name in params else DEFAULT_TILE_BUFFER)
            hint = normalise_hint(hints.get(name, {}))
            shard = hints.get(name, {}).get("nd_shard")
            if shard is not None:
                hint.pop("nd_shard")
                base.update(_shard_grid(name, shard, func, def_loc(func)))
            if "halo" in hint:
                hint.pop("halo")
                base["halo"] = _halo(name, hints[name]["halo"], def_loc(func))
            unknown = sorted(set(hint) - set(base))
            if unknown:
                raise TTCompileError.at(
                    def_loc(func),
                    f"tt.layout_hints for {name!r} sets {unknown[0]!r}; a layout hint sets {', '.join(base)}",
                )
            base.update(hint)
            desc[name] = LayoutDesc(**base)
        return func.with_attr("tt.layout_desc", desc)

    return tirx.transform.prim_func_pass(transform, opt_level=0, name="InferTTLayout")
