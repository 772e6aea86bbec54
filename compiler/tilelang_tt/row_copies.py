"""Copies of rows of a tensor stored a page per row: a per-row statistic stored to, or read from, its place
in a (B, H, S) tensor (``T.copy(logsum, lse[b, h, s0:s0 + n])``, TileLang's attention with its
log-sum-exp), and any other copy of the same tensor, a run of its rows (``glse[b, h, :, s0:s0 + n]``: the
rows of every split, which split-KV decoding's combine reads as a tile block).

Such a row shares its 32x32 tiles with the rows of 31 other grid points (the other heads), which other
cores write at the same time, so the tensor is stored row-major instead, one page per row of its last
dimension (AttachTensorAccessorTT), and each grid point moves only its own rows. In L1 row i of a copy is
row i % 32 of the (i // 32)-th row of its block's tiles: its first 16 values in face (i % 32 // 16) * 2 and
the next 16 in the face after it, each at row i % 16 of the face. The reader or writer moves each such
run with one NOC transfer, from byte offset ``(s0 + 32 t + 16 f) * element_bytes`` of the row's page (a
multiple of 32 bytes for 16-bit data, 64 for float32: aligned for the NOC). A read zero-fills its tiles
first, so the rest of a tile holds zeros rather than stale data. A block that can reach past the row's
end (the last block of a length that is not a whole number of blocks) moves only the 32-value runs inside
it: the rest of a read stays zero, the rest of a write is dropped, never spilling into the next row's page.
A tensor whose rows are shorter than a run (a (N, 1) column of per-row statistics, ``m_v = Mean[row]``) is
read a whole row at a time: one transfer from the start of the row's page (which the allocator aligns)
into the start of its face row; such rows are only read.
"""

from __future__ import annotations

import math

from tvm import tirx

from . import ops
from .errors import TTCompileError
from .ir_utils import (
    Region,
    cb_var,
    comment,
    dsl_comment,
    extern,
    is_zero_mod,
    loop,
    seq,
    simplify,
    uint_var,
    zero_fill_l1,
)
from .records import CircularBuffer
from .target import FACE, TILE


def row_major_position(reg: Region, loc: str) -> tuple:
    """(first row of the tensor's row-major view, first column, rows, columns) of a region of consecutive
    rows in declared coordinates (one index in each dimension before the last two); TTCompileError at
    ``loc`` unless it is that, in whole 32-value runs."""
    shape = [int(s) for s in reg.buffer.shape]
    if any(e != 1 for e in reg.extents[:-2]):
        raise TTCompileError.at(
            loc,
            f"{reg.name} is stored a page per row (it is copied one row at a time), so every copy of it must "
            f"be a run of consecutive rows (one index in each dimension but the last two), got extents "
            f"{tuple(reg.extents)}",
        )
    whole_narrow_row = shape[-1] < TILE and reg.extents[-1] == shape[-1]  # (its min is then 0)
    if not whole_narrow_row and (reg.extents[-1] % TILE or not is_zero_mod(reg.mins[-1], TILE)):
        raise TTCompileError.at(
            loc,
            f"these rows of {reg.name} start at column {reg.mins[-1]} and span {reg.extents[-1]}; a row "
            f"copy moves whole runs of {TILE} values from a multiple of {TILE}",
        )
    row = reg.mins[0]
    for d in range(1, len(shape) - 1):
        row = row * shape[d] + reg.mins[d]
    rows = reg.extents[-2] if len(shape) > 1 else 1
    return simplify(row), reg.mins[-1], rows, reg.extents[-1]


def row_major_region(reg: Region, loc: str) -> Region:
    """A region of consecutive rows as a region of the tensor's row-major view [rows, last dimension]."""
    row, col, rows, cols = row_major_position(reg, loc)
    shape = [int(s) for s in reg.buffer.shape]
    return Region(reg.buffer, [row, col], [rows, cols], [math.prod(shape[:-1]), shape[-1]])


