"""How the compute kernel multiplies one accumulator's tiles, shared by InsertComputeInitTT (which configures
the engines) and InsertDSTManagementTT (which emits the products and any re-initialisation).

A DST pass multiplies an rt × ct subblock of the accumulator (the whole accumulator when it stays in DST).
When the B tiles that one K step multiplies into a subblock row lie next to each other in B's CB — always,
unless B is transposed and spans more than one K tile — one ``matmul_block`` per K tile does the whole
subblock, as the SDK's fast matmul kernels do: the unpacker reads each A and B tile once per block instead of
once per product, and the engines are configured for that block shape by ``matmul_block_init``. Otherwise each
output tile is one ``matmul_tiles`` per K tile, after ``matmul_init``.

Input: a ``tt.mm.mma`` call and its ``Accumulator`` record. Output: the block shape, or the init call.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import ops


@dataclass(frozen=True)
class MatmulBlock:
    """The shape one ``matmul_block`` call covers, in tiles: rt_dim × ct_dim outputs, A rows kt_dim apart."""

    ct_dim: int
    rt_dim: int
    kt_dim: int


def dst_subblock(acc) -> tuple[int, int]:
    """(rows, cols) in tiles of what one DST pass holds: the accumulator, or its subblock when subblocked."""
    rows, cols = acc.tiles if acc.residency == "dst" else acc.subblock
    return int(rows), int(cols)


def matmul_block_of(mma, acc) -> MatmulBlock | None:
    """The block a ``matmul_block`` call covers for this mma, or None when it multiplies tile by tile.

    With transpose_B, B's tile (n, k) sits at n * Kt + k, so the B tiles of one K step are contiguous only
    when Kt is 1; ``matmul_block`` reads them as consecutive tiles. A single-tile subblock reuses nothing.
    """
    f = ops.fields(mma)
    rows, cols = dst_subblock(acc)
    if rows * cols == 1 or (f.trans_b and f.kt > 1):
        return None
    return MatmulBlock(ct_dim=cols, rt_dim=rows, kt_dim=f.kt)


def init_key(mma, acc) -> tuple:
    """What an mma's init configures; two mmas with equal keys share one init."""
    f = ops.fields(mma)
    return (f.cb_a, f.cb_b, f.trans_b, matmul_block_of(mma, acc))


def matmul_init(mma, acc, cb_a, cb_b):
    """The call that configures unpacker and math engine for this mma (``matmul_block_init`` for a
    block product, else ``matmul_init``); the packer is configured once per kernel, by
    ``matmul_hw_startup`` when a matmul is the kernel's first operation."""
    f = ops.fields(mma)
    block = matmul_block_of(mma, acc)
    if block is None:
        return ops.extern("matmul_init", cb_a, cb_b, f.trans_b)
    return ops.extern("matmul_block_init", cb_a, cb_b, f.trans_b, block.ct_dim, block.rt_dim, block.kt_dim)


def matmul_hw_startup(cb_a, cb_b, cb_out):
    """The kernel's one hardware start-up for a matmul first: in0 to SrcB, in1 to SrcA (SrcOrder::Reverse),
    and the packer for ``cb_out``."""
    return ops.extern("compute_kernel_hw_startup<SrcOrder::Reverse>", cb_a, cb_b, cb_out)
