"""A 3×3 im2col gather (stride 1, dilation 1, padding 1) of a 1×8×8×32 bfloat16 NHWC image into a 64×32
tile, stored to a 64×32 tensor: its tensors and circular buffers as the passes describe them. The
Before/Expected tests of LowerTileProgramTT, ScheduleTileComputeTT and LowerCBIntrinsics share them."""

from __future__ import annotations

from before_after import DEFAULT_OPTIONS
from tilelang_tt.records import (
    AccessorArgs,
    CircularBuffer,
    DFGEdge,
    DFGNode,
    Grid,
    GridAxis,
    TensorAccessor,
    TileDFG,
)

# AttachTensorAccessorTT: the gathered image is stored row-major, one 64-byte page (32 channels) per
# (n, h, w); the output as tiles.
ACCESSORS = [
    TensorAccessor(
        name="data",
        param_index=0,
        dtype="bfloat16",
        format="Float16_b",
        page_layout="row_major",
        pages=64,
        page_size=64,
        shape=[1, 8, 8, 32],
        declared_shape=[1, 8, 8, 32],
        view=[64, 32],
        tiles=[0, 0],
        memory="DRAM",
        layout="interleaved",
        access="read",
        dim_order=[0, 1, 2, 3],
    ),
    TensorAccessor(
        name="out",
        param_index=1,
        dtype="bfloat16",
        format="Float16_b",
        page_layout="tile",
        pages=2,
        page_size=2048,
        shape=[64, 32],
        declared_shape=[64, 32],
        view=[64, 32],
        tiles=[2, 1],
        memory="DRAM",
        layout="interleaved",
        access="write",
        dim_order=[0, 1],
    ),
]


def _cb(cb, buffer, role, loc):
    """A CB of two 64×32 bfloat16 blocks (2×1 tiles each); an output CB drains a whole block at once."""
    return CircularBuffer(
        cb=cb,
        buffer=buffer,
        name=f"cb_{buffer}",
        role=role,
        dtype="bfloat16",
        format="Float16_b",
        page_size=2048,
        tiles=2,
        tile_shape=[2, 1],
        depth=4,
        total_bytes=8192,
        dims=["r", "c"],
        loc=loc,
        subblock=[2, 1] if role == "output" else None,
    )


# LowerTileProgramTT: the tile's value (compute-written), the row-major staging CB the reader fills, and
# the output CB the tile is copied to for the writer.
CB_TABLE = [
    _cb(24, "cols", "intermediate", "p.py:7:8"),
    _cb(0, "cols_rows", "input", "p.py:7:8"),
    _cb(16, "cols_out", "output", "p.py:8:8"),
]

TILE_DFG = TileDFG(
    nodes=[
        DFGNode(id=0, op="tt.read_im2col", kernel="reader", cbs_in=[], cbs_out=[0], loc="p.py:7:8"),
        DFGNode(id=1, op="tt.tile.tilize", kernel="compute", cbs_in=[0], cbs_out=[24], loc="p.py:7:8"),
        DFGNode(id=2, op="tt.tile.copy", kernel="compute", cbs_in=[24], cbs_out=[16], loc="p.py:8:8"),
        DFGNode(id=3, op="tt.write_from_cb", kernel="writer", cbs_in=[16], cbs_out=[], loc="p.py:8:8"),
    ],
    edges=[DFGEdge(src=0, dst=1, cb=0), DFGEdge(src=1, dst=2, cb=24), DFGEdge(src=2, dst=3, cb=16)],
)

# The reader after ConfigureTensorAccessorTT: the image's accessor ``data`` with its 64-byte rows as pages,
# on a launch grid of one block.
READER = {
    "tt.kernel_role": "reader",
    "tt.options": DEFAULT_OPTIONS,
    "tt.cb_table": CB_TABLE,
    "tt.grid": Grid(
        x=1,
        y=1,
        z=1,
        row_axes=[GridAxis(tag="blockIdx.x", blocks=1)],
        col_axes=[],
        block_shape=[64, 32],
        num_blocks=1,
    ),
    "tt.accessor_args": [
        AccessorArgs(
            param=0,
            tensor="data",
            accessor="data",
            args="data_args",
            addr="data_addr",
            tile_bytes="data_page_bytes",
            cb=0,
            ct_offset=0,
            tiles=[0, 0],
            memory="DRAM",
            page_layout="row_major",
            page_size=64,
        )
    ],
}
