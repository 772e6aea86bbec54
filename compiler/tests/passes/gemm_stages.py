"""A 64×64×64 bfloat16 GEMM on 32×32×32 blocks (fp32 accumulator, two pipelined k steps, a 2×2 launch grid)
at the stages of the pipeline's first passes: its tile-op body, and the function attributes each pass adds,
written out by hand. The Before/Expected tests of ApplyTTDefaults … SplitDeviceKernel share it: one pass's
expected attributes are the next one's input. The functions are public (``global_symbol`` "gemm"), as the
DSL makes them: passes name the program in messages."""

from __future__ import annotations

from before_after import DEFAULT_OPTIONS, WORMHOLE, T, dram_tensor_64x64
from tilelang_tt.records import (
    Accumulator,
    CircularBuffer,
    CoreRange,
    CoreWork,
    DFGEdge,
    DFGNode,
    Grid,
    GridAxis,
    LayoutDesc,
    TileDFG,
    WorkPartition,
    replace,
)


@T.macro
def gemm_tile_ops(A, B, C, bx, by):
    A_s = T.alloc_shared((32, 32), "bfloat16")
    B_s = T.alloc_shared((32, 32), "bfloat16")
    C_f = T.alloc_buffer((32, 32), scope="local.fragment")
    T.tl.fill(C_f[0:32, 0:32], T.float32(0), "g.py:8:8")
    for k in T.serial(2, annotations={"tl.pipelined_stages": 2}):
        T.tl.copy(A[by * 32 : by * 32 + 32, k * 32 : k * 32 + 32], A_s[0:32, 0:32], "g.py:10:12")
        T.tl.copy(B[k * 32 : k * 32 + 32, bx * 32 : bx * 32 + 32], B_s[0:32, 0:32], "g.py:11:12")
        T.tl.gemm(A_s[0:32, 0:32], B_s[0:32, 0:32], C_f[0:32, 0:32], 0, 0, "g.py:12:12")
    T.tl.copy(C_f[0:32, 0:32], C[by * 32 : by * 32 + 32, bx * 32 : bx * 32 + 32], "g.py:13:8")


# ApplyTTDefaults: bfloat16 tiles are Float16_b, the fp32 accumulator Float32.
DATA_FORMATS = {
    "A": "Float16_b",
    "B": "Float16_b",
    "C": "Float16_b",
    "A_s": "Float16_b",
    "B_s": "Float16_b",
    "C_f": "Float32",
}
DEFAULTS = {"tt.target": WORMHOLE, "tt.options": DEFAULT_OPTIONS, "tt.data_formats": DATA_FORMATS}

# InferTTLayout: tensors in DRAM, interleaved; tile buffers are L1 circular buffers.
_DRAM = LayoutDesc(memory="DRAM", layout="interleaved", tile_id_order="row_major")
_CB = LayoutDesc(memory="L1", layout="cb", tile_id_order="row_major")
LAYOUT_DESC = {"A": _DRAM, "B": _DRAM, "C": _DRAM, "A_s": _CB, "B_s": _CB, "C_f": _CB}

# PropagateTTLayout: each tile buffer names the tensor it is loaded from or stored to.
LAYOUT_DESC_WITH_PEERS = {
    **LAYOUT_DESC,
    "A_s": replace(_CB, peer="A"),
    "B_s": replace(_CB, peer="B"),
    "C_f": replace(_CB, peer="C"),
}


# AttachTensorAccessorTT: A and B are read (copied from), C written (copied to).
TENSOR_ACCESSORS = [
    dram_tensor_64x64("A", 0, "read", "bfloat16"),
    dram_tensor_64x64("B", 1, "read", "bfloat16"),
    dram_tensor_64x64("C", 2, "write", "bfloat16"),
]

