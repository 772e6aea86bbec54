"""E1 · FinalizePersistentSignatureTT — fix each kernel's runtime-argument schema and read the work list.

Input expectations
    Split kernels with ``tt.work_count()`` / ``tt.work_block(block, axis)`` (GridToCoreGrid), reader and
    writer ``tt.accessor_args`` (ConfigureTensorAccessorTT), ``tt.work_encoding`` / ``tt.core_work`` /
    ``tt.grid`` (LayoutAwareWorkPartitionTT).
Output guarantees
    ``tt.runtime_args``: the kernel's ordered argument schema, ``RuntimeArg``s (name, kind, tensor, value,
    meaning), kind ∈ addr (a tensor's base address) | multicast (multicast.FIELDS of each ``tt.multicast``
    direction of a reader) | halo_window (``<accessor>_halo_row0/_col0/_page0``: the window of a tensor with
    halos that the core holds, sharding.window) | shape (a size of the problem, below) | work_start |
    work_count | work_row0 / work_col0 / work_cols (the core's rectangle of blocks).
    Data-movement kernels get their tensor addresses, then their multicast arguments and halo windows, then
    the problem's sizes, then the work arguments; compute gets its sizes and the block count.
    Sizes (kind shape, one value on every core) make a kernel the same text for every problem shape of a
    program structure, so its built object is reused: a tensor's tile rows and columns
    (``<accessor>_tile_rows/_cols``, LowerCBIntrinsics), the launch grid's extents where a block id is split
    (``grid_x``, ``grid_y``, ``grid_z``), and the trip count of every loop that hands off CB pages on each
    iteration (``<loop>_count``: it steps through the problem, not through a block's tiles, so its bound
    costs nothing at run time). Block shapes, CB sizes and tile loops stay constants: they fix the
    kernel's L1 layout and its unrolled inner loops. ``tt.core_runtime_args``: per used core,
    ``CoreRuntimeArgs`` with the values ("addr:<tensor>" for addresses and "multicast:<name>" for the
    multicast arguments, which the host fills in from the core's position). The work intrinsics are
    replaced: ``range_*`` encodings compute ``block_id = block_start + block`` and split it row- or
    column-major (z and y of a 3-D grid as one row index ``bz * gy + by``; ``range_balanced`` splits it
    row-major and walks ``WorkPartition.balanced_axis`` from both ends, records.walk_from_both_ends);
    ``rect`` walks its rectangle row by row: ``bx = block_col0 + block % block_cols``,
    ``y' = block_row0 + block / block_cols``.
    More than ``max_runtime_args`` (341) words on any core → TTResourceError.
Example
    before: for block in range(T.tt.work_count()): bx = T.tt.work_block(block, 0); by = ...
    after:  for block in range(num_blocks):
                block_id = block_start + block; bx = block_id % 4; by = block_id // 4
            "tt.runtime_args": [RuntimeArg(name="a_addr", kind="addr", tensor="A"), ...,
                                RuntimeArg(name="block_start", kind="work_start"),
                                RuntimeArg(name="num_blocks", ...)]
Test
    ./bazelw test //compiler/tests/passes:passes_test --test_arg=-k \\
        --test_arg=test_finalize_persistent_signature_tt
"""

from __future__ import annotations

import tvm
import tvm_ffi
from tvm import tirx

from .. import multicast, ops, sharding
from ..errors import TTResourceError
from ..host_sizes import WINDOW_FIELDS
from ..ir_utils import comment, get_attr, named, require_attr, seq, uint_var
from ..records import AccessorArgs, CoreRuntimeArgs, CoreWork, RuntimeArg, walk_from_both_ends


