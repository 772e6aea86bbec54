"""``annotate_tt_layout``: where a kernel's tensors live, in the original Tenstorrent TileLang fork's form.

    func = tilelang_tt.annotate_tt_layout(func, {"A": {"memory": "L1", "layout": "interleaved"}})

    @tilelang_tt.annotate_tt_layout({"A": {"memory": "DRAM"}})
    @T.prim_func
    def main(A: T.Tensor(...), ...): ...

A hint per tensor name: ``memory`` (DRAM | L1), ``layout`` (interleaved | sharded), ``tile_id_order``
(row_major | column_major | match_shard | z_order), ``nd_shard`` ({"axes", "grid", "order", ...}) and
``halo``. The hints become the function attribute ``tt.layout_hints`` (also written directly with
``T.func_attr``; the fork's attribute name ``tt.user_layout`` is read the same way), which InferTTLayout
and PropagateTTLayout check: what the compiler executes today is DRAM or L1 interleaved tensors and L1
sharded ones (``nd_shard``: height, width and block shards of the tile view, ND shards over leading
dimensions; kernels address pages through the SDK's sharded TensorAccessor), in row-major tile order; every
other value is a located TTCompileError saying so, never a silent fallback.
"""

from __future__ import annotations

from collections.abc import Mapping

from tvm import tirx


def annotate_tt_layout(func_or_layout, layout: Mapping | None = None):
    """``func`` with ``layout`` as its ``tt.layout_hints`` (merged over hints it already has); called with
    the layout alone, a decorator that does the same. TypeError for anything but a T.prim_func and a dict
    of dicts keyed by tensor name."""
    if layout is None:
        return lambda func: annotate_tt_layout(func, func_or_layout)
    if not isinstance(func_or_layout, tirx.PrimFunc):
        raise TypeError(f"annotate_tt_layout takes a T.prim_func, got {type(func_or_layout).__name__}")
    if not isinstance(layout, Mapping) or not all(isinstance(h, Mapping) for h in layout.values()):
        raise TypeError("annotate_tt_layout takes {tensor name: {hint: value}}, e.g. {'A': {'memory': 'L1'}}")
    attrs = func_or_layout.attrs
    given = attrs["tt.layout_hints"] if attrs is not None and "tt.layout_hints" in attrs else {}
    merged = {str(name): dict(hint) for name, hint in given.items()}
    for name, hint in layout.items():
        merged.setdefault(str(name), {}).update(dict(hint))
    return func_or_layout.with_attr("tt.layout_hints", merged)