# LayoutAwareWorkPartitionTT (row_major): the 4 output blocks (by rows, bx columns) on cores (0..3, 0), one
# each; every block reduces over len_k = 2 k steps × 1 K tile.
GRID = Grid(
    x=2,
    y=2,
    z=1,
    row_axes=[GridAxis(tag="blockIdx.y", blocks=1)],
    col_axes=[GridAxis(tag="blockIdx.x", blocks=1)],
    block_shape=[32, 32],
    num_blocks=4,
)
CORE_WORK = [CoreWork(core=[b, 0], start=b, count=1) for b in range(4)]
WORK_PARTITION = WorkPartition(len_k=2, tile_order="row_major")
PARTITION = {
    "tt.grid": GRID,
    "tt.core_work": CORE_WORK,
    "tt.work_encoding": "range_row_major",
    "tt.core_ranges": [CoreRange(x0=0, y0=0, x1=3, y1=0)],
    "tt.work_partition": WORK_PARTITION,
}

# The function attributes after each pass, cumulatively.
AFTER_INFER = {**DEFAULTS, "tt.layout_desc": LAYOUT_DESC}
AFTER_PROPAGATE = {**DEFAULTS, "tt.layout_desc": LAYOUT_DESC_WITH_PEERS}
AFTER_ACCESSORS = {**AFTER_PROPAGATE, "tt.tensor_accessors": TENSOR_ACCESSORS}
AFTER_PARTITION = {**AFTER_ACCESSORS, **PARTITION}
AFTER_GRID = {**AFTER_PARTITION, "tt.persistent": True}


def launched(attrs: dict):
    """The GEMM as the DSL gives it: a 2×2 launch grid around the tile ops, function attributes ``attrs``."""

    @T.prim_func
    def gemm(
        A: T.Buffer((64, 64), "bfloat16"),
        B: T.Buffer((64, 64), "bfloat16"),
        C: T.Buffer((64, 64), "bfloat16"),
    ):
        T.func_attr(attrs)
        bx = T.launch_thread("blockIdx.x", 2)
        by = T.launch_thread("blockIdx.y", 2)
        gemm_tile_ops(A, B, C, bx, by)

    return gemm


def _persistent_program(attrs: dict, tile_ops):
    """The GEMM after GridToCoreGrid: a loop over the core's work items rebinding bx, by, around
    ``tile_ops(A, B, C, bx, by)`` (a macro: the body at some stage). Not checked for well-formedness: from
    LowerSharedToCB on, tile buffers are CBs, used but not allocated."""

    @T.prim_func(check_well_formed=False)
    def gemm(
        A: T.Buffer((64, 64), "bfloat16"),
        B: T.Buffer((64, 64), "bfloat16"),
        C: T.Buffer((64, 64), "bfloat16"),
    ):
        T.func_attr(attrs)
        for block in range(T.tt.work_count()):
            bx: T.let[T.int32] = T.tt.work_block(block, 0)
            by: T.let[T.int32] = T.tt.work_block(block, 1)
            tile_ops(A, B, C, bx, by)

    return gemm


def persistent(attrs: dict):
    return _persistent_program(attrs, gemm_tile_ops)


# LowerSharedToCB: A_s and B_s are input CBs of one tile, double-buffered (max(2, num_stages) blocks); the
# accumulator C_f stays in DST (one fp32 tile) and gets its own output CB it is packed into.
def _tile_cb(cb, name, buffer, role, dims, loc, **extra):
    return CircularBuffer(
        cb=cb,
        buffer=buffer,
        name=name,
        role=role,
        dtype="bfloat16",
        format="Float16_b",
        page_size=2048,
        tiles=1,
        tile_shape=[1, 1],
        depth=2,
        total_bytes=4096,
        dims=dims,
        loc=loc,
        **extra,
    )


CB_TABLE = [
    _tile_cb(0, "cb_in0", "A_s", "input", ["m", "k"], "g.py:10:12"),
    _tile_cb(1, "cb_in1", "B_s", "input", ["k", "n"], "g.py:11:12"),
    _tile_cb(16, "cb_out0", "C_f_out", "output", ["m", "n"], "g.py:13:8", packs="C_f"),
]
ACCUMULATOR = Accumulator(
    buffer="C_f",
    dtype="float32",
    format="Float32",
    fp32=True,
    tiles=[1, 1],
    residency="dst",
    spill_cb=-1,
    loc="g.py:12:12",
)
AFTER_CBS = {**AFTER_GRID, "tt.cb_table": CB_TABLE, "tt.accumulators": [ACCUMULATOR]}

