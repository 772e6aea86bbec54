"""A3 · AttachTensorAccessorTT — describe an abstract tensor accessor for every global buffer.

Input expectations
    ``tt.data_formats`` and ``tt.layout_desc`` (stages A–A2); ``tl.copy`` ops between global and tile
    buffers.
Output guarantees
    ``tt.tensor_accessors``: one ``TensorAccessor`` per parameter, in parameter order: name, param_index,
    dtype, format, page_layout, pages, page_size (bytes of one page), shape (as declared, N-D), view (the
    2-D tile view, ``ir_utils.tile_view_shape``: the last two dimensions padded up to multiples of 32,
    leading dimensions flattened into rows so that each leading index starts on a tile row), tiles [rows,
    cols] of the view, memory, layout, access ∈ read | write | read_write | unused, dim_order. The DRAM
    buffer holds the view's tiles (page_layout "tile", one page per tile); the host zero-pads inputs into
    it and crops outputs out of it. A tensor ``T.im2col`` gathers from is stored row-major instead
    (page_layout "row_major": one page per row of the last dimension — an NHWC tensor's channels at one
    (n, h, w) — view [rows, channels], no padding), since a gather reads runs of channels, not tiles; it
    may not also be copied as tiles (TTCompileError). So is a tensor copied one row at a time where the row
    does not start a tile row (``lse[b, h, s0:s0 + n]``: rows of other heads share its tiles), its last
    dimension a multiple of 32, and a tensor named in the function attribute ``tt.row_pages`` (another
    program of a staged kernel copies it one row at a time: StagedKernel asks for one layout); their
    other copies are copies of runs of rows. An index table (``tt.index_tables``) is one page of
    32-bit words (page_layout "table", view [1, words]), read. Access is derived from the
    copies' directions. A sharded tensor's ``halo`` (LayoutDesc, elements) becomes tiles [rows, cols] here:
    whole tiles, along a split dimension, no wider than a shard, on a tensor only read or only written
    (else TTCompileError); its buffer holds every shard widened by the halo (sharding.py), which ``pages``
    counts. Global tensors have 2 or more dimensions, else TTCompileError at the first copy touching them.
    ``dim_order`` is the order the tensor's dimensions are stored in (declared dimension numbers, outermost
    first), decided here and only here from how the tile regions use the tensor. A tile spans the last
    dimension and one other, its row dimension. When the regions of an N-D tensor span a row dimension d
    other than the second-to-last (``Q[b, s0:s0 + 64, h, :]`` of a (B, S, H, D) tensor), d is stored next
    to the last dimension ((B, H, S, D): [0, 2, 1, 3]), so every region is a plain 2-D region of the view
    (``shape`` stays as declared: callers pass and get that order; main.cpp permutes). The parameter is
    given the strides of that order (``ir_utils.stored_strides``), which is how ``region`` and later passes
    read it (``ir_utils.storage_order``). A region spanning two dimensions besides the last, or regions of
    one tensor with different row dimensions, are TTCompileErrors at the region.
Example
    before: A: T.Buffer((256, 128), "bfloat16"), T.tl.copy(A[...], A_s[...])
    after:  "tt.tensor_accessors": [TensorAccessor(name="A", param_index=0, tiles=[8, 4], page_size=2048,
                                     format="Float16_b", access="read", memory="DRAM", ...), ...]
    (B: (2, 100, 64) → view=[256, 64], tiles=[8, 2]: each of the 2 leading slices padded to 128 rows)
    (Q: (1, 512, 2, 64) copied as Q[bz, bx * 64:(bx + 1) * 64, by, :] → dim_order=[0, 2, 1, 3],
     "view": [1024, 64]: the two heads' 512 rows one after the other)
Test
    ./bazelw test //compiler/tests/passes:passes_test --test_arg=-k \\
        --test_arg=test_attach_tensor_accessor_tt
"""

from __future__ import annotations

import math

import tvm
import tvm_ffi
from tvm import tirx

from .. import ops, sharding
from ..errors import TTCompileError
from ..ir_utils import (
    def_loc,
    find_ops,
    get_attr,
    is_global,
    is_tensor,
    is_zero_mod,
    region,
    require_attr,
    storage_dtype,
    storage_order,
    stored_shape,
    stored_strides,
    tile_view_shape,
)
from ..records import TensorAccessor
from ..target import BLOCK_FLOAT_DTYPES, DATA_FORMATS, TABLE_WORD_BYTES, TILE, compute_dtype