def schema(
    role: str,
    accessors: list[AccessorArgs],
    encoding: str,
    uses_blocks: bool = True,
    multicast_directions: tuple[str, ...] = (),
    sizes: tuple[RuntimeArg, ...] = (),
    windows: tuple[RuntimeArg, ...] = (),
) -> list[RuntimeArg]:
    args = [RuntimeArg(name=a.addr, kind="addr", tensor=a.tensor) for a in accessors]
    args += [a for d in multicast_directions for a in multicast.runtime_args(d)]
    args += list(windows)
    args += list(sizes)
    count = RuntimeArg(name="num_blocks", kind="work_count")
    if role == "compute" and not uses_blocks:
        return args + [count]
    if encoding == "rect":
        return args + [
            RuntimeArg(name="block_row0", kind="work_row0"),
            RuntimeArg(name="block_col0", kind="work_col0"),
            RuntimeArg(name="block_cols", kind="work_cols"),
            count,
        ]
    return args + [RuntimeArg(name="block_start", kind="work_start"), count]


_WINDOW_MEANINGS = {
    "row0": "first tile row of this core's window of {} (its shard and halo; signed)",
    "col0": "first tile column of that window (signed)",
    "page0": "page of that window's first tile in {}'s buffer",
}


def halo_windows(accessors: list[AccessorArgs], used: set[str]) -> list[RuntimeArg]:
    """The window arguments (kind halo_window) of each tensor with halos that LowerCBIntrinsics read."""
    return [
        RuntimeArg(
            name=f"{a.accessor}_halo_{field}",
            kind="halo_window",
            tensor=a.tensor,
            meaning=_WINDOW_MEANINGS[field].format(a.tensor),
        )
        for a in accessors
        if a.halo
        for field in WINDOW_FIELDS
        if f"{a.accessor}_halo_{field}" in used
    ]


def core_values(args: list[RuntimeArg], work: CoreWork, accessors=(), grid=(0, 0)) -> list:
    """One core's values of ``args``; halo windows need the kernel's ``accessors`` and the core ``grid``."""
    values = []
    by_tensor = {a.tensor: a for a in accessors}
    for a in args:
        if a.kind == "halo_window":
            t = by_tensor[a.tensor]
            window = sharding.window(work.core, t.tiles, t.shard_grid, t.shard_order, grid, t.halo)
            values.append(window[WINDOW_FIELDS.index(a.name.rsplit("_", 1)[1])])
        elif a.kind == "addr":
            values.append(f"addr:{a.tensor}")
        elif a.kind == "multicast":
            values.append(f"multicast:{a.name}")
        elif a.kind == "shape":
            values.append(a.value)
        elif a.kind == "work_start":
            values.append(work.start)
        elif a.kind == "work_count":
            values.append(work.count)
        else:
            values.append(work.rect[("work_row0", "work_col0", "work_cols").index(a.kind)])
    return values


class _Sizes:
    """The problem sizes a kernel reads as runtime arguments, in order of first use."""

    def __init__(self):
        self.args: dict[str, RuntimeArg] = {}

    def var(self, name: str, value: int, meaning: str) -> tirx.Var:
        """The argument ``name`` (a variant of it when ``name`` already holds another value)."""
        unique, n = name, 1
        while unique in self.args and self.args[unique].value != value:
            n += 1
            unique = f"{name}_{n}"
        self.args.setdefault(unique, RuntimeArg(name=unique, kind="shape", value=value, meaning=meaning))
        return named(unique)

    def tile_grid(self, accessors: list[AccessorArgs], used: set[str]) -> None:
        """The tile rows and columns of each accessor's tensor that LowerCBIntrinsics indexed by name."""
        for a in accessors:
            for axis, (what, meaning) in enumerate((("rows", "rows"), ("cols", "columns"))):
                if f"{a.accessor}_tile_{what}" in used:
                    self.var(f"{a.accessor}_tile_{what}", a.tiles[axis], f"{meaning} of {a.tensor}, in tiles")

    def lift_trip_counts(self, body):
        """Each loop that reserves or waits for CB pages on every iteration, bounded by an argument."""

        def lift(loop):
            if not isinstance(loop.extent, tirx.IntImm) or not _hands_off_pages(loop.body):
                return loop
            name, last = str(loop.loop_var.name), int(loop.min) + int(loop.extent) - 1
            extent = self.var(f"{name}_count", int(loop.extent), f"trip count of the {name} loop")

            def last_iteration(test):  # `loop_var == last` (the step that packs the result, say)
                if test.a.same_as(loop.loop_var) and isinstance(test.b, tirx.IntImm) and int(test.b) == last:
                    return tirx.EQ(loop.loop_var, loop.min + extent - 1)
                return test

            body = tvm_ffi.structural_map(loop.body, (tirx.EQ, last_iteration))
            return tirx.For(
                loop.loop_var, loop.min, extent, loop.kind, body, loop.thread_binding, loop.annotations
            )

        return tvm_ffi.structural_map(body, (tirx.For, lift), order="post")


