"""A2 · PropagateTTLayout — validate layout descriptors and propagate the source layout of each global
tensor to the tile buffers it feeds.

Input expectations
    ``tt.layout_desc`` (InferTTLayout) and the DSL's ``tl.copy`` ops.
Output guarantees
    Every descriptor has memory ∈ {DRAM, L1}, layout ∈ {interleaved, sharded (L1, with a shard grid), cb}
    and tile_id_order ∈ {row_major, column_major, z_order, match_shard (sharded tensors only)}, which
    LayoutAwareWorkPartitionTT executes; only sharded tensors have halos. An invalid value is a
    TTCompileError at the function's definition naming the tensor and the value: no hint is silently
    replaced. Tile buffers
    loaded from or stored to a global tensor get ``peer=<global name>``.
Example
    before: "A": LayoutDesc(memory="DRAM", layout="interleaved", ...)
    after:  "A": the same; "A_s": LayoutDesc(memory="L1", layout="cb", tile_id_order="row_major", peer="A")
            ("A": LayoutDesc(tile_id_order="diagonal") → TTCompileError: the layout of A sets ...)
Test
    ./bazelw test //compiler/tests/passes:passes_test --test_arg=-k \\
        --test_arg=test_propagate_tt_layout
"""

from __future__ import annotations

import tvm
from tvm import tirx

from .. import ops
from ..errors import TTCompileError
from ..ir_utils import def_loc, find_ops, is_global, region, require_attr
from ..records import LayoutDesc, replace

VALID = {
    "memory": ("DRAM", "L1"),
    "layout": ("interleaved", "sharded", "cb"),
    "tile_id_order": ("row_major", "column_major", "match_shard", "z_order"),
}


def _checked(name: str, desc: LayoutDesc, loc: str) -> LayoutDesc:
    """``desc`` if the compiler executes it; else TTCompileError at ``loc``."""
    for key, valid in VALID.items():
        value = getattr(desc, key)
        if value not in valid or value == "cb":
            raise TTCompileError.at(
                loc,
                f"the layout of {name} sets {key} {value!r}, which is not one: "
                f"{', '.join(v for v in valid if v != 'cb')}",
            )
    if desc.layout == "sharded" and (desc.memory != "L1" or not desc.shard_grid):
        raise TTCompileError.at(
            loc,
            f"the layout of {name} is sharded "
            + ("in DRAM; sharded tensors live in L1 (memory 'L1')" if desc.memory != "L1" else
               "without a shard grid; give nd_shard: {'axes': [dims], 'grid': [shards per dim]}"),
        )  # fmt: skip
    if desc.tile_id_order == "match_shard" and desc.layout != "sharded":
        raise TTCompileError.at(
            loc,
            f"the layout of {name} sets tile_id_order 'match_shard' but layout {desc.layout!r}: the cores "
            f"follow a sharded tensor's shards (give {name} layout 'sharded' and nd_shard)",
        )
    if desc.shard_grid and desc.layout != "sharded":
        raise TTCompileError.at(
            loc, f"the layout of {name} sets nd_shard but layout {desc.layout!r}, not 'sharded'"
        )
    if desc.halo and desc.layout != "sharded":
        raise TTCompileError.at(
            loc,
            f"the layout of {name} sets a halo but layout {desc.layout!r}: a halo widens each shard of a "
            f"sharded tensor (give {name} layout 'sharded' and nd_shard)",
        )
    return desc


def PropagateTTLayout() -> tvm.transform.Pass:  # noqa: N802
    def transform(func: tirx.PrimFunc, mod, ctx) -> tirx.PrimFunc:
        desc = require_attr(func, "tt.layout_desc", "PropagateTTLayout")
        out = {}
        for name, d in desc.items():
            out[name] = d if d.layout == "cb" and d.memory == "L1" else _checked(name, d, def_loc(func))
        for site in find_ops(func.body, ("tl.copy",)):
            f = ops.fields(site.call)
            src, dst = (region(r, site.loc, tile_view=False) for r in (f.src, f.dst))
            if is_global(src.buffer) != is_global(dst.buffer):
                glob, tile = (src, dst) if is_global(src.buffer) else (dst, src)
                out[tile.name] = replace(out[tile.name], peer=glob.name)
        return func.with_attr("tt.layout_desc", out)

    return tirx.transform.prim_func_pass(transform, opt_level=0, name="PropagateTTLayout")
