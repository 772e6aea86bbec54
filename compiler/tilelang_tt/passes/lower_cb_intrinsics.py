"""D3 · LowerCBIntrinsics — give the reader and writer kernels their NOC + circular-buffer protocol.

Input expectations
    Reader/writer kernels with ``tt.read_to_cb`` / ``tt.write_from_cb`` on accessor variables
    (ConfigureTensorAccessorTT); ``tt.cb_table`` (with the writer's ``subblock``) and ``tt.options``.
Output guarantees
    No tile intrinsic remains in reader/writer kernels; they are ``call_extern``s of the dataflow API:
      reader, per tile block: cb_reserve_back → get_write_ptr → noc_async_read_tile per tile (tile id
      = row * tensor_tile_cols + col, row-major like the host's tilized layout; for a tensor whose shards
      carry halos, the page in the core's own window of tiles when the tile lies in it, else in its owner's
      shard) → noc_async_read_barrier →
      cb_push_back. Into a ``first_row_only`` CB (a row vector read as a broadcast) each tile's first row
      alone: ``noc_async_read(get_noc_addr(tile, accessor, offset), ...)`` of its 16 values in each upper
      face; the rest of the page is never read. A copy of rows (``tt.read_row`` / ``tt.write_row``) moves
      each row's runs of 16 values to their places in its tiles (row_copies.py; staged through the tile's
      lower half where the chip's DRAM read alignment is wider than a run: ``tt.target`` dram_alignment,
      else TTCompileError). With ``enable_prefetch`` the blocks read back to back (A and B of one k step)
      share one barrier: all are reserved, all reads issued, one barrier, all pushed.
      writer, per DST subblock [h, w] in the order compute packs them: cb_wait_front → get_read_ptr →
      noc_async_write_tile per tile (a tensor with halos: to its owner's shard and to each neighbouring
      shard's halo that holds it) → noc_async_write_barrier → cb_pop_front.
    Edges (TileLang semantics): a tile whose tile row or column lies outside the tensor's tile grid (the
    padded 2-D view of AttachTensorAccessorTT) is not read but zero-filled in L1 through a
    ``volatile tt_l1_ptr uint32_t*``, and is not written (its CB page is still popped). Tiles inside the
    grid are moved whole: their padding is zeros on input and cropped by the host on output. The
    ``if`` is emitted only for a dimension whose tile index can reach the grid's end for some value of the
    enclosing loops and launch-grid indices (``tt.grid`` extents), so aligned programs have none.
    Tile loops are named after the dimensions they walk (mt, nt, kt); each block starts with a comment
    quoting its DSL line.
    Multicast (multicast.py): with ``tt.lockstep_grid`` and a reader whose loops and reads do not branch
    on the block, a block whose tile position does not depend on the block column is read only by the
    sender core of each row and multicast to the others (``row``), one that does not depend on the block
    row likewise down each column (``col``). The reader then gets ``tt.multicast`` (the directions used),
    the semaphore pointers before its work loop, and one hand-off per direction after each step's reads.
Example
    before: T.tt.read_to_cb(0, a, by * 2, k, 2, 1, "g.py:12:8")
    after:  // g.py:12: T.copy(A[by * bM, k * bK], A_s)
            cb_reserve_back(cb_in0, 2); l1_write_addr_in0 = get_write_ptr(cb_in0)
            for mt in range(2):
                a_tile = (by * 2 + mt) * 8 + k
                noc_async_read_tile(a_tile, a, l1_write_addr_in0 + mt * a_tile_bytes)
            noc_async_read_barrier(); cb_push_back(cb_in0, 2)
    edge:   (A has 9 tile columns, k in [0, 5), 2 per block)
            for kt in range(2):
                if k * 2 + kt < 9: a_tile = ...; noc_async_read_tile(a_tile, a, addr)
                else: a_zeros = (volatile tt_l1_ptr uint32_t*)addr; a_zeros[0:a_tile_bytes / 4] = 0
Test
    ./bazelw test //compiler/tests/passes:passes_test --test_arg=-k \\
        --test_arg=test_lower_cb_intrinsics
"""

from __future__ import annotations

import functools
import itertools

import tvm
import tvm_ffi
from tvm import tirx

