"""The typed records the passes attach to functions: what one pass decides and a later one reads.

Each record is a frozen ``tvm_ffi`` dataclass, so it lives in the IR itself (a function attribute holds a
record or a list of them), is part of structural equality and hashing (a Before/Expected test that gets one
field wrong names the field's access path), and checks the types of its fields when it is built. A pass
reads fields by name (``cb.page_size``), changes one with ``replace(cb, depth=4)``, and codegen/plan.py
serialises a record with ``asdict``. The attribute that holds each record, and the pass that writes it:

    tt.target            TargetFacts                ApplyTTDefaults
    tt.options           Options                    ApplyTTDefaults
    tt.layout_desc       {buffer: LayoutDesc}       InferTTLayout, PropagateTTLayout
    tt.index_tables      [IndexTable]               StageIndexTablesTT
    tt.tensor_accessors  [TensorAccessor]           AttachTensorAccessorTT
    tt.grid              Grid                       LayoutAwareWorkPartitionTT
    tt.core_work         [CoreWork]                 LayoutAwareWorkPartitionTT
    tt.core_ranges       [CoreRange]                LayoutAwareWorkPartitionTT
    tt.work_partition    WorkPartition              LayoutAwareWorkPartitionTT
    tt.lockstep_grid     LockstepGrid               LayoutAwareWorkPartitionTT (block partitions that divide)
    tt.cb_table          [CircularBuffer]           LowerTileProgramTT / LowerSharedToCB (+ spills)
    tt.accumulators      [Accumulator]              LowerSharedToCB
    tt.tile_dfg          TileDFG                    BuildTileDFGTT
    tt.accessor_args     [AccessorArgs]             ConfigureTensorAccessorTT
    tt.compute_config    ComputeConfig              InsertComputeInitTT / ScheduleTileComputeTT
    tt.runtime_args      [RuntimeArg]               FinalizePersistentSignatureTT
    tt.core_runtime_args [CoreRuntimeArgs]          FinalizePersistentSignatureTT

Plain mappings stay plain where a mapping is the whole meaning (``tt.data_formats``: buffer → format name,
``tt.declared_shapes``: buffer → shape); single words stay strings (``tt.kernel_role``).
"""

from __future__ import annotations

from typing import Any

from tvm_ffi import dataclasses as dc

__all__ = [
    "TargetFacts",
    "Options",
    "LayoutDesc",
    "IndexTable",
    "TensorAccessor",
    "GridAxis",
    "Grid",
    "CoreWork",
    "CoreRange",
    "WorkPartition",
    "LockstepGrid",
    "CircularBuffer",
    "Accumulator",
    "DFGNode",
    "DFGEdge",
    "TileDFG",
    "AccessorArgs",
    "ComputeConfig",
    "RuntimeArg",
    "CoreRuntimeArgs",
    "asdict",
    "replace",
]

asdict = dc.asdict
replace = dc.replace


def _record(type_key: str):
    return dc.py_class(type_key, frozen=True, eq=True)


@_record("tt.TargetFacts")
class TargetFacts(dc.Object):
    """The device facts later passes read (``TTTarget.as_record()``); DST tiles per acquire in half-sync."""

    name: str
    arch: str
    grid: list[int]  # compute grid [x (columns), y (rows)]
    l1_bytes: int
    l1_cb_budget: int
    dram_banks: int
    num_circular_buffers: int
    dst_tiles_fp32_half_sync: int
    dst_tiles_16bit_half_sync: int
    max_runtime_args: int
    l1_alignment: int = 16  # bytes; TTTarget.as_record() always sets the chip's value
    dram_alignment: int = 32  # bytes a NOC read from DRAM must start on; likewise set from the chip

    def dst_capacity(self, fp32: bool) -> int:
        """DST tiles one acquire holds (half-sync), for fp32 or 16-bit accumulation."""
        return self.dst_tiles_fp32_half_sync if fp32 else self.dst_tiles_16bit_half_sync


@_record("tt.Options")
class Options(dc.Object):
    partition_strategy: str  # auto | row_major | column_major | block
    enable_double_buffer: bool
    enable_prefetch: bool
    math_fidelity: str = "HiFi4"  # LoFi | HiFi2 | HiFi3 | HiFi4: the matrix engine's passes per multiply
    # the SDK's packer_l1_acc: a GEMM's partial sums accumulate in L1 by the packer, not reloaded into DST
    packer_l1_acc: bool = False
    # tl.tt.approximate_exp: exp and exp2 take the SDK's fast approximation (exp_tile<true>)
    approximate_exp: bool = False


