"""The reader, compute and writer kernels of the GEMM of gemm_stages.py, from SplitDeviceKernel on, at the
stage each later pass leaves them, written out by hand: the Before/Expected tests of SplitDeviceKernel …
VerifyTTIR share them. Scalars such as ``cb_in0``, ``a`` and ``a_tile_bytes`` are free:
named constants the kernel's C++ header declares (compared by name, see before_after.py)."""

from __future__ import annotations

import tvm
from before_after import T, module_of
from gemm_stages import ACCUMULATOR, AFTER_DFG
from tilelang_tt.records import AccessorArgs, ComputeConfig, CoreRuntimeArgs, RuntimeArg, replace


def kernel_attrs(role: str, more: dict | None = None) -> dict:
    """SplitDeviceKernel: every tt.* attribute of the program, plus the kernel's role and program name (and
    ``more``, what later passes add)."""
    return {**AFTER_DFG, "tt.kernel_role": role, "tt.program": "gemm", **(more or {})}


def _accessor_args(param, tensor, cb, ct_offset):
    """ConfigureTensorAccessorTT: one interleaved DRAM tensor of 2×2 tiles, named after the tensor."""
    name = tensor.lower()
    return AccessorArgs(
        param=param,
        tensor=tensor,
        accessor=name,
        args=f"{name}_args",
        addr=f"{name}_addr",
        tile_bytes=f"{name}_tile_bytes",
        cb=cb,
        ct_offset=ct_offset,
        tiles=[2, 2],
        memory="DRAM",
        page_layout="tile",
        page_size=2048,
    )


# the reader's accessors chain their compile-time arguments (A at 0, B at 1); the writer's C starts at 0
READER_ACCESSORS = [_accessor_args(0, "A", 0, 0), _accessor_args(1, "B", 1, 1)]
WRITER_ACCESSORS = [_accessor_args(2, "C", 16, 0)]


# InsertComputeInitTT: the accumulator is float32, so DST accumulates in fp32.
COMPUTE_CONFIG = {
    "tt.compute_config": ComputeConfig(
        math_fidelity="HiFi4", fp32_dest_acc_en=True, dst_full_sync_en=False, math_approx_mode=False
    )
}


# ---- kernel bodies, one macro per stage ---------------------------------------------------------------


@T.macro
def reads_by_param(bx, by):
    """SplitDeviceKernel: the k loop of reads, tensors named by parameter index (A 0, B 1)."""
    for k in T.serial(2, annotations={"tl.pipelined_stages": 2}):
        T.tt.read_to_cb(0, 0, by, k, 1, 1, "g.py:10:12")
        T.tt.read_to_cb(1, 1, k, bx, 1, 1, "g.py:11:12")


@T.macro
def reads_by_accessor(bx, by):
    """ConfigureTensorAccessorTT: the parameter indices became the accessors a and b."""
    a = T.int32()
    b = T.int32()
    for k in T.serial(2, annotations={"tl.pipelined_stages": 2}):
        T.tt.read_to_cb(0, a, by, k, 1, 1, "g.py:10:12")
        T.tt.read_to_cb(1, b, k, bx, 1, 1, "g.py:11:12")


@T.macro
def reader_block(bx, by, k):
    """LowerCBIntrinsics, one k step of the reader (prefetch: both blocks reserved, both read, one barrier,
    both pushed); tile ids row * tile columns + col, the tensors' tile columns by name."""
    cb_in0 = T.int32()
    cb_in1 = T.int32()
    a = T.int32()
    b = T.int32()
    a_tile_cols = T.int32()
    b_tile_cols = T.int32()
    T.tt.comment("g.py:10: ")
    T.tt.comment("g.py:11: ")
    T.call_extern("void", "cb_reserve_back", cb_in0, 1)
    T.call_extern("void", "cb_reserve_back", cb_in1, 1)
    l1_write_addr_in0: T.let[T.int32] = T.call_extern("int32", "get_write_ptr", cb_in0)
    a_tile: T.let[T.int32] = by * a_tile_cols + k
    T.call_extern("void", "noc_async_read_tile", a_tile, a, l1_write_addr_in0)
    l1_write_addr_in1: T.let[T.int32] = T.call_extern("int32", "get_write_ptr", cb_in1)
    b_tile: T.let[T.int32] = k * b_tile_cols + bx
    T.call_extern("void", "noc_async_read_tile", b_tile, b, l1_write_addr_in1)
    T.call_extern("void", "noc_async_read_barrier")
    T.call_extern("void", "cb_push_back", cb_in0, 1)
    T.call_extern("void", "cb_push_back", cb_in1, 1)


