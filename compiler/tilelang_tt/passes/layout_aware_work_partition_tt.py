"""B1 · LayoutAwareWorkPartitionTT — assign every output block of the launch grid to exactly one core.

Input expectations
    ``tt.target``, ``tt.options`` and ``tt.tensor_accessors`` (stage A). The launch grid is ``blockIdx.x``
    (and ``blockIdx.y``, ``blockIdx.z``) thread extents; one ``tl.copy`` stores a tile to a global tensor.
    The output block each grid point owns is read off that store's start indices on the tensor's 2-D tile
    view (``C[by * bM, bx * bN]``: rows are driven by ``by``; ``C[bz, by * bM, bx * bN]`` of a (B, M, N)
    tensor: view rows ``bz * ceil32(M) + by * bM``, driven by ``bz`` and ``by``; ``O[bz, bx * bM, by, :]`` of
    a (B, S, H, D) tensor stored as (B, H, S, D), AttachTensorAccessorTT's ``dim_order``: view rows
    ``(bz * H + by) * ceil32(S) + bx * bM``), never from names; a store of one row (a tensor stored a
    page per row) is read on the row-major view and counts only when the kernel stores no tile. Each view
    dimension's block index must be a mixed-radix number of grid indices (coefficients 1, extent, ...) so
    that the grid covers every block once. A ``tl.gemm`` inside serial loops that do not index its
    accumulator makes those loops the reduction (their trip count × K tiles per gemm = ``len_k``).
Output guarantees
    ``tt.grid`` a ``Grid`` (x, y, z, row_axes / col_axes as ``GridAxis`` (tag, blocks), block_shape,
    num_blocks); ``tt.core_work`` one ``CoreWork`` per used core (core [x, y], start, count and, for the
    ``rect`` encoding, rect [first block row, first block column, block columns]; linear block ids are
    (bz * gy + by) * gx + bx); ``tt.work_encoding`` (how kernels receive their work: ``range_row_major`` /
    ``range_column_major`` = the core's blocks are ``count`` consecutive ids from ``start`` in that order,
    ``rect`` = the core's rectangle of blocks, row by row); ``tt.core_ranges`` ``CoreRange``s
    (x0, y0, x1, y1); ``tt.work_partition`` a ``WorkPartition`` (len_k, tile_order) (an output block's row and
    column are ``Grid.output_block(id)``). Nothing here grows with the number of blocks beyond the per-core
    table. A ``block`` partition whose cores divide the block rows and columns evenly (and uses more than
    one core) also gets ``tt.lockstep_grid``, a ``LockstepGrid`` (cores_x, cores_y): its shared reads are
    multicast (LowerCBIntrinsics).
    Strategies: row_major (blocks and cores both row-major, contiguous chunks, the first
    cores take one extra block like the SDK's split_work_to_cores), column_major (both column-major),
    z_order (runs along the Z curve of the block grid, ``range_z_order``: a core's ``count`` positions from
    ``start``, those outside the grid skipped), match_shard (each block on the core holding the shard of a
    sharded tensor its first copy of that tensor lies in; ``rect`` when every core's blocks are a rectangle,
    lockstep where they are a block partition's, else ``range_row_major``), block
    (a 2-D rectangle of blocks per core), balanced (row_major's runs, but the grid axis a loop bound depends
    on — causal attention's row block, whose K/V loop grows with it — is walked from both ends in turn,
    0, n-1, 1, n-2, ..., so a core's run pairs long blocks with short ones: ``WorkPartition.balanced_axis``),
    auto (block where the cores can step in lockstep, the output blocks hold at least
    MIN_MULTICAST_BLOCK_TILES tiles, so shared reads are multicast, and the rectangles keep as many cores
    busy as row_major would — or, where the core grid does not divide the block grid, block on the largest
    rectangle of cores that does, if it keeps MIN_EVEN_RECTANGLE_SHARE of them busy and the loop around its
    GEMMs only loads and multiplies; else balanced where a loop bound depends on a grid axis; else
    row_major).
    A global tensor's ``tile_id_order`` (column_major, z_order, match_shard) chooses the strategy over
    auto and row_major; two different orders, or a strategy that contradicts one, are TTCompileErrors.
    An output whose padded tile view the grid's blocks do not cover → TTCompileError at the store (blocks
    reaching past its end are legal: CheckTileBoundsTT).
Example
    before: T.launch_thread("blockIdx.x", 4); T.launch_thread("blockIdx.y", 2); ... C[by*64.., bx*64..]
    after:  "tt.core_work": [CoreWork(core=[0, 0], start=0, count=1), ...],
            "tt.work_partition": WorkPartition(len_k=8, tile_order="row_major")
Test
    ./bazelw test //compiler/tests/passes:passes_test --test_arg=-k \\
        --test_arg=test_layout_aware_work_partition_tt
"""

