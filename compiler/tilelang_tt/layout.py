"""``tilelang.layout``: the layouts TileLang programs hand to ``T.annotate_layout`` (shared-memory swizzles
that avoid bank conflicts, register fragments of the GPU's MMA instructions).

On Tenstorrent neither exists: a tile sits in L1 in the chip's face layout and the compiler chooses it, so
``T.annotate_layout`` accepts these and ignores them (``surface.py``). Each helper here takes upstream's
arguments and returns a ``GpuLayout`` naming what was asked for, so that a program written for upstream runs
unchanged; nothing reads it.
"""

from __future__ import annotations

import dataclasses

from . import language as T

__all__ = [
    "GpuLayout",
    "Layout",
    "Fragment",
    "SwizzleMode",
    "make_swizzled_layout",
    "make_volta_swizzled_layout",
    "make_wgmma_swizzled_layout",
    "make_tcgen05mma_swizzled_layout",
    "make_full_bank_swizzled_layout",
    "make_half_bank_swizzled_layout",
    "make_quarter_bank_swizzled_layout",
    "make_linear_layout",
    "make_gemm_fragment_8x8",
    "make_gemm_fragment_8x8_transposed",
    "make_fully_replicated_layout_fragment",
    "make_cutlass_metadata_layout",
]

Layout = T.Layout
Fragment = T.Fragment


@dataclasses.dataclass(frozen=True)
class GpuLayout:
    """A GPU layout a program asked for (``kind``, e.g. "swizzled") on ``buffer``: ignored on Tenstorrent."""

    kind: str
    buffer: object = None


class SwizzleMode:
    """Upstream's shared-memory swizzle widths (``tilelang.layout.SwizzleMode``): GPU bank-conflict modes."""

    NONE, QUARTER, HALF, FULL = 0, 1, 2, 3


def _layout(kind: str):
    def make(buffer=None, *args, **kwargs) -> GpuLayout:
        return GpuLayout(kind, buffer)

    make.__name__ = f"make_{kind}_layout"
    make.__doc__ = (
        f"Upstream's {kind} layout of ``buffer``: a GPU layout, ignored by ``T.annotate_layout`` here."
    )
    return make


make_swizzled_layout = _layout("swizzled")
make_volta_swizzled_layout = _layout("volta_swizzled")
make_wgmma_swizzled_layout = _layout("wgmma_swizzled")
make_tcgen05mma_swizzled_layout = _layout("tcgen05mma_swizzled")
make_full_bank_swizzled_layout = _layout("full_bank_swizzled")
make_half_bank_swizzled_layout = _layout("half_bank_swizzled")
make_quarter_bank_swizzled_layout = _layout("quarter_bank_swizzled")
make_linear_layout = _layout("linear")
# register fragments of the GPU's ldmatrix / stmatrix and MMA metadata (these take no buffer or a buffer)
make_gemm_fragment_8x8 = _layout("gemm_fragment_8x8")
make_gemm_fragment_8x8_transposed = _layout("gemm_fragment_8x8_transposed")
make_fully_replicated_layout_fragment = _layout("fully_replicated_fragment")
make_cutlass_metadata_layout = _layout("cutlass_metadata")