@_record("tt.LayoutDesc")
class LayoutDesc(dc.Object):
    """Where one buffer lives: DRAM/L1, interleaved or a circular buffer; ``peer`` is the global tensor a
    tile buffer is loaded from or stored to ("" when none)."""

    memory: str
    layout: str
    tile_id_order: str
    peer: str = ""
    # sharded tensors: shards along the tile view's rows and columns, and the order shards go to cores
    shard_grid: list[int] = dc.field(default_factory=list)
    shard_order: str = ""
    # sharded tensors read near their shards: elements [rows, cols] of the view each shard's core also holds
    # on both sides of its shard (sharding.py)
    halo: list[int] = dc.field(default_factory=list)


@_record("tt.TensorAccessor")
class TensorAccessor(dc.Object):
    """A global tensor as the data-movement kernels see it: its tile view and DRAM pages."""

    name: str
    param_index: int
    dtype: str
    format: str  # tt::DataFormat name
    page_layout: str  # tile (a page is one 32x32 tile) | row_major (one row of the view) | table (all, words)
    pages: int  # DRAM pages of the tensor
    page_size: int  # bytes per page
    shape: list[int]  # stored order (dim_order), as in DRAM
    declared_shape: list[int]  # as the caller passes it
    view: list[int]  # the 2-D tile view (rows, cols), padded to whole tiles
    tiles: list[int]  # tile rows, tile columns of the view ([0, 0] for row_major pages)
    memory: str
    layout: str
    access: str  # read | write | read_write
    dim_order: list[int]  # declared dimension numbers, outermost stored first
    shard_grid: list[int] = dc.field(default_factory=list)  # sharded: [row shards, column shards] of the view
    shard_order: str = ""  # sharded: row_major | col_major, the order shards go to cores
    # sharded with halos: tiles [rows, cols] each shard's core also holds on both sides (pages counts them)
    halo: list[int] = dc.field(default_factory=list)


@_record("tt.IndexTable")
class IndexTable(dc.Object):
    """An integer or bool tensor read one value at a time (a block mask, a page table): one DRAM page of
    32-bit words the reader copies into L1 and the compute kernel reads from there."""

    name: str
    dtype: str  # as declared; every value is widened to a 32-bit word on the device
    shape: list[int]
    words: int
    loc: str  # DSL line of the first read


@_record("tt.GridAxis")
class GridAxis(dc.Object):
    """One launch-grid axis selecting output blocks: block coordinate += ``blocks`` × the axis index."""

    tag: str  # blockIdx.x / .y / .z
    blocks: int


@_record("tt.Grid")
class Grid(dc.Object):
    """The launch grid and which output block each of its points computes."""

    x: int
    y: int
    z: int
    row_axes: list[GridAxis]
    col_axes: list[GridAxis]
    block_shape: list[int]  # elements (rows, cols) of one output block
    num_blocks: int

    def output_block(self, block: int) -> tuple[int, int]:
        """(row, column) of the output block that the grid point with linear id ``block`` computes."""
        index = {
            "blockIdx.x": block % self.x,
            "blockIdx.y": block // self.x % self.y,
            "blockIdx.z": block // (self.x * self.y),
        }
        row = sum(axis.blocks * index[axis.tag] for axis in self.row_axes)
        col = sum(axis.blocks * index[axis.tag] for axis in self.col_axes)
        return row, col


@_record("tt.CoreWork")
class CoreWork(dc.Object):
    """The output blocks one core computes: ``count`` from ``start`` in the encoding's order, or (encoding
    "rect") the rectangle of ``rect`` = [first block row, first block column, block columns], walked row by
    row."""

    core: list[int]  # [x, y]
    start: int
    count: int
    rect: list[int] = dc.field(default_factory=list)


@_record("tt.CoreRange")
class CoreRange(dc.Object):
    """The cores x0..x1 × y0..y1 (inclusive)."""

    x0: int
    y0: int
    x1: int
    y1: int


@_record("tt.WorkPartition")
class WorkPartition(dc.Object):
    len_k: int  # K tiles one output block reduces over (0 when the program has no matmul)
    tile_order: str
    # tile_order "balanced": the grid axis (blockIdx.x/y/z) a loop bound depends on, walked from both ends
    # in turn (walk_from_both_ends), so each core's run of blocks pairs long and short ones
    balanced_axis: str = ""