def _row_dimension(reg, loc: str) -> int | None:
    """The dimension besides the last that a global tile region spans (extent above 1), None when it spans
    none of them (then any row dimension holds it)."""
    rank = len(reg.extents)
    spanned = [d for d in range(rank - 1) if reg.extents[d] != 1]
    if len(spanned) > 1:
        raise TTCompileError.at(
            loc,
            f"this tile region of {reg.name} spans {reg.extents[spanned[0]]} entries of dimension "
            f"{spanned[0]} and {reg.extents[spanned[1]]} of dimension {spanned[1]} of {rank}; a tile must "
            f"lie in two dimensions: the last and one other (one index for each remaining one, e.g. "
            f"Q[b, h, i:i + n, :] or Q[b, i:i + n, h, :])",
        )
    return spanned[0] if spanned else None


def _storage_orders(func: tirx.PrimFunc) -> dict[str, list[int]]:
    """tensor name → stored dimension order, for the N-D tensors whose tile regions span a row dimension
    other than the second-to-last (see the module docstring); the others keep the declared order."""
    rows: dict[str, tuple[int, str, int]] = {}  # tensor → (row dimension, loc of the region fixing it, rank)
    tile_ops = tuple(op for op in ops.TL_OPS if op != "tl.im2col")  # im2col gathers rows, not tiles
    for site in find_ops(func.body, tile_ops):
        for arg in site.call.args:
            if not isinstance(arg, tvm.ir.TensorRegion) or not is_global(arg.source):
                continue
            reg = region(arg, site.loc, tile_view=False)
            row = _row_dimension(reg, site.loc) if len(reg.extents) > 2 else None
            if row is None:
                continue
            fixed = rows.setdefault(reg.name, (row, site.loc, len(reg.extents)))
            if fixed[0] != row:
                raise TTCompileError.at(
                    site.loc,
                    f"this tile region of {reg.name} spans its dimension {row}, but the one at "
                    f"{fixed[1]} spans dimension {fixed[0]}; a tensor is stored in DRAM in one dimension "
                    f"order, with the dimension its tiles span next to the last, so all of its tile "
                    f"regions must span the same dimension (copy through a second tensor for the other)",
                )
    return {
        name: [d for d in range(rank - 1) if d != row] + [row, rank - 1]
        for name, (row, _, rank) in rows.items()
        if row != rank - 2
    }


def _store_in_order(func: tirx.PrimFunc, orders: dict[str, list[int]]) -> tirx.PrimFunc:
    """``func`` with each tensor of ``orders`` replaced by the same tensor carrying the strides of its
    stored order; indices and regions are unchanged (they stay in declared order)."""
    new = {}
    for p in func.params:
        if str(p.name) in orders:
            shape = [int(s) for s in p.shape]
            new[str(p.name)] = (
                p,
                tirx.decl_buffer(
                    shape, p.dtype, str(p.name), strides=stored_strides(shape, orders[str(p.name)])
                ),
            )

    def swap(buf):
        old, stored = new.get(str(buf.name), (None, None))
        return stored if old is not None and old.same_as(buf) else None

    def store(s):
        buf = swap(s.buffer)
        return s if buf is None else tirx.BufferStore(buf, s.value, list(s.indices))

    def load(t):
        buf = swap(t.source)
        return t if buf is None else tirx.BufferLoad(buf, list(t.indices))

    def tile_region(r):
        buf = swap(r.source)
        return r if buf is None else tirx.BufferRegion(buf, list(r.region))

    body = tvm_ffi.structural_map(
        func.body,
        [(tirx.BufferStore, store), (tvm.ir.TensorLoad, load), (tvm.ir.TensorRegion, tile_region)],
        order="post",
    )
    params = [p if swap(p) is None else swap(p) for p in func.params]
    return tirx.PrimFunc(params, body, func.ret_type, func.attrs)


def _single_row(reg) -> bool:
    """Whether a global region on its tile view is one row that does not start a tile row (``lse[b, h,
    s0:s0 + n]`` of a (B, H, S) tensor: head h's row), which only row-major pages can hold apart from the
    rows that share its tiles."""
    return reg.extents[0] == 1 and not is_zero_mod(reg.mins[0], TILE)