def _hands_off_pages(stmt) -> bool:
    """Whether ``stmt`` reserves or waits for CB pages somewhere inside."""
    found = []
    tvm_ffi.structural_walk(
        stmt,
        (
            tvm.ir.Call,
            lambda c: found.append(c)
            if ops.is_extern(c, "cb_reserve_back") or ops.is_extern(c, "cb_wait_front")
            else None,
        ),
    )
    return bool(found)


# Gathering every other bit of a word into its low half: after step i the bits sit in runs of 2**i.
_GATHER_STEPS = ((0x55555555, 0), (0x33333333, 1), (0x0F0F0F0F, 2), (0x00FF00FF, 4), (0x0000FFFF, 8))


def _z_order_binds(block_id: tirx.Var, col: tirx.Var, row: tirx.Var) -> list[tirx.Stmt]:
    """Bind ``col`` and ``row`` of ``block_id``, a position on the Z (Morton) curve: its even bits are the
    column, its odd bits the row (layout_aware_work_partition_tt.z_order_block)."""
    out = [comment("The block at this position of the Z curve: even bits are its column, odd bits its row")]
    for final, word in ((col, block_id), (row, tirx.shift_right(block_id, 1))):
        value = word
        for step, (mask, shift) in enumerate(_GATHER_STEPS):
            if shift:
                value = tirx.bitwise_or(value, tirx.shift_right(value, shift))
            last = step == len(_GATHER_STEPS) - 1
            var = final if last else uint_var(f"{str(final.name).removeprefix('block_')}_bits{step}")
            out.append(tirx.Bind(var, tirx.bitwise_and(value, tirx.const(mask, "int32"))))
            value = var
    return out