def walk_from_both_ends(position, extent):
    """The axis index at ``position`` of the order 0, extent-1, 1, extent-2, ...: a permutation of
    0..extent-1 in which positions 2i and 2i+1 sum to extent-1. Works on ints and on TIR expressions (the
    kernels decode their block ids with it)."""
    odd = position % 2
    return odd * (extent - 1 - position // 2) + (1 - odd) * (position // 2)


@_record("tt.LockstepGrid")
class LockstepGrid(dc.Object):
    """A block partition over a ``cores_x`` × ``cores_y`` rectangle of cores (from core (0, 0)) that step
    through their blocks in lockstep: each core computes as many blocks as every other, the cores of a row
    the same block rows in the same order, the cores of a column the same block columns. Reads shared by a
    row or a column can then be multicast (multicast.py)."""

    cores_x: int
    cores_y: int


@_record("tt.CircularBuffer")
class CircularBuffer(dc.Object):
    """One circular buffer: the tile buffer it holds, its page format and its depth."""

    cb: int  # CB index (tt::CBIndex)
    buffer: str  # the DSL buffer it holds
    name: str  # C++ name in the kernels (cb_<buffer>)
    role: str  # input | output | intermediate
    dtype: str
    format: str  # tt::DataFormat name
    page_size: int
    tiles: int  # tiles of one block
    tile_shape: list[int]  # the block in tiles (rows, cols)
    depth: int  # pages the CB holds (tiles, or 2 × tiles when double-buffered)
    total_bytes: int
    dims: list[str]  # what the block's tile rows / cols index (e.g. ["m", "k"])
    loc: str  # DSL line of the buffer's first use
    subblock: list[int] | None = None  # DST subblock (rows, cols) in tiles, for packed outputs
    source: str | None = None  # a transposed copy: the operand buffer whose tiles it holds
    packs: str | None = None  # an output CB a fragment is packed into straight from DST
    # A row vector only ever read as a row (or scalar) broadcast, which takes each tile's first row: the
    # reader fetches that row alone (two 16-value runs per tile), not the 31 rows of padding under it.
    first_row_only: bool = False


@_record("tt.Accumulator")
class Accumulator(dc.Object):
    """A matmul accumulator: where it lives between K steps (DST, or subblocked through a spill CB)."""

    buffer: str
    dtype: str
    format: str
    fp32: bool
    tiles: list[int]  # (Mt, Nt)
    residency: str  # dst | subblocked
    spill_cb: int  # the CB partial sums go through (-1: none)
    loc: str
    subblock: list[int] | None = None
    k_group: int = 1  # reduction steps one DST pass accumulates before partial sums are spilled


@_record("tt.DFGNode")
class DFGNode(dc.Object):
    """One tile op: which kernel runs it and which CBs it consumes and produces."""

    id: int
    op: str
    kernel: str  # reader | compute | writer
    cbs_in: list[int]
    cbs_out: list[int]
    loc: str


@_record("tt.DFGEdge")
class DFGEdge(dc.Object):
    src: int
    dst: int
    cb: int


@_record("tt.TileDFG")
class TileDFG(dc.Object):
    """Producers and consumers of each CB."""

    nodes: list[DFGNode]
    edges: list[DFGEdge]


@_record("tt.AccessorArgs")
class AccessorArgs(dc.Object):
    """A tensor's TensorAccessor in one data-movement kernel: C++ names and compile-time argument slots."""

    param: int
    tensor: str
    accessor: str
    args: str
    addr: str
    tile_bytes: str
    cb: int
    ct_offset: int  # first compile-time argument of the accessor's TensorAccessorArgs
    tiles: list[int]
    memory: str
    page_layout: str  # the tensor's (TensorAccessor.page_layout)
    page_size: int  # bytes per page: get_tile_size of the CB for tiles, the row bytes for row_major
    # a sharded tensor's (TensorAccessor's); with halos, reads prefer the core's own window of its tiles
    shard_grid: list[int] = dc.field(default_factory=list)
    shard_order: str = ""
    halo: list[int] = dc.field(default_factory=list)


@_record("tt.ComputeConfig")
class ComputeConfig(dc.Object):
    math_fidelity: str
    fp32_dest_acc_en: bool
    dst_full_sync_en: bool
    math_approx_mode: bool


@_record("tt.RuntimeArg")
class RuntimeArg(dc.Object):
    """One runtime argument slot of a kernel: a tensor address, a size of the problem (kind "shape": the same
    ``value`` on every core, what it is in ``meaning``), or the core's work range."""

    name: str
    kind: str  # addr | multicast | shape | work_start | work_count | ...
    tensor: str = ""
    value: int = 0
    meaning: str = ""


@_record("tt.CoreRuntimeArgs")
class CoreRuntimeArgs(dc.Object):
    """One core's runtime-argument values, in slot order; "addr:<tensor>" stands for an address the host
    fills in."""

    core: list[int]
    values: list[Any]