@T.macro
def reads_on_noc(bx, by):
    for k in T.serial(2, annotations={"tl.pipelined_stages": 2}):
        reader_block(bx, by, k)


@T.macro
def reads_on_noc_final(bx, by):
    """FinalizePersistentSignatureTT: the k loop hands off CB pages, so its trip count is an argument."""
    k_count = T.int32()
    for k in T.serial(k_count, annotations={"tl.pipelined_stages": 2}):
        reader_block(bx, by, k)


@T.macro
def write_by_param(bx, by):
    """SplitDeviceKernel: the write of C's block (parameter 2)."""
    T.tt.write_from_cb(16, 2, by, bx, 1, 1, "g.py:13:8")


@T.macro
def write_by_accessor(bx, by):
    """ConfigureTensorAccessorTT: parameter 2 became the accessor c."""
    c = T.int32()
    T.tt.write_from_cb(16, c, by, bx, 1, 1, "g.py:13:8")


@T.macro
def writer_block(bx, by):
    """LowerCBIntrinsics, the writer: wait for C's packed tile, write tile by * c_tile_cols + bx, pop it."""
    cb_out0 = T.int32()
    c = T.int32()
    c_tile_cols = T.int32()
    T.tt.comment("g.py:13: ")
    T.call_extern("void", "cb_wait_front", cb_out0, 1)
    l1_read_addr_out0: T.let[T.int32] = T.call_extern("int32", "get_read_ptr", cb_out0)
    c_tile: T.let[T.int32] = by * c_tile_cols + bx
    T.call_extern("void", "noc_async_write_tile", c_tile, c, l1_read_addr_out0)
    T.call_extern("void", "noc_async_write_barrier")
    T.call_extern("void", "cb_pop_front", cb_out0, 1)


@T.macro
def mma_intrinsics():
    """SplitDeviceKernel's compute: zero, the k loop of mma, pack."""
    T.tt.fpu.zero(0, "g.py:8:8")
    for k in T.serial(2, annotations={"tl.pipelined_stages": 2}):
        T.tt.mm.mma(0, 1, 0, 1, 1, 1, 0, 0, "g.py:12:12")
    T.tt.pack(0, 16, "g.py:13:8")


@T.macro
def compute_block_of(steps):
    """InsertDSTManagementTT, the DST-resident accumulator: acquire (zeroes DST), per k step wait for A's
    and B's tiles, matmul_tiles into DST 0, pop them; then commit, wait, pack into C's CB, release; the k
    loop runs ``steps`` times."""
    cb_in0 = T.int32()
    cb_in1 = T.int32()
    cb_out0 = T.int32()
    T.tt.comment("g.py:12: ")
    T.call_extern("void", "tile_regs_acquire")
    for k in T.serial(steps, annotations={"tl.pipelined_stages": 2}):
        T.call_extern("void", "cb_wait_front", cb_in0, 1)
        T.call_extern("void", "cb_wait_front", cb_in1, 1)
        T.call_extern("void", "matmul_tiles", cb_in0, cb_in1, 0, 0, 0)
        T.call_extern("void", "cb_pop_front", cb_in0, 1)
        T.call_extern("void", "cb_pop_front", cb_in1, 1)
    T.call_extern("void", "tile_regs_commit")
    T.call_extern("void", "tile_regs_wait")
    T.tt.comment("g.py:13: ")
    T.call_extern("void", "cb_reserve_back", cb_out0, 1)
    T.call_extern("void", "pack_tile", 0, cb_out0)
    T.call_extern("void", "cb_push_back", cb_out0, 1)
    T.call_extern("void", "tile_regs_release")


@T.macro
def compute_block():
    compute_block_of(2)


@T.macro
def compute_block_final():
    """FinalizePersistentSignatureTT: the k loop hands off CB pages, so its trip count is an argument."""
    k_count = T.int32()
    compute_block_of(k_count)