def _access_modes(func: tirx.PrimFunc) -> tuple[dict[str, set], dict[str, str]]:
    """tensor name → how the kernel touches it (read, write, gather: T.im2col, rows: single-row copies or
    ``tt.row_pages``, tiles: the other copies), and the location of its first use."""
    modes: dict[str, set] = {}
    first_loc: dict[str, str] = {}
    for site in find_ops(func.body, ("tl.im2col",)):
        img = ops.fields(site.call).img.source
        modes.setdefault(str(img.name), set()).add("gather")
        first_loc.setdefault(str(img.name), site.loc)
    for site in find_ops(func.body, ("tl.copy",)):
        src, dst = (region(r, site.loc) for r in (ops.fields(site.call).src, ops.fields(site.call).dst))
        for reg, mode in ((src, "read"), (dst, "write")):
            if is_global(reg.buffer):
                modes.setdefault(reg.name, set()).update({mode, "rows" if _single_row(reg) else "tiles"})
                first_loc.setdefault(reg.name, site.loc)
    for name in get_attr(func, "tt.row_pages", []):
        modes.setdefault(str(name), set()).add("rows")
    return modes, first_loc


def _row_major_pages(name: str, shape: list[int], mode: set, loc: str) -> list[int]:
    """The view [rows, last dimension] of a tensor stored one page per row of its last dimension, after
    checking that a gathered one is not also copied as tiles (a copied one's tile copies become copies of
    runs of rows, row_copies.py)."""
    if "gather" in mode and "tiles" in mode:
        raise TTCompileError.at(
            loc,
            f"{name} is gathered by T.im2col and also copied as tiles; such a tensor is stored as rows of "
            f"its last dimension, so reading or writing it as tiles too is not supported on Tenstorrent yet",
        )
    # rows shorter than a run, only ever read a whole row at a time (row_copies.py)
    narrow = shape[-1] < TILE and "write" not in mode and "tiles" not in mode
    if "rows" in mode and shape[-1] % TILE and not narrow:
        raise TTCompileError.at(
            loc,
            f"{name} is copied one row at a time, but its rows hold {shape[-1]} values; row copies move "
            f"whole runs of {TILE}, or read a whole row shorter than that (pad the last dimension to a "
            f"multiple of {TILE})",
        )
    return [math.prod(shape[:-1]), shape[-1]]


def _table_accessor(table, index: int, data_format: str, layout) -> TensorAccessor:
    """An index table: the whole tensor as one page of 32-bit words."""
    return TensorAccessor(
        name=table.name,
        param_index=index,
        dtype=table.dtype,
        format=data_format,
        page_layout="table",
        pages=1,
        page_size=table.words * TABLE_WORD_BYTES,
        shape=list(table.shape),
        declared_shape=list(table.shape),
        view=[1, table.words],
        tiles=[0, 0],
        memory=layout.memory,
        layout=layout.layout,
        access="read",
        dim_order=list(range(len(table.shape))),
    )