from .. import multicast, ops, sharding
from ..errors import TTCompileError
from ..gathers import lower_im2col_read
from ..generated_tiles import lower_generated_tile
from ..index_tables import check_no_values, lower_table_read, read_values_in_l1
from ..ir_utils import (
    cb_var,
    collect_vars,
    comment,
    dsl_comment,
    extern,
    get_attr,
    loop,
    named,
    require_attr,
    seq,
    simplify,
    uint_var,
    with_loop_body,
    zero_fill_l1,
)
from ..row_copies import lower_row_copy, staged_read_fits
from ..target import FACE, TILE


def _halo_page(acc, row, col):
    """The page of tile (row, col) of a tensor whose shards carry halos (sharding.py): in the core's own
    window when the tile lies in it (the window's first row, column and page are runtime arguments
    ``<accessor>_halo_row0/_col0/_page0``), else in the shard of the tile's owner. The shard layout is a
    constant of the kernel, as it is of the host program."""
    stored_cols = sharding.stored_grid(acc.tiles, acc.shard_grid, acc.halo)[1]
    inside, local, owned = [], [], []
    for index, axis, n, g, h in zip(
        (row, col), ("row", "col"), acc.tiles, acc.shard_grid, acc.halo, strict=True
    ):
        if g == 1:  # one shard spans this dimension: every window covers all of it
            local.append(index)
            owned.append(index)
            continue
        size = n // g
        offset = index - named(f"{acc.accessor}_halo_{axis}0")
        inside += [tirx.GE(offset, 0), tirx.LT(offset, size + 2 * h)]
        local.append(offset)
        owned.append(tirx.floordiv(index, size) * (size + 2 * h) + h + tirx.floormod(index, size))
    window = named(f"{acc.accessor}_halo_page0") + local[0] * stored_cols + local[1]
    return tirx.Select(
        functools.reduce(tirx.And, inside), simplify(window), simplify(owned[0] * stored_cols + owned[1])
    )


def _halo_writes(acc, acc_var, row, col, addr):
    """The writes of tile (row, col) of a tensor whose shards carry halos: to its owner's shard, and to the
    halo of each neighbouring shard whose window holds it (the shard after, when the tile is among its
    shard's last ``halo`` rows or columns; the shard before, among its first) — the halo exchange, done by
    the program that writes the tensor."""
    stored_cols = sharding.stored_grid(acc.tiles, acc.shard_grid, acc.halo)[1]
    variants = []  # per dimension: [(condition or None, stored index)]
    for index, n, g, h in zip((row, col), acc.tiles, acc.shard_grid, acc.halo, strict=True):
        size, shard, offset = n // g, tirx.floordiv(index, n // g), tirx.floormod(index, n // g)
        own = [(None, shard * (size + 2 * h) + h + offset)]
        if h:  # the next shard's window starts h tiles before it, the previous one's ends h tiles after
            own.append(
                (
                    tirx.And(offset >= size - h, shard + 1 < g),
                    (shard + 1) * (size + 2 * h) + h + offset - size,
                )
            )
            own.append((tirx.And(offset < h, shard >= 1), (shard - 1) * (size + 2 * h) + size + h + offset))
        variants.append(own)
    writes = []
    for (row_test, stored_row), (col_test, stored_col) in itertools.product(*variants):
        tests = [t for t in (row_test, col_test) if t is not None]
        tile = uint_var(f"{acc.accessor}_tile")
        write = seq(
            [
                tirx.Bind(tile, simplify(stored_row * stored_cols + stored_col)),
                extern("noc_async_write_tile", tile, acc_var, addr),
            ]
        )
        test = simplify(functools.reduce(tirx.And, tests)) if tests else None
        writes.append(tirx.IfThenElse(test, write, None) if tests else write)
    note = comment(
        f"and into the halo of each neighbouring shard of {acc.tensor} whose window holds the tile"
    )
    return seq([writes[0], note, *writes[1:]])


