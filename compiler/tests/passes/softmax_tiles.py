"""The circular-buffer plan of the softmax numerator tile program (``S = exp(A_s - rowmax(A_s))`` on 32×64
blocks of float32), as LowerTileProgramTT makes it: the expected output of its test and the input of the
ScheduleTileComputeTT test, which schedules the compute kernel of the same program."""

from __future__ import annotations

from before_after import dram_tensor_64x64
from tilelang_tt.records import CircularBuffer, DFGEdge, DFGNode, TileDFG

_FORMATS = {"float32": ("Float32", 4096), "bfloat16": ("Float16_b", 2048)}  # data format, bytes per tile


def cb_entry(cb, buffer, role, loc, tile_shape, blocks, dtype="float32"):
    """One ``tt.cb_table`` entry of a tile program: ``blocks`` blocks of ``tile_shape`` tiles of ``dtype``,
    named ``cb_<buffer>``; an output CB packs its whole block as one subblock."""
    fmt, page = _FORMATS[dtype]
    tiles = tile_shape[0] * tile_shape[1]
    return CircularBuffer(
        cb=cb,
        buffer=buffer,
        name=f"cb_{buffer}",
        role=role,
        dtype=dtype,
        format=fmt,
        page_size=page,
        tiles=tiles,
        tile_shape=tile_shape,
        depth=tiles * blocks,
        total_bytes=tiles * blocks * page,
        dims=["r", "c"],
        loc=loc,
        subblock=tile_shape if role == "output" else None,
    )


# A_s: an input CB the reader fills (double-buffered: 2 blocks of the 1×2 tiles of a 32×64 block);
# m, S: intermediates of two blocks each (a new value is written behind the old); the reduction's scaler
# tile; S_out: the output CB S is copied to for the writer (ids: inputs from 0, outputs from 16,
# intermediates from 24).
CB_TABLE = [
    cb_entry(0, "A_s", "input", "p.py:8:8", [1, 2], 2),
    cb_entry(24, "m", "intermediate", "p.py:9:8", [1, 1], 2),
    cb_entry(25, "S", "intermediate", "p.py:12:8", [1, 2], 2),
    cb_entry(26, "reduce_scaler", "intermediate", "p.py:9:8", [1, 1], 1, dtype="bfloat16"),
    cb_entry(16, "S_out", "output", "p.py:12:8", [1, 2], 2),
]


def _node(id_, op, kernel, cbs_in, cbs_out, loc):
    return DFGNode(id=id_, op=op, kernel=kernel, cbs_in=cbs_in, cbs_out=cbs_out, loc=loc)


# Who produces and consumes each CB: the reader fills A_s, compute waits for it, reduces it into m,
# evaluates exp(A_s - m) into S and copies S to S_out, which the writer drains.
TILE_DFG = TileDFG(
    nodes=[
        _node(0, "tt.read_to_cb", "reader", [], [0], "p.py:8:8"),
        _node(1, "tt.tile.wait_input", "compute", [0], [], "p.py:8:8"),
        _node(2, "tt.tile.reduce", "compute", [0, 26], [24], "p.py:9:8"),
        _node(3, "tt.tile.eltwise", "compute", [0, 24], [25], "p.py:10:20"),
        _node(4, "tt.tile.copy", "compute", [25], [16], "p.py:12:8"),
        _node(5, "tt.write_from_cb", "writer", [16], [], "p.py:12:8"),
    ],
    edges=[
        DFGEdge(src=0, dst=1, cb=0),
        DFGEdge(src=0, dst=2, cb=0),
        DFGEdge(src=0, dst=3, cb=0),
        DFGEdge(src=2, dst=3, cb=24),
        DFGEdge(src=3, dst=4, cb=25),
        DFGEdge(src=4, dst=5, cb=16),
    ],
)


ACCESSORS = [dram_tensor_64x64("A", 0, "read", "float32"), dram_tensor_64x64("B", 1, "write", "float32")]
