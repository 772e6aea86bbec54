"""Where a sharded tensor's shards live: one home for the layout the compiler checks (AttachTensorAccessorTT)
and the host program creates (codegen/host.py), as the SDK's legacy ShardSpecBuffer places it.

A tensor sharded [rows, cols] over its tile view has rows x cols equal shards. One row of shards is width
sharding, one column height sharding, otherwise block sharding. Height and width shards go to the first
cores of the compute grid, row by row (``row_major``) or column by column (``col_major``, the SDK's
COL_MAJOR orientation over the same cores); block shards to a rectangle of cores from (0, 0), shard (i, j)
on core (j, i) — or (i, j) in ``col_major``, the SDK's transposed grid.

    >>> shard_core_ranges([4, 1], "row_major", (8, 8))
    [(0, 0, 3, 0)]
    >>> shard_cores([2, 2], "row_major", (8, 8))
    [(0, 0), (1, 0), (0, 1), (1, 1)]

A shard may carry a halo (``halo`` tiles [rows, cols]): its core's L1 then also holds a copy of the tiles
within that many tiles of the shard on each side (zeros past the tensor's edge), written there by the host
for an input, as ttnn's halo step does on the device, and by the writer of a program that writes the
tensor. The buffer is the tensor with every shard widened by its halo (``stored_grid``); a tile is read
from the reader's own window when it lies in it (``window``), else from its owner's shard
(LowerCBIntrinsics).

    >>> stored_grid([8, 2], [4, 1], [1, 0])  # four shards of two tile rows, each widened to four
    [16, 2]
"""

from __future__ import annotations

__all__ = [
    "buffer_layout",
    "shard_core_ranges",
    "shard_cores",
    "fits",
    "stored_grid",
    "window",
]


def buffer_layout(shard_grid) -> str:
    """The SDK's TensorMemoryLayout name of a shard grid [rows, cols]."""
    rows, cols = shard_grid
    if rows > 1 and cols > 1:
        return "BLOCK_SHARDED"
    return "WIDTH_SHARDED" if cols > 1 else "HEIGHT_SHARDED"


def fits(shard_grid, order: str, grid) -> bool:
    """Whether a compute grid (x, y) has a core for every shard where ``shard_core_ranges`` puts them."""
    rows, cols = shard_grid
    grid_x, grid_y = grid
    if buffer_layout(shard_grid) != "BLOCK_SHARDED":
        return rows * cols <= grid_x * grid_y
    width, height = (rows, cols) if order == "col_major" else (cols, rows)
    return width <= grid_x and height <= grid_y


def shard_core_ranges(shard_grid, order: str, grid) -> list[tuple[int, int, int, int]]:
    """The core ranges (x0, y0, x1, y1) of the shards' cores; ``fits`` must hold."""
    rows, cols = shard_grid
    grid_x, _ = grid
    if buffer_layout(shard_grid) == "BLOCK_SHARDED":
        width, height = (rows, cols) if order == "col_major" else (cols, rows)
        return [(0, 0, width - 1, height - 1)]
    shards = rows * cols
    full_rows, rest = divmod(shards, grid_x)
    ranges = [(0, 0, grid_x - 1, full_rows - 1)] if full_rows else []
    return ranges + ([(0, full_rows, rest - 1, full_rows)] if rest else [])


def shard_cores(shard_grid, order: str, grid) -> list[tuple[int, int]]:
    """The core (x, y) of each shard, shards numbered row-major over the shard grid: the SDK's
    ``corerange_to_cores`` over ``shard_core_ranges``, row by row for ``row_major``, else column by column."""
    cores = []
    for x0, y0, x1, y1 in shard_core_ranges(shard_grid, order, grid):
        if order == "col_major":
            cores += [(x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)]
        else:
            cores += [(x, y) for y in range(y0, y1 + 1) for x in range(x0, x1 + 1)]
    return cores[: shard_grid[0] * shard_grid[1]]


# A core holding no shard of a tensor with halos gets this window origin: as a signed 32-bit row or column it
# lies so far before the tensor that no tile is inside the window, so every read goes to the tile's owner.
NO_WINDOW = 0x40000000


def stored_grid(tiles, shard_grid, halo) -> list[int]:
    """The tile rows and columns of the buffer of a tensor of ``tiles`` [rows, cols] whose shards (over
    ``shard_grid``) each carry ``halo`` [rows, cols] tiles on both sides."""
    return [n + 2 * h * g for n, g, h in zip(tiles, shard_grid, halo, strict=True)]


def window(core, tiles, shard_grid, order: str, grid, halo) -> tuple[int, int, int]:
    """(first row, first column, first buffer page) of the window of tensor tiles that ``core`` (x, y) holds
    a copy of: its shard widened by the halo. The row and column are signed (a window may start before the
    tensor), as unsigned 32-bit words; a core without a shard gets ``NO_WINDOW``."""
    cores = shard_cores(shard_grid, order, grid)
    if tuple(core) not in cores:
        return NO_WINDOW, NO_WINDOW, 0
    shard_row, shard_col = divmod(cores.index(tuple(core)), shard_grid[1])
    size_r, size_c = (n // g for n, g in zip(tiles, shard_grid, strict=True))
    stored_cols = stored_grid(tiles, shard_grid, halo)[1]
    first_page = shard_row * (size_r + 2 * halo[0]) * stored_cols + shard_col * (size_c + 2 * halo[1])
    return (
        (shard_row * size_r - halo[0]) & 0xFFFFFFFF,
        (shard_col * size_c - halo[1]) & 0xFFFFFFFF,
        first_page,
    )