@T.macro
def compute_init():
    cb_in0 = T.int32()
    cb_in1 = T.int32()
    cb_out0 = T.int32()
    T.tt.comment("Configure the unpacker, math engine and packer for tile matmul")
    T.call_extern("void", "compute_kernel_hw_startup<SrcOrder::Reverse>", cb_in0, cb_in1, cb_out0)
    T.call_extern("void", "matmul_init", cb_in0, cb_in1, 0)


# ---- the compute kernel of 2x2-tile blocks: one matmul_block per k step (passes/matmul_form.py) ---------

# The accumulator of a 64x64 block: 2x2 tiles, all in DST at once.
BLOCK_ACCUMULATOR = replace(ACCUMULATOR, tiles=[2, 2], subblock=[2, 2])


@T.macro
def mma_intrinsics_2x2():
    """SplitDeviceKernel's compute for 2x2-tile blocks of one k tile per step."""
    T.tt.fpu.zero(0, "g.py:8:8")
    for k in T.serial(2, annotations={"tl.pipelined_stages": 2}):
        T.tt.mm.mma(0, 1, 0, 2, 2, 1, 0, 0, "g.py:12:12")
    T.tt.pack(0, 16, "g.py:13:8")


@T.macro
def compute_block_2x2():
    """InsertDSTManagementTT: per k step, one matmul_block covers the 2x2 tiles (in0 0, in1 0, DST 0, no
    transpose, ct_dim 2, rt_dim 2, kt_dim 1); the four tiles are packed after the k loop."""
    cb_in0 = T.int32()
    cb_in1 = T.int32()
    cb_out0 = T.int32()
    T.tt.comment("g.py:12: ")
    T.call_extern("void", "tile_regs_acquire")
    for k in T.serial(2, annotations={"tl.pipelined_stages": 2}):
        T.call_extern("void", "cb_wait_front", cb_in0, 2)
        T.call_extern("void", "cb_wait_front", cb_in1, 2)
        T.call_extern("void", "matmul_block", cb_in0, cb_in1, 0, 0, 0, 0, 2, 2, 1)
        T.call_extern("void", "cb_pop_front", cb_in0, 2)
        T.call_extern("void", "cb_pop_front", cb_in1, 2)
    T.call_extern("void", "tile_regs_commit")
    T.call_extern("void", "tile_regs_wait")
    T.tt.comment("g.py:13: ")
    T.call_extern("void", "cb_reserve_back", cb_out0, 4)
    for i in range(4):
        T.call_extern("void", "pack_tile", i, cb_out0)
    T.call_extern("void", "cb_push_back", cb_out0, 4)
    T.call_extern("void", "tile_regs_release")


@T.macro
def compute_block_init_2x2():
    """InsertComputeInitTT for 2x2-tile blocks: the engines configured for matmul_block's shape."""
    cb_in0 = T.int32()
    cb_in1 = T.int32()
    cb_out0 = T.int32()
    T.tt.comment("Configure the unpacker, math engine and packer for tile matmul")
    T.call_extern("void", "compute_kernel_hw_startup<SrcOrder::Reverse>", cb_in0, cb_in1, cb_out0)
    T.call_extern("void", "matmul_block_init", cb_in0, cb_in1, 0, 2, 2, 1)


# ---- kernels -----------------------------------------------------------------------------------------


def data_movement_kernel(role: str, attrs: dict, block_body):
    """The reader or writer before FinalizePersistentSignatureTT: the work loop rebinds bx, by from the
    work item, around ``block_body(bx, by)``."""

    @T.prim_func(check_well_formed=False)
    def kernel():
        T.func_attr(attrs)
        for block in range(T.tt.work_count()):
            bx: T.let[T.int32] = T.tt.work_block(block, 0)
            by: T.let[T.int32] = T.tt.work_block(block, 1)
            block_body(bx, by)

    return kernel.with_attr("global_symbol", f"gemm_{role}")


