"""A2 · PropagateTTLayout — validate layout descriptors, fall back where unsupported, and propagate the
source layout of each global tensor to the tile buffers it feeds.

Input expectations
    ``tt.layout_desc`` (InferTTLayout) and the DSL's ``tl.copy`` ops.
Output guarantees
    Every descriptor has memory ∈ {DRAM, L1}, layout ∈ {interleaved, cb} and tile_id_order = row_major for
    global tensors. Invalid or unimplemented values (unknown memory, ``sharded``, ``column_major`` /
    ``match_shard`` / ``z_order`` tile orders) raise a Python ``UserWarning`` naming the buffer and fall back
    to DRAM / interleaved / row_major (documented fallback: the host writes tiles row-major, interleaved
    over the banks). Tile buffers loaded from or stored to a global tensor get ``peer=<global name>``.
Example
    before: "A": LayoutDesc(memory="DRAM", layout="sharded", ...)
    after:  "A": LayoutDesc(memory="DRAM", layout="interleaved", ...)  + UserWarning
            "A_s": LayoutDesc(memory="L1", layout="cb", tile_id_order="row_major", peer="A")
Test
    ./bazelw test //compiler/tests/passes:passes_test --test_arg=-k \\
        --test_arg=test_propagate_tt_layout
"""

from __future__ import annotations

import warnings

import tvm
from tvm import tirx

from .. import ops
from ..ir_utils import find_ops, is_global, region, require_attr
from ..records import LayoutDesc, replace

VALID = {
    "memory": ("DRAM", "L1"),
    "layout": ("interleaved", "sharded", "cb"),
    "tile_id_order": ("row_major", "column_major", "match_shard", "z_order"),
}
IMPLEMENTED = {"memory": ("DRAM", "L1"), "layout": ("interleaved", "cb"), "tile_id_order": ("row_major",)}
FALLBACK = {"memory": "DRAM", "layout": "interleaved", "tile_id_order": "row_major"}


def _checked(name: str, desc: LayoutDesc) -> LayoutDesc:
    out = {}
    for key, fallback in FALLBACK.items():
        value = getattr(desc, key)
        if value not in VALID[key]:
            warnings.warn(
                f"layout of {name}: invalid {key} {value!r} (valid: {', '.join(VALID[key])}); "
                f"using {fallback}",
                stacklevel=2,
            )
            value = fallback
        elif value not in IMPLEMENTED[key]:
            warnings.warn(
                f"layout of {name}: {key} {value!r} is not implemented; using {fallback}", stacklevel=2
            )
            value = fallback
        out[key] = value
    return replace(desc, **out)


def PropagateTTLayout() -> tvm.transform.Pass:  # noqa: N802
    def transform(func: tirx.PrimFunc, mod, ctx) -> tirx.PrimFunc:
        desc = require_attr(func, "tt.layout_desc", "PropagateTTLayout")
        out = {}
        for name, d in desc.items():
            out[name] = d if d.layout == "cb" and d.memory == "L1" else _checked(name, d)
        for site in find_ops(func.body, ("tl.copy",)):
            f = ops.fields(site.call)
            src, dst = (region(r, site.loc, tile_view=False) for r in (f.src, f.dst))
            if is_global(src.buffer) != is_global(dst.buffer):
                glob, tile = (src, dst) if is_global(src.buffer) else (dst, src)
                out[tile.name] = replace(out[tile.name], peer=glob.name)
        return func.with_attr("tt.layout_desc", out)

    return tirx.transform.prim_func_pass(transform, opt_level=0, name="PropagateTTLayout")