from __future__ import annotations

import tvm
import tvm_ffi
from tvm import tirx

from .. import ops
from ..errors import TTCompileError
from ..ir_utils import (
    collect_vars,
    def_loc,
    find_ops,
    get_attr,
    is_global,
    padded_to_tile,
    parallel_loc,
    region,
    require_attr,
    simplify,
    tiles,
)
from ..records import CoreRange, CoreWork, Grid, GridAxis, LockstepGrid, WorkPartition, walk_from_both_ends
from ..row_copies import row_major_region
from ..sharding import shard_cores


def launch_grid(func: tirx.PrimFunc) -> dict[str, tuple]:
    """blockIdx tag → (var, extent) of the launch threads at the top of the body."""
    grid, node = {}, func.body
    while isinstance(node, tirx.AttrStmt):
        if node.attr_key == "thread_extent" and str(node.node.thread_tag).startswith("blockIdx."):
            extent = simplify(node.value)
            if not isinstance(extent, tirx.IntImm):
                raise TTCompileError(f"grid extent {node.value} must be a constant")
            grid[str(node.node.thread_tag)] = (node.node.var, int(extent.value))
        node = node.body
    return grid


def _loop_span(start, extent: int, loops, names: dict) -> tuple:
    """(start at the iteration that stores the lowest index, extent covered) of a store whose start also
    moves with serial loops around it (``Y[i_m * 32, i_n * 128]`` in ``for i_n``, or backwards:
    ``(n - 1 - k) * 128``): each grid point owns everything its loops store. ``names`` are the kernel's
    named values (``num_k_step = T.ceildiv(N, blk_k)``), substituted first."""
    start = simplify(tvm_ffi.structural_map(start, (tvm.ir.Var, lambda v: names.get(v, v))))
    moving = [lp for lp in loops if any(v.same_as(lp.loop_var) for v in collect_vars(start))]
    if not moving:
        return start, extent
    coefficients = tvm.sym.detect_linear_equation(start, [lp.loop_var for lp in moving])
    span, lowest = extent, {}
    for lp, c in zip(moving, coefficients, strict=False):
        trips = simplify(tvm_ffi.structural_map(lp.extent, (tvm.ir.Var, lambda v: names.get(v, v))))
        if not isinstance(trips, tirx.IntImm) or not isinstance(c, tirx.IntImm):
            return start, extent  # _block_axes reports the start as not following the grid
        span += abs(int(c)) * (int(trips.value) - 1)
        lowest[lp.loop_var] = lp.min if int(c) >= 0 else lp.min + int(trips.value) - 1
    first = simplify(tvm_ffi.structural_map(start, (tvm.ir.Var, lambda v: lowest.get(v, v))))
    return first, span


def _named_values(body) -> dict:
    """Every named value (``Bind``) of the kernel: variable → value."""
    names = {}
    tvm_ffi.structural_walk(body, (tirx.Bind, lambda b: names.__setitem__(b.var, b.value)))
    return names