def data_movement_final(role: str, attrs: dict, block_body):
    """FinalizePersistentSignatureTT: the work item's block id is block_start + block; bx its column
    (block_id % grid_x), by its row."""

    @T.prim_func(check_well_formed=False)
    def kernel():
        T.func_attr(attrs)
        num_blocks = T.int32()
        block_start = T.int32()
        grid_x = T.int32()
        for block in range(num_blocks):
            block_id: T.let[T.int32] = block_start + block
            bx: T.let[T.int32] = block_id % grid_x
            by: T.let[T.int32] = block_id // grid_x
            block_body(bx, by)

    return kernel.with_attr("global_symbol", f"gemm_{role}")


def compute_kernel(attrs: dict, block_body, initialised: bool = True, init=compute_init):
    """The compute kernel before FinalizePersistentSignatureTT: (``init``, from InsertComputeInitTT on)
    then the work loop around ``block_body()``; it needs no grid index."""

    @T.prim_func(check_well_formed=False)
    def with_init():
        T.func_attr(attrs)
        init()
        for block in range(T.tt.work_count()):
            block_body()

    @T.prim_func(check_well_formed=False)
    def without_init():
        T.func_attr(attrs)
        for block in range(T.tt.work_count()):
            block_body()

    return (with_init if initialised else without_init).with_attr("global_symbol", "gemm_compute")


def compute_final(attrs: dict):
    """FinalizePersistentSignatureTT: the work loop runs num_blocks times."""

    @T.prim_func(check_well_formed=False)
    def gemm_compute():
        T.func_attr(attrs)
        num_blocks = T.int32()
        compute_init()
        for block in range(num_blocks):
            compute_block_final()

    return gemm_compute


# FinalizePersistentSignatureTT (range_row_major): the data-movement kernels take their tensors' addresses,
# then the sizes they use, then block_start and num_blocks; compute its k loop's trip count and
# num_blocks. Core (b, 0) starts at block b and has one.
def _runtime_args(tensors, sizes):
    addrs = [RuntimeArg(name=f"{t.lower()}_addr", kind="addr", tensor=t) for t in tensors]
    shape = [RuntimeArg(name=name, kind="shape", value=2, meaning=meaning) for name, meaning in sizes]
    work = [RuntimeArg(name="block_start", kind="work_start")] if tensors else []
    return {
        "tt.runtime_args": addrs + shape + work + [RuntimeArg(name="num_blocks", kind="work_count")],
        "tt.core_runtime_args": [
            CoreRuntimeArgs(
                core=[b, 0],
                values=[f"addr:{t}" for t in tensors] + [2] * len(sizes) + ([b] if tensors else []) + [1],
            )
            for b in range(4)
        ],
    }


GRID_X = ("grid_x", "blocks along the launch grid's x axis")
K_COUNT = ("k_count", "trip count of the k loop")
READER_RUNTIME_ARGS = _runtime_args(
    ["A", "B"],
    [GRID_X, K_COUNT, ("a_tile_cols", "columns of A, in tiles"), ("b_tile_cols", "columns of B, in tiles")],
)
WRITER_RUNTIME_ARGS = _runtime_args(["C"], [GRID_X, ("c_tile_cols", "columns of C, in tiles")])
COMPUTE_RUNTIME_ARGS = _runtime_args([], [K_COUNT])


# ---- the whole program at the last two stages ----------------------------------------------------------

_READER = kernel_attrs("reader", {"tt.accessor_args": READER_ACCESSORS})
_WRITER = kernel_attrs("writer", {"tt.accessor_args": WRITER_ACCESSORS})
_COMPUTE = kernel_attrs("compute", COMPUTE_CONFIG)


def lowered_kernels() -> tvm.IRModule:
    """The three kernels after InsertDSTManagementTT (the input of FinalizePersistentSignatureTT)."""
    return module_of(
        data_movement_kernel("reader", _READER, reads_on_noc),
        compute_kernel(_COMPUTE, compute_block),
        data_movement_kernel("writer", _WRITER, writer_block),
    )


def final_kernels() -> tvm.IRModule:
    """The three kernels after FinalizePersistentSignatureTT: the module VerifyTTIR checks."""
    return module_of(
        data_movement_final("reader", {**_READER, **READER_RUNTIME_ARGS}, reads_on_noc_final),
        compute_final({**_COMPUTE, **COMPUTE_RUNTIME_ARGS}),
        data_movement_final("writer", {**_WRITER, **WRITER_RUNTIME_ARGS}, writer_block),
    )