# BuildTileDFGTT: the accumulator's single tile is its DST subblock, and its output CB is drained in it;
# reads on the reader, math on compute, the write on the writer.
TILE_DFG = TileDFG(
    nodes=[
        DFGNode(id=0, op="tt.fpu.zero", kernel="compute", cbs_in=[], cbs_out=[], loc="g.py:8:8"),
        DFGNode(id=1, op="tt.read_to_cb", kernel="reader", cbs_in=[], cbs_out=[0], loc="g.py:10:12"),
        DFGNode(id=2, op="tt.read_to_cb", kernel="reader", cbs_in=[], cbs_out=[1], loc="g.py:11:12"),
        DFGNode(id=3, op="tt.mm.mma", kernel="compute", cbs_in=[0, 1], cbs_out=[], loc="g.py:12:12"),
        DFGNode(id=4, op="tt.pack", kernel="compute", cbs_in=[], cbs_out=[16], loc="g.py:13:8"),
        DFGNode(id=5, op="tt.write_from_cb", kernel="writer", cbs_in=[16], cbs_out=[], loc="g.py:13:8"),
    ],
    edges=[DFGEdge(src=1, dst=3, cb=0), DFGEdge(src=2, dst=3, cb=1), DFGEdge(src=4, dst=5, cb=16)],
)
AFTER_DFG = {
    **AFTER_GRID,
    "tt.cb_table": CB_TABLE[:2] + [replace(CB_TABLE[2], subblock=[1, 1])],
    "tt.accumulators": [replace(ACCUMULATOR, subblock=[1, 1])],
    "tt.tile_dfg": TILE_DFG,
}


@T.macro
def gemm_tile_ops_on_cbs(A, B, C, bx, by):
    """``gemm_tile_ops`` once the tile buffers are circular buffers: no allocations remain."""
    C_f = T.Buffer((32, 32), scope="local.fragment")
    T.tl.fill(C_f[0:32, 0:32], T.float32(0), "g.py:8:8")
    for k in T.serial(2, annotations={"tl.pipelined_stages": 2}):
        A_s = T.Buffer((32, 32), "bfloat16", scope="shared")
        T.tl.copy(A[by * 32 : by * 32 + 32, k * 32 : k * 32 + 32], A_s[0:32, 0:32], "g.py:10:12")
        B_s = T.Buffer((32, 32), "bfloat16", scope="shared")
        T.tl.copy(B[k * 32 : k * 32 + 32, bx * 32 : bx * 32 + 32], B_s[0:32, 0:32], "g.py:11:12")
        T.tl.gemm(A_s[0:32, 0:32], B_s[0:32, 0:32], C_f[0:32, 0:32], 0, 0, "g.py:12:12")
    T.tl.copy(C_f[0:32, 0:32], C[by * 32 : by * 32 + 32, bx * 32 : bx * 32 + 32], "g.py:13:8")


@T.macro
def gemm_tile_intrinsics(A, B, C, bx, by):
    """LowerTTTileIntrinsics: positions in tiles; accumulator 0; parameters A 0, B 1, C 2."""
    T.tt.fpu.zero(0, "g.py:8:8")
    for k in T.serial(2, annotations={"tl.pipelined_stages": 2}):
        T.tt.read_to_cb(0, 0, by, k, 1, 1, "g.py:10:12")
        T.tt.read_to_cb(1, 1, k, bx, 1, 1, "g.py:11:12")
        T.tt.mm.mma(0, 1, 0, 1, 1, 1, 0, 0, "g.py:12:12")
    T.tt.pack(0, 16, "g.py:13:8")
    T.tt.write_from_cb(16, 2, by, bx, 1, 1, "g.py:13:8")


def persistent_on_cbs(attrs: dict):
    return _persistent_program(attrs, gemm_tile_ops_on_cbs)


def persistent_intrinsics(attrs: dict):
    return _persistent_program(attrs, gemm_tile_intrinsics)