def _loop_bound_axis(body, grid: dict, names: dict) -> str:
    """The first grid axis (x, y, z) a loop's trip count depends on (causal attention's K/V loop runs to
    its row block), or "" when every grid point loops alike."""
    grid_vars = {tag: var for tag, (var, _) in grid.items()}
    axes = set()

    def visit(loop: tirx.For):
        extent = loop.extent
        for _ in range(8):  # named values may be built from other named values
            extent = tvm_ffi.structural_map(extent, (tvm.ir.Var, lambda v: names.get(v, v)))
        used = collect_vars(extent)
        axes.update(tag for tag, var in grid_vars.items() if any(v.same_as(var) for v in used))

    tvm_ffi.structural_walk(body, (tirx.For, visit))
    return next((tag for tag in ("blockIdx.x", "blockIdx.y", "blockIdx.z") if tag in axes), "")


def _block_axes(expr, block: int, grid: dict, loc: str, what: str) -> list[list]:
    """[[tag, coefficient], ...]: the output block index along one view dimension, ``expr / block``, as a
    sum of grid indices times coefficients (ascending), which must count each block once. An axis of one
    point is 0."""
    ones = [var for var, extent in grid.values() if extent == 1]
    zero = tirx.const(0, "int32")
    expr = simplify(
        tvm_ffi.structural_map(expr, (tvm.ir.Var, lambda v: zero if any(v.same_as(o) for o in ones) else v))
    )
    tags = [tag for tag, (var, _) in grid.items() if any(v.same_as(var) for v in collect_vars(expr))]
    if not tags:
        if not (isinstance(expr, tirx.IntImm) and int(expr.value) == 0):
            raise TTCompileError.at(loc, f"output {what} start {expr} does not follow the launch grid")
        return []
    coefficients = tvm.sym.detect_linear_equation(expr, [grid[t][0] for t in tags])
    terms = []
    constant = coefficients[-1] if len(coefficients) == len(tags) + 1 else None
    if isinstance(constant, tirx.IntImm) and int(constant) == 0:
        terms = [
            [t, int(c) // block] for t, c in zip(tags, coefficients, strict=False) if int(c) % block == 0
        ]
    if len(terms) != len(tags):
        raise TTCompileError.at(
            loc, f"output {what} start must be a sum of <grid index> * <multiple of {block}>, got {expr}"
        )
    terms.sort(key=lambda term: term[1])
    radix = 1
    for tag, coefficient in terms:
        if coefficient != radix:
            raise TTCompileError.at(
                loc,
                f"output {what} start {expr}: {tag} steps {coefficient} blocks where {radix} would make the "
                f"grid cover each block once",
            )
        radix *= grid[tag][1]
    return terms


def balanced_block(position: int, extents: dict, axis: str) -> int:
    """The linear block id ((bz * gy + by) * gx + bx) at ``position`` of the ``balanced`` order: row-major
    positions whose ``axis`` index is walked from both ends. ``extents``: grid tag → extent."""
    gx, gy = extents["blockIdx.x"], extents["blockIdx.y"]
    index = {
        "blockIdx.x": position % gx,
        "blockIdx.y": position // gx % gy,
        "blockIdx.z": position // (gx * gy),
    }
    index[axis] = walk_from_both_ends(index[axis], extents[axis])
    return (index["blockIdx.z"] * gy + index["blockIdx.y"]) * gx + index["blockIdx.x"]


def core_blocks(encoding: str, gx: int, rows: int, work: CoreWork, gy: int = 1, axis: str = "") -> list[int]:
    """The linear block ids one core computes, in order (``rows`` = gy * gz block rows; for the
    ``range_balanced`` encoding also ``gy`` and the balanced ``axis``)."""
    if encoding == "rect":
        row0, col0, cols = work.rect
        return [(row0 + i // cols) * gx + col0 + i % cols for i in range(work.count)]
    ids = range(work.start, work.start + work.count)
    if encoding == "range_row_major":
        return list(ids)
    if encoding == "range_balanced":
        extents = {"blockIdx.x": gx, "blockIdx.y": gy, "blockIdx.z": rows // gy}
        return [balanced_block(i, extents, axis) for i in ids]
    if encoding == "range_z_order":
        blocks = (z_order_block(i) for i in ids)
        return [row * gx + col for row, col in blocks if row < rows and col < gx]
    return [i % rows * gx + i // rows for i in ids]


def z_order_position(row: int, col: int) -> int:
    """The position of block (row, col) on the Z (Morton) curve: the bits of col and row interleaved, col's
    in the even places."""
    position, bit = 0, 0
    while row >> bit or col >> bit:
        position |= ((col >> bit) & 1) << (2 * bit) | ((row >> bit) & 1) << (2 * bit + 1)
        bit += 1
    return position


def z_order_block(position: int) -> tuple[int, int]:
    """(row, col) at ``position`` of the Z curve (z_order_position's inverse)."""
    row = col = 0
    for bit in range(32):
        col |= ((position >> (2 * bit)) & 1) << bit
        row |= ((position >> (2 * bit + 1)) & 1) << bit
    return row, col


def _z_order_work(gx: int, rows: int, cores: list[tuple[int, int]]) -> list[CoreWork]:
    """Runs of consecutive blocks along the Z curve, split as row_major splits its runs. The curve covers
    the smallest power-of-two square around the grid, so a core's run is ``count`` positions from ``start``
    of which those outside the grid are skipped (the kernels test each)."""
    positions = sorted(z_order_position(r, c) for r in range(rows) for c in range(gx))
    work, first = [], 0
    for core, count in zip(cores, _split(len(positions), len(cores)), strict=False):
        start, last = positions[first], positions[first + count - 1]
        work.append(CoreWork(core=list(core), start=start, count=last + 1 - start))
        first += count
    return work


def _split(units: int, workers: int) -> list[int]:
    base, extra = divmod(units, workers)
    return [base + 1] * extra + [base] * (workers - extra)


def assign(strategy: str, gx: int, gy: int, cores_x: int, cores_y: int) -> list[CoreWork]:
    """Blocks (linear id by * gx + bx; a 3-D grid passes gy * gz rows) → cores, for one strategy: a
    rectangle of ids per core for ``block``, else ``count`` consecutive blocks from ``start`` in the
    strategy's order (no per-block list)."""
    n_blocks = gx * gy
    work = []
    if strategy == "block":
        cx, cy = min(cores_x, gx), min(cores_y, gy)
        row_parts, col_parts = _split(gy, cy), _split(gx, cx)
        r0 = 0
        for y, rows in enumerate(row_parts):
            c0 = 0
            for x, cols in enumerate(col_parts):
                work.append(CoreWork(core=[x, y], start=r0 * gx + c0, count=rows * cols, rect=[r0, c0, cols]))
                c0 += cols
            r0 += rows
        return work
    n_cores = min(n_blocks, cores_x * cores_y)
    if strategy in ("row_major", "balanced", "z_order"):
        cores = [(x, y) for y in range(cores_y) for x in range(cores_x)][:n_cores]
    else:
        cores = [(x, y) for x in range(cores_x) for y in range(cores_y)][:n_cores]
    if strategy == "z_order":
        return _z_order_work(gx, gy, cores)
    start = 0
    for core, count in zip(cores, _split(n_blocks, n_cores), strict=False):
        work.append(CoreWork(core=list(core), start=start, count=count))
        start += count
    return work


# Output tiles a block needs before multicasting its reads pays: every hand-off costs a semaphore round trip
# (two NOC latencies), which a block of 16 tiles amortises over 16 tile products per shared tile pair. With
# 32x32 blocks the timing model has multicast 35% slower than every core reading its own (1024^3: 1.09 ms
# against 0.81 ms), at 64x64 about even, at 128x128 twice as fast.
MIN_MULTICAST_BLOCK_TILES = 16


# A block grid the cores do not divide evenly (16 x 16 blocks on Blackhole's 13 x 10 cores) steps in lockstep
# on a smaller rectangle of cores that does divide it (8 x 8), when that keeps at least this share of the
# cores row_major would use busy: measured (timing model, Blackhole 4096^3, packer_l1_acc), 256x256 blocks
# take 1.61 ms multicast on 64 cores against 2.25 ms unicast on 130, 128x128 blocks 2.07 ms against 5.68.
MIN_EVEN_RECTANGLE_SHARE = 0.25


def _even_core_rectangle(gx: int, rows: int, grid) -> tuple[int, int] | None:
    """The largest rectangle of cores (x, y) within ``grid`` whose sides divide the block grid's columns and
    rows, when the whole grid does not and it keeps MIN_EVEN_RECTANGLE_SHARE of the cores busy."""
    divisors = lambda n, limit: [d for d in range(1, min(n, limit) + 1) if n % d == 0]  # noqa: E731
    best = max(
        ((x, y) for x in divisors(gx, grid[0]) for y in divisors(rows, grid[1])), key=lambda c: c[0] * c[1]
    )
    if best == (min(gx, grid[0]), min(rows, grid[1])) or best[0] * best[1] < 2:
        return None  # the whole grid divides the blocks already, or no rectangle of two cores does
    busy = min(gx * rows, grid[0] * grid[1])
    return best if best[0] * best[1] >= MIN_EVEN_RECTANGLE_SHARE * busy else None


def _works_beyond_products_each_step(body) -> bool:
    """Whether a loop around a ``T.gemm`` also does element-wise or reduction work every step (attention's
    softmax between its two GEMMs). Such a program keeps the math RISC busier than DRAM, so every core is
    worth more than the reads a multicast rectangle of fewer cores would share: flash attention on
    Blackhole, 32x32 blocks of 128 rows, 4.5 ms on all 130 cores against 6.7 ms in lockstep on 8x8, where
    a GEMM with its epilogue after the K loop gains from the rectangle (2.05 ms against 2.38)."""
    for site in find_ops(body, ("tl.gemm",)):
        for loop in site.loops:
            if parallel_loc(loop) is None and (
                find_ops(loop.body, ("tl.reduce",)) or _has_parallel(loop.body)
            ):
                return True
    return False


def _has_parallel(stmt) -> bool:
    found = []
    tvm_ffi.structural_walk(stmt, (tirx.For, lambda f: found.append(f) if parallel_loc(f) else None))
    return bool(found)


def lockstep_grid(strategy: str, gx: int, rows: int, work: list[CoreWork]) -> LockstepGrid | None:
    """The core rectangle of a ``block`` partition in which every core has the same number of block rows
    and columns (``rows`` = gy * gz block rows), if it has more than one core; a ``match_shard`` partition
    that gives every core the rectangle a block partition would (a block-sharded output) steps alike."""
    if strategy not in ("block", "match_shard") or len(work) < 2:
        return None
    cores_x = 1 + max(w.core[0] for w in work)
    cores_y = 1 + max(w.core[1] for w in work)
    if gx % cores_x or rows % cores_y:
        return None
    if strategy == "match_shard":
        as_blocks = {
            (tuple(w.core), w.start, w.count, tuple(w.rect))
            for w in assign("block", gx, rows, cores_x, cores_y)
        }
        if {(tuple(w.core), w.start, w.count, tuple(w.rect)) for w in work} != as_blocks:
            return None
    return LockstepGrid(cores_x=cores_x, cores_y=cores_y)


def core_ranges(cores: list[list[int]]) -> list[CoreRange]:
    """Merge cores into runs along x (one range per row run)."""
    runs = []
    for x, y in sorted(cores, key=lambda c: (c[1], c[0])):
        if runs and runs[-1][1] == y and runs[-1][2] == x - 1:
            runs[-1][2] = x
        else:
            runs.append([x, y, x, y])
    return [CoreRange(x0=x0, y0=y0, x1=x1, y1=y1) for x0, y0, x1, y1 in runs]


def _len_k(func: tirx.PrimFunc) -> int:
    total = 0
    for site in find_ops(func.body, ("tl.gemm",)):
        a = region(ops.fields(site.call).a, site.loc)
        k_tiles = tiles(a.extents[0] if ops.fields(site.call).trans_a else a.extents[1])
        trips = 1
        for loop in site.loops:
            trips *= int(simplify(loop.extent).value) if isinstance(simplify(loop.extent), tirx.IntImm) else 1
        total = max(total, trips * k_tiles)
    return total


def _hinted_order(func: tirx.PrimFunc, strategy: str) -> tuple[str, list[str]]:
    """(strategy, the tensors that ask for it): the tile_id_order the global tensors' layouts set (row_major
    unless hinted), which the partition strategy may name too but not contradict (row_major, the default
    order, gives way to it)."""
    hinted: dict[str, list[str]] = {}
    for name, desc in get_attr(func, "tt.layout_desc", {}).items():
        if desc.layout != "cb" and desc.tile_id_order != "row_major":
            hinted.setdefault(desc.tile_id_order, []).append(name)
    if not hinted:
        return strategy, []
    if len(hinted) > 1:
        (first, names), (second, others) = sorted(hinted.items())[:2]
        raise TTCompileError.at(
            def_loc(func),
            f"{names[0]} has tile_id_order {first!r} but {others[0]} {second!r}; the cores walk the output "
            f"blocks in one order, so give the tensors the same one",
        )
    order, names = next(iter(hinted.items()))
    if strategy not in ("auto", "row_major", order):
        raise TTCompileError.at(
            def_loc(func),
            f"the partition strategy {strategy!r} contradicts tile_id_order {order!r} of {names[0]}; "
            f"keep one of them",
        )
    return order, names


def _shard_of_each_block(func, name: str, grid: dict, names: dict, cores_xy) -> list[tuple[int, int]]:
    """The core (x, y) holding the shard of sharded tensor ``name`` that each grid point's copy of it (the
    first ``T.copy`` from or to it, with the serial loops around it) lies in, by linear block id."""
    desc = get_attr(func, "tt.layout_desc")[name]  # sharded: PropagateTTLayout
    sites = [
        (s, r)
        for s in find_ops(func.body, ("tl.copy",))
        for r in (ops.fields(s.call).src, ops.fields(s.call).dst)
        if is_global(r.source) and str(r.source.name) == name
    ]
    if not sites:
        raise TTCompileError.at(
            def_loc(func), f"{name} has tile_id_order 'match_shard' but the kernel does not T.copy it"
        )
    site, value = sites[0]
    reg = region(value, site.loc)
    tags = sorted(grid)
    starts, spans = [], []
    for d in (0, 1):
        start, span = _loop_span(reg.mins[d], reg.extents[d], site.loops, names)
        coefficients = tvm.sym.detect_linear_equation(start, [grid[t][0] for t in tags])
        if len(coefficients) != len(tags) + 1 or not all(isinstance(c, tirx.IntImm) for c in coefficients):
            raise TTCompileError.at(
                site.loc,
                f"tile_id_order 'match_shard' needs the start of {name}'s block to be linear in the grid "
                f"indices, got {start}",
            )
        starts.append([int(c) for c in coefficients])
        spans.append(span)
    shard_rows, shard_cols = (tiles(reg.shape[d]) // desc.shard_grid[d] for d in (0, 1))
    cores = shard_cores(desc.shard_grid, desc.shard_order, cores_xy)
    gx, gy, gz = (grid.get(f"blockIdx.{a}", (None, 1))[1] for a in "xyz")
    owners = []
    for block in range(gx * gy * gz):
        index = {"blockIdx.x": block % gx, "blockIdx.y": block // gx % gy, "blockIdx.z": block // (gx * gy)}
        first = [c[-1] + sum(k * index[t] for k, t in zip(c, tags, strict=False)) for c in starts]
        shard = [
            (tiles(first[d]) // size, tiles(first[d] + spans[d] - 1) // size)
            for d, size in enumerate((shard_rows, shard_cols))
        ]
        if shard[0][0] != shard[0][1] or shard[1][0] != shard[1][1]:
            point = ", ".join(f"{t}={index[t]}" for t in tags)
            raise TTCompileError.at(
                site.loc,
                f"tile_id_order 'match_shard': grid point ({point}) copies {name}[{first[0]}:"
                f"{first[0] + spans[0]}, {first[1]}:{first[1] + spans[1]}] (on its tile view), which crosses "
                f"shards of {shard_rows}x{shard_cols} tiles; each grid point's block must lie in one shard",
            )
        owners.append(cores[shard[0][0] * desc.shard_grid[1] + shard[1][0]])
    return owners


def _match_shard_work(
    owners: list[tuple[int, int]], gx: int, loc: str, name: str
) -> tuple[list[CoreWork], str]:
    """(work, encoding) that computes each block on its owner: a rectangle of blocks per core (``rect``,
    which multicasts where it matches a block partition), else a run of consecutive block ids
    (``range_row_major``)."""
    per_core: dict[tuple[int, int], list[int]] = {}
    for block, core in enumerate(owners):
        per_core.setdefault(core, []).append(block)
    cores = sorted(per_core, key=lambda c: (c[1], c[0]))
    rects = {}
    for core, ids in per_core.items():
        row0, col0 = divmod(ids[0], gx)
        cols = 1 + max(i % gx for i in ids) - col0
        if [(row0 + i // cols) * gx + col0 + i % cols for i in range(len(ids))] == ids:
            rects[core] = [row0, col0, cols]
    if len(rects) == len(per_core):
        work = [
            CoreWork(core=list(c), start=per_core[c][0], count=len(per_core[c]), rect=rects[c]) for c in cores
        ]
        return work, "rect"
    if all(ids[-1] - ids[0] + 1 == len(ids) for ids in per_core.values()):
        work = [CoreWork(core=list(c), start=per_core[c][0], count=len(per_core[c])) for c in cores]
        return work, "range_row_major"
    core = next(c for c in cores if c not in rects)
    raise TTCompileError.at(
        loc,
        f"tile_id_order 'match_shard': the blocks in core {core}'s shard of {name} are neither a run of the "
        f"grid's blocks nor a rectangle of them",
    )


def _moves_with_a_loop(store) -> bool:
    """Whether the region a store writes starts at a position that a loop around it (other than the work
    loop) moves."""
    used = [v for m in ops.fields(store.call).dst.region for v in collect_vars(m.min)]
    return any(any(lp.loop_var.same_as(v) for v in used) for lp in store.loops)


def LayoutAwareWorkPartitionTT() -> tvm.transform.Pass:  # noqa: N802
    def transform(func: tirx.PrimFunc, mod, ctx) -> tirx.PrimFunc:
        target = require_attr(func, "tt.target", "LayoutAwareWorkPartitionTT")
        strategy = require_attr(func, "tt.options", "LayoutAwareWorkPartitionTT").partition_strategy
        grid = launch_grid(func)
        copies = [s for s in find_ops(func.body, ("tl.copy",)) if is_global(ops.fields(s.call).dst.source)]
        # the output block a grid point owns: a tile stored to a global tensor, or else a global-to-global
        # copy (which goes reader → writer through one circular buffer)
        stores = [s for s in copies if not is_global(ops.fields(s.call).src.source)] or copies
        # a tile store rather than a one-row one (a per-row statistic beside the block it belongs to)
        rows = {a.name for a in get_attr(func, "tt.tensor_accessors", []) if a.page_layout == "row_major"}
        stores = [s for s in stores if str(ops.fields(s.call).dst.source.name) not in rows] or stores
        # one a grid point writes once, not one per step of a loop (attention backward's dK beside its dQ
        # shares, written at each query block)
        stores = [s for s in stores if not _moves_with_a_loop(s)] or stores
        if not stores:
            raise TTCompileError.at(
                def_loc(func), "the kernel stores nothing to a global tensor: T.copy a result into one"
            )
        store = stores[0]
        dst = region(ops.fields(store.call).dst, store.loc)
        if dst.name in rows:
            dst = row_major_region(region(ops.fields(store.call).dst, store.loc, tile_view=False), store.loc)
        names = _named_values(func.body)
        spans = [_loop_span(dst.mins[d], dst.extents[d], store.loops, names) for d in (0, 1)]
        axes = [_block_axes(spans[d][0], spans[d][1], grid, store.loc, ("row", "column")[d]) for d in (0, 1)]
        extents = {tag: ext for tag, (_, ext) in grid.items()}
        both = {tag for tag, _ in axes[0]} & {tag for tag, _ in axes[1]}
        if both:
            raise TTCompileError.at(
                store.loc,
                f"grid axis {sorted(both)[0]} selects both the row and the column of the output block, so "
                f"only the diagonal blocks would be written; give rows and columns their own grid axes",
            )
        used = {tag for terms in axes for tag, _ in terms}
        for tag, ext in extents.items():
            if ext > 1 and tag not in used:
                raise TTCompileError.at(
                    store.loc,
                    f"grid axis {tag} does not select an output block, so "
                    f"{ext} blocks would write the same tile",
                )
        for d, dim in enumerate(("rows", "columns")):
            covered = spans[d][1]
            for tag, _ in axes[d]:
                covered *= extents[tag]
            if padded_to_tile(covered) < dst.shape[d]:
                raise TTCompileError.at(
                    store.loc,
                    f"{dst.name} has {dst.shape[d]} {dim} (padded to tiles) but the grid covers only "
                    f"{covered} (block size {dst.extents[d]}); the launch grid must cover the output",
                )
        gx, gy, gz = (extents.get(f"blockIdx.{a}", 1) for a in "xyz")
        uneven_axis = _loop_bound_axis(func.body, grid, names)
        strategy, ordered = _hinted_order(func, strategy)
        cores_x, cores_y = target.grid
        if strategy == "auto":
            blocks = assign("block", gx, gy * gz, cores_x, cores_y)
            big = tiles(spans[0][1]) * tiles(spans[1][1]) >= MIN_MULTICAST_BLOCK_TILES
            # Cores whose loops run for different trip counts cannot step in lockstep (no multicast).
            lockstep = lockstep_grid("block", gx, gy * gz, blocks) is not None and not uneven_axis
            # A grid one block column wide (softmax's rows) fills one core column as rectangles: multicast
            # does not pay for leaving the other cores idle.
            every_core = len(blocks) == min(gx * gy * gz, cores_x * cores_y)
            strategy = "block" if big and lockstep and every_core else "balanced"
            sub = _even_core_rectangle(gx, gy * gz, target.grid)
            if (
                strategy == "balanced"
                and big
                and not uneven_axis
                and not lockstep
                and sub is not None
                and not _works_beyond_products_each_step(func.body)
            ):
                strategy, (cores_x, cores_y) = "block", sub
        if strategy == "balanced" and not uneven_axis:
            strategy = "row_major"  # every block loops alike: nothing to balance
        balanced_axis = uneven_axis if strategy == "balanced" else ""
        if strategy == "match_shard":
            owners = [_shard_of_each_block(func, name, grid, names, target.grid) for name in ordered]
            for name, other in zip(ordered[1:], owners[1:], strict=True):
                if other != owners[0]:
                    raise TTCompileError.at(
                        def_loc(func),
                        f"tile_id_order 'match_shard' of {ordered[0]} and {name}: their shards put grid "
                        f"point {next(b for b, c in enumerate(other) if c != owners[0][b])} on different "
                        f"cores; shard them alike or let one of them match",
                    )
            work, encoding = _match_shard_work(owners[0], gx, store.loc, ordered[0])
        else:
            work = assign(strategy, gx, gy * gz, cores_x, cores_y)
            encoding = "rect" if strategy == "block" else f"range_{strategy}"
        lockstep = lockstep_grid(strategy, gx, gy * gz, work)
        return func.with_attrs(
            ({"tt.lockstep_grid": lockstep} if lockstep is not None else {})
            | {
                "tt.grid": Grid(
                    x=gx,
                    y=gy,
                    z=gz,
                    row_axes=[GridAxis(tag=tag, blocks=blocks) for tag, blocks in axes[0]],
                    col_axes=[GridAxis(tag=tag, blocks=blocks) for tag, blocks in axes[1]],
                    block_shape=[spans[0][1], spans[1][1]],
                    num_blocks=gx * gy * gz,
                ),
                "tt.core_work": work,
                "tt.work_encoding": encoding,
                "tt.core_ranges": core_ranges([list(w.core) for w in work]),
                "tt.work_partition": WorkPartition(
                    len_k=_len_k(func), tile_order=strategy, balanced_axis=balanced_axis
                ),
            }
        )

    return tirx.transform.prim_func_pass(transform, opt_level=0, name="LayoutAwareWorkPartitionTT")