def _first_row(entry, acc_var, tile, addr) -> list:
    """The reads of page ``tile``'s first row only (a row vector read as a broadcast): its 16 values in
    each of the tile's two upper faces."""
    run = FACE * (entry.page_size // (TILE * TILE))  # bytes of one face row
    return [
        extern(
            "noc_async_read",
            tirx.call_extern("int32", "get_noc_addr", tile, acc_var, half * FACE * run),
            simplify(addr + half * FACE * run),
            run,
        )
        for half in range(2)
    ]


class _Lowering:
    def __init__(self, func):
        self.cbs = {e.cb: e for e in require_attr(func, "tt.cb_table", "LowerCBIntrinsics")}
        self.acc = {e.accessor: e for e in require_attr(func, "tt.accessor_args", "LowerCBIntrinsics")}
        self.prefetch = require_attr(func, "tt.options", "LowerCBIntrinsics").enable_prefetch
        self.func = func
        grid = require_attr(func, "tt.grid", "LowerCBIntrinsics")
        self.grid_extents = [grid.x, grid.y, grid.z]
        self.analyzer = tvm.sym.Analyzer()  # ranges of the loop and launch-grid variables in scope
        self.grid_axes = []  # (launch-grid variable, its axis: 0 = block column, 1 and 2 = block row)
        lockstep = get_attr(func, "tt.lockstep_grid")
        in_lockstep = get_attr(func, "tt.kernel_role") == "reader" and _steps_alike(func.body)
        self.lockstep = lockstep if in_lockstep else None
        self.directions = {}  # multicast direction used → its multicast.Direction

    def _staged(self, tensor: str, rows: int, element_bytes: int, loc: str) -> bool:
        """Whether a row read of ``tensor`` must be staged (its 16-value runs do not start on the chip's
        DRAM read alignment, row_copies.lower_row_copy); TTCompileError at ``loc`` when it cannot be."""
        target = require_attr(self.func, "tt.target", "LowerCBIntrinsics")
        if FACE * element_bytes % target.dram_alignment == 0:
            return False
        if not staged_read_fits(rows, element_bytes, target.dram_alignment):
            raise TTCompileError.at(
                loc,
                f"{tensor} is read {rows} rows at a time (stored a page per row), 16 values of "
                f"{element_bytes} bytes per NOC read, but {target.name} reads DRAM from "
                f"{target.dram_alignment}-byte boundaries only, and more than {FACE} rows cannot be staged "
                f"in their tiles; read at most {FACE} rows at a time, or store {tensor} as float32",
            )
        return True

    def _parts(self, call):
        f = ops.fields(call)
        entry, acc = self.cbs[f.cb], self.acc[f.tensor.name]
        return entry, acc, f.tensor, f.row, f.col, f.rows, f.cols, ops.loc_of(call)

    def _may_leave_grid(self, acc, row, col, rows, cols) -> tuple[bool, bool]:
        """Whether some tile of the block [row, row + rows) x [col, col + cols) can lie past the last tile
        row (column) of the tensor's grid, over the ranges of the variables in scope."""
        last_row = self.analyzer.const_int_bound(row).max_value + rows
        last_col = self.analyzer.const_int_bound(col).max_value + cols
        return last_row > acc.tiles[0], last_col > acc.tiles[1]

    def _zero_fill(self, acc, addr):
        """The L1 tile at ``addr`` set to zeros."""
        return seq(
            [
                comment(f"outside {acc.tensor}'s tile grid: zeros"),
                zero_fill_l1(f"{acc.accessor}_zeros", addr, named(acc.tile_bytes)),
            ]
        )

    def _tile_loops(
        self, entry, acc, acc_var, row, col, rows, cols, base, api, sub=None, checks=(False, False), first=0
    ):
        """Move each tile of a block, the block's tiles from tile ``first`` of ``base``; with ``checks``
        (rows, columns), tiles outside the tensor's tile grid are zero-filled (reads) or skipped (writes)."""
        dims = entry.dims
        sh, sw = sub or (rows, cols)

        def body(r, c):
            tile = uint_var(f"{acc.accessor}_tile")
            # The tensor's tile grid by name (FinalizePersistentSignatureTT passes it as a runtime argument),
            # so the kernel is the same text for every shape of the program.
            addr = simplify(base + (first + r * sw + c) * named(acc.tile_bytes))
            if acc.halo and api == "noc_async_write_tile":
                move = _halo_writes(acc, acc_var, row + r, col + c, addr)
            else:
                if acc.halo:
                    tile_id = _halo_page(acc, row + r, col + c)
                else:
                    tile_id = simplify((row + r) * named(f"{acc.accessor}_tile_cols") + (col + c))
                if api == "noc_async_read_tile" and entry.first_row_only and not acc.halo:
                    moved = _first_row(entry, acc_var, tile, addr)
                else:
                    moved = [extern(api, tile, acc_var, addr)]
                move = seq([tirx.Bind(tile, tile_id), *moved])
            inside = [
                simplify(index < extent)
                for index, extent, check in zip(
                    (row + r, col + c),
                    (named(f"{acc.accessor}_tile_rows"), named(f"{acc.accessor}_tile_cols")),
                    checks,
                    strict=True,
                )
                if check
            ]
            if not inside:
                return move
            condition = inside[0] if len(inside) == 1 else tirx.And(*inside)
            zeros = self._zero_fill(acc, addr) if api == "noc_async_read_tile" else None
            return tirx.IfThenElse(condition, move, zeros)

        return loop(f"{dims[0]}t", sh, lambda r: loop(f"{dims[1]}t", sw, lambda c: body(r, c)))

    def _shared_direction(self, row, col) -> str | None:
        """The multicast direction of a block read at (row, col), None when each core reads its own."""
        if self.lockstep is None:
            return None
        used = collect_vars(row) + collect_vars(col)
        axes = {axis for var, axis in self.grid_axes if any(var.same_as(v) for v in used)}
        return multicast.shared_direction(
            bool(axes & {1, 2}), 0 in axes, self.lockstep.cores_x, self.lockstep.cores_y
        )

    def _direction(self, name: str) -> multicast.Direction:
        if name not in self.directions:
            self.directions[name] = multicast.Direction(name)
        return self.directions[name]

    def reads(self, calls, grouping=None):
        """The reads of one step; with ``grouping`` (loop variable, group variable, steps), of ``steps``
        consecutive values ``group * steps + k_step`` of the loop variable (a K group), each step's blocks
        placed after the previous step's in the CBs."""
        steps = grouping[2] if grouping else 1
        groups = [calls] if self.prefetch else [[c] for c in calls]
        out = []
        for group in groups:
            parts = [self._parts(c) for c in group]
            out += [dsl_comment(p[-1]) for p in parts]
            for entry, _, _, _, _, rows, cols, _ in parts:
                out.append(extern("cb_reserve_back", cb_var(entry), steps * rows * cols))
            shared = {}  # direction → [(L1 address, bytes)] of its blocks
            for entry, acc, acc_var, row, col, rows, cols, _ in parts:
                base = uint_var(f"l1_write_addr_{entry.name[3:]}")
                out.append(tirx.Bind(base, tirx.call_extern("int32", "get_write_ptr", cb_var(entry))))

                block = (entry, acc, acc_var, rows, cols, base)
                if grouping is None:
                    moves = self._read_block(block, row, col, 0)
                else:
                    moves = self._steps(
                        grouping,
                        lambda k, step, block=block, row=row, col=col: self._read_block(
                            block,
                            _substitute(row, grouping[0], k),
                            _substitute(col, grouping[0], k),
                            step * block[3] * block[4],
                        ),
                    )
                direction = self._shared_direction(row, col)
                if direction is not None:
                    nbytes = steps * rows * cols * named(acc.tile_bytes)
                    shared.setdefault(direction, []).append((base, nbytes))
                    moves = tirx.IfThenElse(self._direction(direction).arg("is_sender") == 1, moves, None)
                out.append(moves)
            out.append(extern("noc_async_read_barrier"))
            out += [self._direction(d).handoff(blocks) for d, blocks in shared.items()]
            for entry, _, _, _, _, rows, cols, _ in parts:
                out.append(extern("cb_push_back", cb_var(entry), steps * rows * cols))
        return out

    def _read_block(self, block, row, col, first):
        """The NOC reads of ``block`` (entry, accessor, accessor variable, rows, cols, CB base address) at
        tile (row, col) of its tensor, into the CB from tile ``first`` on."""
        entry, acc, acc_var, rows, cols, base = block
        checks = self._may_leave_grid(acc, row, col, rows, cols)
        return self._tile_loops(
            entry, acc, acc_var, row, col, rows, cols, base, "noc_async_read_tile", checks=checks, first=first
        )

    def _steps(self, grouping, body_fn):
        """``for k_step in range(steps): body_fn(group * steps + k_step, k_step)``, with the step in the
        analyzer's scope (for the edge checks)."""
        _, group, steps = grouping
        step = tirx.Var("k_step", "int32")
        self.analyzer.bind(step, tvm.ir.Range.from_min_extent(0, steps))
        return tirx.For(step, 0, steps, tirx.ForKind.SERIAL, body_fn(group * steps + step, step))

    def grouped_loop(self, stmt: tirx.For):
        """A reduction loop annotated ``tt.k_group`` (LowerSharedToCB) whose body is its reads: the reads of
        ``k_group`` steps become one reservation, one barrier, one hand-off and one push."""
        steps = int(stmt.annotations["tt.k_group"])
        body = list(stmt.body.seq) if isinstance(stmt.body, tirx.SeqStmt) else [stmt.body]
        calls = [s.value for s in body if ops.is_op(s, "tt.read_to_cb")]
        if len(calls) != len(body):
            raise TTCompileError(
                "internal error: a K-grouped reduction loop of the reader holds more than its reads"
            )
        groups = int(stmt.extent.value) // steps
        k_group = tirx.Var("k_group", "int32") if groups > 1 else tirx.const(0, "int32")
        if groups > 1:
            self.analyzer.bind(k_group, tvm.ir.Range.from_min_extent(0, groups))
        reads = seq(self.reads(calls, (stmt.loop_var, k_group, steps)))
        return reads if groups == 1 else tirx.For(k_group, 0, groups, tirx.ForKind.SERIAL, reads)

    def write(self, call):
        entry, acc, acc_var, row, col, rows, cols, loc = self._parts(call)
        sh, sw = entry.subblock
        n = sh * sw
        dims = entry.dims
        checks = self._may_leave_grid(acc, row, col, rows, cols)

        def subblock(bi, bj):
            base = uint_var(f"l1_read_addr_{entry.name[3:]}")
            return seq(
                [
                    extern("cb_wait_front", cb_var(entry), n),
                    tirx.Bind(base, tirx.call_extern("int32", "get_read_ptr", cb_var(entry))),
                    self._tile_loops(
                        entry,
                        acc,
                        acc_var,
                        row + bi * sh,
                        col + bj * sw,
                        rows,
                        cols,
                        base,
                        "noc_async_write_tile",
                        sub=(sh, sw),
                        checks=checks,
                    ),
                    extern("noc_async_write_barrier"),
                    extern("cb_pop_front", cb_var(entry), n),
                ]
            )

        return [
            dsl_comment(loc),
            loop(
                f"{dims[0]}_subblock",
                rows // sh,
                lambda bi: loop(f"{dims[1]}_subblock", cols // sw, lambda bj: subblock(bi, bj)),
            ),
        ]

    def _bind_range(self, stmt) -> None:
        """Record the range of a launch-grid index (``bx = tt.work_block(block, 0)``) or a static loop."""
        if isinstance(stmt, tirx.Bind) and ops.is_op(stmt.value, "tt.work_block"):
            axis = ops.fields(stmt.value).axis
            self.analyzer.bind(stmt.var, tvm.ir.Range.from_min_extent(0, self.grid_extents[axis]))
            self.grid_axes.append((stmt.var, int(axis)))
        elif isinstance(stmt, tirx.For) and all(isinstance(e, tirx.IntImm) for e in (stmt.min, stmt.extent)):
            self.analyzer.bind(stmt.loop_var, tvm.ir.Range.from_min_extent(stmt.min, stmt.extent))

    def rewrite(self, stmt):
        if isinstance(stmt, tirx.SeqStmt):
            out, pending = [], []
            for s in stmt.seq:
                if isinstance(s, tirx.Bind):
                    self._bind_range(s)
                if ops.is_op(s, "tt.read_to_cb"):
                    pending.append(s.value)
                    continue
                if pending:
                    out += self.reads(pending)
                    pending = []
                out.append(self.rewrite(s))
            if pending:
                out += self.reads(pending)
            return seq(out)
        if isinstance(stmt, tirx.For):
            if stmt.annotations is not None and "tt.k_group" in stmt.annotations:
                return self.grouped_loop(stmt)
            self._bind_range(stmt)
            return with_loop_body(stmt, self.rewrite(stmt.body))
        if isinstance(stmt, tirx.IfThenElse):
            other = None if stmt.else_case is None else self.rewrite(stmt.else_case)
            return tirx.IfThenElse(stmt.condition, self.rewrite(stmt.then_case), other)
        if ops.is_op(stmt, "tt.read_table"):
            f = ops.fields(stmt)
            return lower_table_read(stmt.value, self.cbs[f.cb], self.acc[f.tensor.name])
        if ops.is_op(stmt, "tt.read_to_cb"):
            return seq(self.reads([stmt.value]))
        if ops.is_op(stmt, "tt.write_from_cb"):
            return seq(self.write(stmt.value))
        if ops.is_op(stmt, "tt.read_im2col"):
            entry = self.cbs[ops.fields(stmt).cb]
            return lower_im2col_read(
                stmt.value, entry, ops.fields(stmt).tensor, entry.page_size // (TILE * TILE)
            )
        if ops.is_op(stmt, "tt.read_row") or ops.is_op(stmt, "tt.write_row"):
            f = ops.fields(stmt)
            entry = self.cbs[f.cb]
            element_bytes = entry.page_size // (TILE * TILE)
            staged = (
                ops.is_op(stmt, "tt.read_row")
                and self.acc[f.tensor.name].memory == "DRAM"
                and int(f.cols) >= TILE  # a narrow row's one transfer starts on its page's aligned start
                and self._staged(f.tensor.name, int(f.rows), element_bytes, ops.loc_of(stmt.value))
            )
            length = self.acc[f.tensor.name].page_size // element_bytes  # a page is one row
            past_end = self.analyzer.const_int_bound(f.col).max_value + f.cols > length
            return lower_row_copy(stmt.value, entry, element_bytes, length if past_end else None, staged)
        if ops.is_op(stmt, "tt.gen_tile"):
            return lower_generated_tile(stmt.value, self.cbs[ops.fields(stmt).cb])
        return stmt


def _substitute(node, var: tirx.Var, value):
    """``node`` with ``var`` replaced by ``value``."""
    return tvm_ffi.structural_map(node, (tvm.ir.Var, lambda v: value if v.same_as(var) else v))


def _steps_alike(body) -> bool:
    """Whether every core runs the same steps whatever its blocks: no branch, and no loop but the work loop
    whose trip count is not a constant (a causal bound on the block index would make cores diverge). A
    trip count named first (attention's ``loop_range = T.ceildiv(seq_kv, block_N)``) counts by the value
    it names."""
    constants = []  # (variable, the constant it is bound to)
    alike = [True]

    def visit(node):
        if isinstance(node, tirx.Bind) and isinstance(node.value, tirx.IntImm):
            constants.append((node.var, node.value))
        extent = node.extent if isinstance(node, tirx.For) else None
        if isinstance(extent, tirx.Var):
            extent = next((value for var, value in constants if var.same_as(extent)), extent)
        if isinstance(node, tirx.IfThenElse) or (
            extent is not None
            and not isinstance(extent, tirx.IntImm)
            and not ops.is_op(tirx.Evaluate(extent), "tt.work_count")
        ):
            alike[0] = False

    tvm_ffi.structural_walk(body, (tirx.Stmt, visit))
    return alike[0]


def LowerCBIntrinsics() -> tvm.transform.Pass:  # noqa: N802
    def transform(func: tirx.PrimFunc, mod, ctx) -> tirx.PrimFunc:
        if get_attr(func, "tt.kernel_role") not in ("reader", "writer"):
            return func
        lowering = _Lowering(func)
        body = lowering.rewrite(func.body)
        if get_attr(func, "tt.kernel_role") == "reader":
            body = read_values_in_l1(body, lowering.cbs)
        else:
            check_no_values(body, "writer", get_attr(func, "tt.index_tables", []))
        if not lowering.directions:
            return func.with_body(body)
        prologue = [s for d in lowering.directions.values() for s in d.prologue()]
        return func.with_body(seq(prologue + [body])).with_attr(
            "tt.multicast", [d for d in multicast.DIRECTIONS if d in lowering.directions]
        )

    return tirx.transform.prim_func_pass(transform, opt_level=0, name="LowerCBIntrinsics")
