"""The reader, compute and writer kernels of the GEMM of gemm_stages.py, from SplitDeviceKernel on, at the
stage each later pass leaves them, written out by hand: the Before/Expected tests of SplitDeviceKernel …
FinalizePersistentSignatureTT share them. Scalars such as ``cb_in0``, ``a`` and ``a_tile_bytes`` are free:
named constants the kernel's C++ header declares (compared by name, see before_after.py)."""

from __future__ import annotations

from before_after import T
from gemm_stages import AFTER_DFG


def kernel_attrs(role: str, **more) -> dict:
    """SplitDeviceKernel: every tt.* attribute of the program, plus the kernel's role and program name."""
    return {**AFTER_DFG, "tt.kernel_role": role, "tt.program": "gemm", **more}


def _accessor_args(param, tensor, cb, ct_offset):
    """ConfigureTensorAccessorTT: one interleaved DRAM tensor of 2×2 tiles, named after the tensor."""
    name = tensor.lower()
    return {
        "param": param,
        "tensor": tensor,
        "accessor": name,
        "args": f"{name}_args",
        "addr": f"{name}_addr",
        "tile_bytes": f"{name}_tile_bytes",
        "cb": cb,
        "ct_offset": ct_offset,
        "tiles": [2, 2],
        "memory": "DRAM",
    }


# the reader's accessors chain their compile-time arguments (A at 0, B at 1); the writer's C starts at 0
READER_ACCESSORS = [_accessor_args(0, "A", 0, 0), _accessor_args(1, "B", 1, 1)]
WRITER_ACCESSORS = [_accessor_args(2, "C", 16, 0)]


def compute_intrinsics(attrs: dict):
    """SplitDeviceKernel's compute kernel: zero, the k loop of mma, pack; no grid indices needed."""

    @T.prim_func
    def gemm_compute():
        T.func_attr(attrs)
        for block in range(T.tt.work_count()):
            T.tt.fpu.zero(0, "g.py:8:8")
            for k in T.serial(2, annotations={"tl.pipelined_stages": 2}):
                T.tt.mm.mma(0, 1, 0, 1, 1, 1, 0, 0, "g.py:12:12")
            T.tt.pack(0, 16, "g.py:13:8")

    return gemm_compute


def compute_initialised(attrs: dict):
    """InsertComputeInitTT: mm_init(in0, in1, out, transpose_B = 0) before the work loop."""

    @T.prim_func(check_well_formed=False)
    def gemm_compute():
        T.func_attr(attrs)
        cb_in0 = T.int32()
        cb_in1 = T.int32()
        cb_out0 = T.int32()
        T.tt.comment("Configure the unpacker, math engine and packer for tile matmul")
        T.call_extern("void", "mm_init", cb_in0, cb_in1, cb_out0, 0)
        for block in range(T.tt.work_count()):
            T.tt.fpu.zero(0, "g.py:8:8")
            for k in T.serial(2, annotations={"tl.pipelined_stages": 2}):
                T.tt.mm.mma(0, 1, 0, 1, 1, 1, 0, 0, "g.py:12:12")
            T.tt.pack(0, 16, "g.py:13:8")

    return gemm_compute


def reader_intrinsics(attrs: dict):
    """SplitDeviceKernel's reader: the grid indices and the k loop of reads (parameters by index)."""

    @T.prim_func
    def gemm_reader():
        T.func_attr(attrs)
        for block in range(T.tt.work_count()):
            bx: T.let[T.int32] = T.tt.work_block(block, 0)
            by: T.let[T.int32] = T.tt.work_block(block, 1)
            for k in T.serial(2, annotations={"tl.pipelined_stages": 2}):
                T.tt.read_to_cb(0, 0, by, k, 1, 1, "g.py:10:12")
                T.tt.read_to_cb(1, 1, k, bx, 1, 1, "g.py:11:12")

    return gemm_reader


def reader_on_accessors(attrs: dict):
    """ConfigureTensorAccessorTT: the parameter indices became the accessors a and b."""

    @T.prim_func(check_well_formed=False)
    def gemm_reader():
        T.func_attr(attrs)
        a = T.int32()
        b = T.int32()
        for block in range(T.tt.work_count()):
            bx: T.let[T.int32] = T.tt.work_block(block, 0)
            by: T.let[T.int32] = T.tt.work_block(block, 1)
            for k in T.serial(2, annotations={"tl.pipelined_stages": 2}):
                T.tt.read_to_cb(0, a, by, k, 1, 1, "g.py:10:12")
                T.tt.read_to_cb(1, b, k, bx, 1, 1, "g.py:11:12")

    return gemm_reader


def writer_intrinsics(attrs: dict):
    """SplitDeviceKernel's writer: the grid indices and the write of C's block (parameter 2)."""

    @T.prim_func
    def gemm_writer():
        T.func_attr(attrs)
        for block in range(T.tt.work_count()):
            bx: T.let[T.int32] = T.tt.work_block(block, 0)
            by: T.let[T.int32] = T.tt.work_block(block, 1)
            T.tt.write_from_cb(16, 2, by, bx, 1, 1, "g.py:13:8")

    return gemm_writer


def writer_on_accessors(attrs: dict):
    """ConfigureTensorAccessorTT: parameter 2 became the accessor c."""

    @T.prim_func(check_well_formed=False)
    def gemm_writer():
        T.func_attr(attrs)
        c = T.int32()
        for block in range(T.tt.work_count()):
            bx: T.let[T.int32] = T.tt.work_block(block, 0)
            by: T.let[T.int32] = T.tt.work_block(block, 1)
            T.tt.write_from_cb(16, c, by, bx, 1, 1, "g.py:13:8")

    return gemm_writer