def FinalizePersistentSignatureTT() -> tvm.transform.Pass:  # noqa: N802
    def transform(func: tirx.PrimFunc, mod, ctx) -> tirx.PrimFunc:
        role = get_attr(func, "tt.kernel_role")
        if role is None:
            return func
        encoding = require_attr(func, "tt.work_encoding", "FinalizePersistentSignatureTT")
        grid = require_attr(func, "tt.grid", "FinalizePersistentSignatureTT")
        target = require_attr(func, "tt.target", "FinalizePersistentSignatureTT")
        partition = require_attr(func, "tt.work_partition", "FinalizePersistentSignatureTT")
        # A compute kernel needs the block ids only when it computes with bx/by/bz (a causal loop bound).
        block_calls = []
        tvm_ffi.structural_walk(
            func.body,
            (
                tvm.ir.Call,
                lambda c: block_calls.append(c) if ops.is_op(tirx.Evaluate(c), "tt.work_block") else None,
            ),
        )
        sizes = _Sizes()
        gx, gy, gz = (
            sizes.var(f"grid_{axis}", extent, f"blocks along the launch grid's {axis} axis")
            for axis, extent in zip("xyz", (grid.x, grid.y, grid.z), strict=True)
        )
        block_id = uint_var("block_id")
        z_col, z_row = uint_var("block_col"), uint_var("block_row")

        def axis_value(axis, block):
            # A 3-D grid's z and y form one row index, y' = bz * gy + by, of a (gy * gz) x gx block grid.
            if encoding == "rect":
                cols = named("block_cols")
                x = named("block_col0") + tirx.floormod(block, cols)
                y_rows = named("block_row0") + tirx.floordiv(block, cols)
            elif encoding == "range_column_major":
                rows = gz * gy if grid.z > 1 else gy
                x, y_rows = tirx.floordiv(block_id, rows), tirx.floormod(block_id, rows)
            elif encoding == "range_z_order":
                x, y_rows = z_col, z_row
            else:
                x, y_rows = tirx.floormod(block_id, gx), tirx.floordiv(block_id, gx)
            if axis == 0:
                value = x
            elif grid.z == 1:  # a z axis of extent 1 (T.Kernel(gx, gy, 1)) is always 0
                value = y_rows if axis == 1 else tirx.const(0, "int32")
            else:
                value = tirx.floormod(y_rows, gy) if axis == 1 else tirx.floordiv(y_rows, gy)
            if encoding == "range_balanced" and partition.balanced_axis == f"blockIdx.{'xyz'[axis]}":
                value = walk_from_both_ends(value, (gx, gy, gz)[axis])
            return value

        def lower_loop(loop):
            if not ops.is_op(tirx.Evaluate(loop.extent), "tt.work_count"):
                return loop
            body = loop.body
            uses_block = []
            tvm_ffi.structural_walk(
                body,
                (
                    tvm.ir.Call,
                    lambda c: uses_block.append(c) if ops.is_op(tirx.Evaluate(c), "tt.work_block") else None,
                ),
            )
            body = tvm_ffi.structural_map(
                body,
                (
                    tvm.ir.Call,
                    lambda c: axis_value(ops.fields(c).axis, loop.loop_var)
                    if ops.is_op(tirx.Evaluate(c), "tt.work_block")
                    else c,
                ),
            )
            if encoding == "range_z_order":
                # Every kernel skips the curve's positions outside the grid, whether it reads bx/by or not.
                rows = gz * gy if grid.z > 1 else gy
                inside = tirx.And(tirx.LT(z_row, rows), tirx.LT(z_col, gx))
                body = seq([*_z_order_binds(block_id, z_col, z_row), tirx.IfThenElse(inside, body, None)])
            if (uses_block or encoding == "range_z_order") and encoding != "rect":
                body = seq([tirx.Bind(block_id, named("block_start") + loop.loop_var), body])
            return tirx.For(loop.loop_var, 0, named("num_blocks"), loop.kind, body)

        body = tvm_ffi.structural_map(func.body, (tirx.For, lower_loop), order="post")
        body = sizes.lift_trip_counts(body)
        used = set()
        tvm_ffi.structural_walk(body, (tirx.Var, lambda v: used.add(str(v.name))))
        accessors = get_attr(func, "tt.accessor_args", [])
        sizes.tile_grid(accessors, used)
        args = schema(
            role,
            accessors,
            encoding,
            role != "compute" or bool(block_calls) or encoding == "range_z_order",
            tuple(get_attr(func, "tt.multicast", [])),
            tuple(a for name, a in sizes.args.items() if name in used),
            tuple(halo_windows(accessors, used)),
        )
        per_core = []
        for work in require_attr(func, "tt.core_work", "FinalizePersistentSignatureTT"):
            values = core_values(args, work, accessors, tuple(int(g) for g in target.grid))
            if len(values) > target.max_runtime_args:
                raise TTResourceError(
                    f"core ({work.core[0]},{work.core[1]}) needs {len(values)} runtime arguments for "
                    f"the {role} kernel; the limit is {target.max_runtime_args}"
                )
            per_core.append(CoreRuntimeArgs(core=work.core, values=values))
        return func.with_body(body).with_attrs({"tt.runtime_args": args, "tt.core_runtime_args": per_core})

    return tirx.transform.prim_func_pass(transform, opt_level=0, name="FinalizePersistentSignatureTT")