def _checked_shard_grid(name, layout, view, page_layout, func, loc) -> list[int]:
    """A sharded tensor's shard grid over its tile view, once it is known to cut the view into whole tiles
    and to fit the cores (one shard per core); [] for other tensors."""
    if layout.layout != "sharded":
        return []
    rows, cols = (int(g) for g in layout.shard_grid)
    tiles = [view[0] // TILE, view[1] // TILE]
    target = require_attr(func, "tt.target", "AttachTensorAccessorTT")
    grid_x, grid_y = (int(g) for g in target.grid)
    if page_layout != "tile" or tiles[0] % rows or tiles[1] % cols:
        raise TTCompileError.at(
            loc,
            f"{name} is sharded {rows} x {cols} over its {tiles[0]} x {tiles[1]} tiles; the shard grid must "
            f"cut its tiles into whole tiles, equally",
        )
    if not sharding.fits([rows, cols], layout.shard_order, (grid_x, grid_y)):
        raise TTCompileError.at(
            loc,
            f"{name} is sharded {rows} x {cols} ({sharding.buffer_layout([rows, cols])}, "
            f"{layout.shard_order}), but {target.name}'s {grid_x} x {grid_y} cores cannot hold one shard "
            f"each that way",
        )
    return [rows, cols]


def _checked_halo(name, layout, tiles, shard_grid, access, loc) -> list[int]:
    """The halo of a sharded tensor in tiles [rows, cols], once it is whole tiles, along split dimensions
    only, no wider than a shard, on a tensor the kernels read or write but not both (its writer fills the
    neighbours' halos); [] for tensors without one."""
    if not any(layout.halo):
        return []
    halo = [int(h) for h in layout.halo]
    for h, what, n, g in zip(halo, ("rows", "columns"), tiles, shard_grid, strict=True):
        if h % TILE:
            raise TTCompileError.at(
                loc,
                f"the halo of {name} is {halo} elements; halos are whole {TILE}x{TILE} tiles on Tenstorrent "
                f"({h} {what} is not a multiple of {TILE})",
            )
        if h and g == 1:
            raise TTCompileError.at(
                loc,
                f"the halo of {name} reaches {h} {what} past its shards, but {name} is not split along its "
                f"{what} (shard grid {shard_grid[0]} x {shard_grid[1]}): no neighbouring shard holds them",
            )
        if h // TILE > n // g:
            raise TTCompileError.at(
                loc,
                f"the halo of {name} ({h} {what}) is wider than its shards ({n // g * TILE} {what}); a halo "
                f"reaches the neighbouring shards only",
            )
    if access == "read_write":
        raise TTCompileError.at(
            loc,
            f"{name} has a halo and the kernels both read and write it: a core's copies of its neighbours' "
            f"tiles would be read while the neighbours write them; read it in one program (T.Kernel block) "
            f"and write it in another",
        )
    return [h // TILE for h in halo]


def AttachTensorAccessorTT() -> tvm.transform.Pass:  # noqa: N802
    def transform(func: tirx.PrimFunc, mod, ctx) -> tirx.PrimFunc:
        formats = require_attr(func, "tt.data_formats", "AttachTensorAccessorTT")
        layouts = require_attr(func, "tt.layout_desc", "AttachTensorAccessorTT")
        orders = _storage_orders(func)
        if orders:
            func = _store_in_order(func, orders)
        modes, first_loc = _access_modes(func)
        accessors = []
        declared = get_attr(func, "tt.declared_shapes", {})
        tables = {t.name: t for t in get_attr(func, "tt.index_tables", [])}
        for index, param in enumerate(func.params):
            if not is_tensor(param):
                raise TTCompileError.at(
                    def_loc(func),
                    f"parameter {param.name} is a scalar; only tensor parameters are supported on "
                    f"Tenstorrent yet",
                )
            buf = param
            name, shape = str(buf.name), [int(s) for s in buf.shape]
            if name in tables:
                if layouts[name].layout == "sharded":
                    raise TTCompileError.at(
                        tables[name].loc,
                        f"{name} is read one value at a time (an index table), which lives whole in one "
                        f"page; it cannot be sharded",
                    )
                accessors.append(_table_accessor(tables[name], index, formats[name], layouts[name]))
                continue
            loc = first_loc.get(name, "")
            if len(shape) < 2:
                raise TTCompileError.at(
                    loc,
                    f"tensor {name} has shape {tuple(shape)}; tensors of 2 or more dimensions are supported",
                )
            order = storage_order(buf)
            mode = modes.get(name, set())
            page_layout, view = "tile", tile_view_shape(stored_shape(shape, order))
            if mode & {"gather", "rows"}:
                page_layout, view = "row_major", _row_major_pages(name, shape, mode, loc)
            directions = mode & {"read", "write"} | ({"read"} if "gather" in mode else set())
            access = (
                "read_write" if len(directions) == 2 else (next(iter(directions)) if directions else "unused")
            )
            dtype = storage_dtype(func, buf)
            if page_layout != "tile" and dtype in BLOCK_FLOAT_DTYPES:
                raise TTCompileError.at(
                    loc,
                    f"{name} is stored as {dtype}, which holds 32x32 tiles only, but is copied as rows "
                    f"(gathered, or one row at a time); store it as {compute_dtype(dtype)}",
                )
            tile_bytes = DATA_FORMATS[dtype][1]
            shard_grid = _checked_shard_grid(name, layouts[name], view, page_layout, func, loc)
            tiles = [view[0] // TILE, view[1] // TILE] if page_layout == "tile" else [0, 0]
            halo = _checked_halo(name, layouts[name], tiles, shard_grid, access, loc)
            stored = sharding.stored_grid(tiles, shard_grid, halo) if halo else tiles
            accessors.append(
                TensorAccessor(
                    name=name,
                    param_index=index,
                    dtype=dtype,
                    format=formats[name],
                    page_layout=page_layout,
                    pages=view[0] if page_layout == "row_major" else stored[0] * stored[1],
                    page_size=view[1] * tile_bytes // (TILE * TILE)
                    if page_layout == "row_major"
                    else tile_bytes,
                    shape=shape,
                    # what callers pass: a 1-D tensor is (L, 1) or (1, L) here (LegalizeVectorsTT)
                    declared_shape=declared.get(name, shape),
                    view=view,
                    tiles=tiles,
                    memory=layouts[name].memory,
                    layout=layouts[name].layout,
                    access=access,
                    dim_order=order,
                    shard_grid=shard_grid,
                    shard_order=layouts[name].shard_order,
                    halo=halo,
                )
            )
        return func.with_attr("tt.tensor_accessors", accessors)

    return tirx.transform.prim_func_pass(transform, opt_level=0, name="AttachTensorAccessorTT")