def lower_row_copy(
    call, entry: CircularBuffer, element_bytes: int, row_length: int | None, staged: bool = False
) -> tirx.Stmt:
    """``tt.read_row`` / ``tt.write_row(cb, tensor, row, col, rows, cols)`` → the CB's pages claimed (a
    read also zeroes them), one NOC transfer per 16-value run of each row, the barrier, the pages handed
    on. With ``row_length`` (the copy may reach past the row's end: the last block of a length that is not
    a whole number of blocks) each 32-value run past it is skipped: left zero on a read, dropped on a
    write. A ``staged`` read (16-value runs too short for the chip's DRAM read alignment, at most 16 rows:
    ``staged_read_fits``) reads each whole 32-value run into the lower half of its tile, free until then,
    copies its two halves to their faces within L1, and zeroes the lower half again."""
    f = ops.fields(call)
    reading = ops.is_op(call, "tt.read_row")
    narrow = f.cols < TILE  # a whole row shorter than a run: one transfer from the page's aligned start
    tile_cols = max(f.cols // TILE, 1)
    tiles = -(-f.rows // TILE) * tile_cols
    cb = cb_var(entry)
    base = uint_var(f"l1_{'write' if reading else 'read'}_addr_{entry.name[3:]}")

    def face_row(r, tile, half):
        """L1 address of the 16 values of run ``half`` of row ``r`` in tile column ``tile``: tile row
        r // 32, face row (r % 32) // 16, row r % 16 of that face."""
        face = r % TILE // FACE * 2 + half
        offset = (r // TILE * tile_cols + tile) * entry.page_size + (
            face * FACE + r % FACE
        ) * FACE * element_bytes
        return simplify(base + offset)

    def page(r, column):
        return tirx.call_extern(
            "int32", "get_noc_addr", simplify(f.row + r), f.tensor, simplify(column * element_bytes)
        )

    def run(r, tile, half):
        l1, dram = face_row(r, tile, half), page(r, f.col + tile * TILE + half * FACE)
        source, destination = (dram, l1) if reading else (l1, dram)
        api = "noc_async_read" if reading else "noc_async_write"
        return extern(api, source, destination, FACE * element_bytes)

    # a staged read's landing place for row r's 32 values: the tile's lower half (faces 2 and 3)
    def landing(r, tile):
        return simplify(base + tile * entry.page_size + (2 * FACE + 2 * r) * FACE * element_bytes)

    def whole_run(r, tile):
        return extern("noc_async_read", page(r, f.col + tile * TILE), landing(r, tile), TILE * element_bytes)

    def halves(r, tile):
        local = lambda h: tirx.call_extern(  # noqa: E731
            "int32", "get_noc_addr", simplify(landing(r, tile) + h * FACE * element_bytes)
        )
        return loop(
            "half",
            2,
            lambda h: extern("noc_async_read", local(h), face_row(r, tile, h), FACE * element_bytes),
        )

    def inside(tile, stmt):
        if row_length is None:
            return stmt
        return tirx.IfThenElse(tirx.LT(simplify(f.col + tile * TILE), row_length), stmt, None)

    def each_run(body):
        if f.rows == 1:
            return loop("tile", tile_cols, lambda t: inside(t, body(0, t)))
        return loop("r", f.rows, lambda r: loop("tile", tile_cols, lambda t: inside(t, body(r, t))))

    what = "One row of the tensor: row 0 of each tile" if f.rows == 1 else f"{f.rows} rows of the tensor"
    claim = (
        [
            extern("cb_reserve_back", cb, tiles),
            tirx.Bind(base, tirx.call_extern("int32", "get_write_ptr", cb)),
            comment(f"{what}, the rest zeros"),
            zero_fill_l1(f"{entry.name[3:]}_words", base, tiles * entry.page_size),
        ]
        if reading
        else [
            extern("cb_wait_front", cb, tiles),
            tirx.Bind(base, tirx.call_extern("int32", "get_read_ptr", cb)),
            comment(what),
        ]
    )
    barrier = extern("noc_async_read_barrier" if reading else "noc_async_write_barrier")
    if staged:
        lower_half = 2 * FACE * FACE * element_bytes
        moves = [
            comment(
                "DRAM is read from aligned addresses only: each row's 32 values land in the tile's lower half"
            ),
            each_run(whole_run),
            barrier,
            comment("then go to their two faces within L1, and the lower half is zeroed again"),
            each_run(halves),
            barrier,
            loop(
                "tile",
                tiles,
                lambda t: zero_fill_l1(
                    f"{entry.name[3:]}_landing", simplify(base + t * entry.page_size + lower_half), lower_half
                ),
            ),
        ]
    elif narrow and reading:  # (AttachTensorAccessorTT lets only reads be narrow)
        moves = [
            loop(
                "r",
                f.rows,
                lambda r: extern("noc_async_read", page(r, 0), face_row(r, 0, 0), f.cols * element_bytes),
            ),
            barrier,
        ]
    else:
        moves = [each_run(lambda r, t: loop("half", 2, lambda h: run(r, t, h))), barrier]
    return seq(
        [
            dsl_comment(ops.loc_of(call)),
            *claim,
            *moves,
            extern("cb_push_back" if reading else "cb_pop_front", cb, tiles),
        ]
    )


def staged_read_fits(rows: int, element_bytes: int, dram_alignment: int) -> bool:
    """Whether a read of ``rows`` rows whose 16-value runs miss the DRAM read alignment can be staged: its
    rows fit the upper half of one tile row, and a 32-value run is a whole number of aligned units."""
    return rows <= FACE and (TILE * element_bytes) % dram_alignment == 0
