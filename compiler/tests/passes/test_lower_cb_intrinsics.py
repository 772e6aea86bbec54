"""LowerCBIntrinsics: reader/writer NOC + CB protocol."""

import pytest
import tilelang_tt.language as TL
import tvm
import tvm_ffi
from before_after import T, assert_pass
from gather_tiles import READER as GATHER_READER
from gemm_kernels import (
    READER_ACCESSORS,
    WRITER_ACCESSORS,
    data_movement_kernel,
    kernel_attrs,
    reads_by_accessor,
    reads_on_noc,
    write_by_accessor,
    writer_block,
)
from programs import affine_blocks, conv_3x3, extern_calls, gemm, lower, page_table_gather
from tilelang_tt import ops
from tilelang_tt.ir_utils import find_ops
from tilelang_tt.passes import LowerCBIntrinsics
from tilelang_tt.records import replace
from tvm import tirx


def test_reader_protocol_with_prefetch():
    calls = extern_calls(lower(gemm(), "LowerCBIntrinsics")["gemm_reader"])
    assert calls == [
        "cb_reserve_back",
        "cb_reserve_back",
        "noc_async_read_tile",
        "noc_async_read_tile",
        "noc_async_read_barrier",
        "cb_push_back",
        "cb_push_back",
    ]


def test_reader_protocol_without_prefetch_has_a_barrier_per_block():
    calls = extern_calls(lower(gemm(), "LowerCBIntrinsics", enable_prefetch=False)["gemm_reader"])
    assert calls.count("noc_async_read_barrier") == 2 and calls[0:3] == [
        "cb_reserve_back",
        "noc_async_read_tile",
        "noc_async_read_barrier",
    ]


def test_k_grouped_reader_moves_a_group_of_steps_per_reservation():
    """The compute kernel takes 8 K steps per DST pass (k_group), so the reader reserves, reads, waits
    and pushes 8 steps at a time: 4 groups over K = 1024 instead of 32 steps."""
    reader = lower(gemm(M=128, N=128, K=1024, bM=128, bN=128), "LowerCBIntrinsics")["gemm_reader"]
    loops, reserves = {}, []
    tvm_ffi.structural_walk(
        reader.body,
        (tirx.For, lambda lp: loops.setdefault(lp.loop_var.name, getattr(lp.extent, "value", None))),
    )
    tvm_ffi.structural_walk(
        reader.body,
        (
            tirx.Evaluate,
            lambda e: reserves.append(int(e.value.args[2].value))
            if ops.is_extern(e) and e.value.args[0].value == "cb_reserve_back"
            else None,
        ),
    )
    assert loops["k_group"] == 4 and loops["k_step"] == 8 and "k" not in loops
    assert reserves == [4 * 8, 4 * 8]
    assert extern_calls(reader).count("noc_async_read_barrier") == 1


def test_writer_protocol():
    calls = extern_calls(lower(gemm(), "LowerCBIntrinsics")["gemm_writer"])
    assert calls == ["cb_wait_front", "noc_async_write_tile", "noc_async_write_barrier", "cb_pop_front"]


def test_no_tile_intrinsics_left():
    mod = lower(gemm(), "LowerCBIntrinsics")
    assert not find_ops(mod["gemm_reader"].body, ("tt.read_to_cb",)) and not find_ops(
        mod["gemm_writer"].body, ("tt.write_from_cb",)
    )


def test_tile_loops_are_named_by_dimension():
    text = lower(gemm(), "LowerCBIntrinsics")["gemm_reader"].script()
    assert "for mt in range(2)" in text and "for nt in range(2)" in text


def test_writer_drains_subblocks():
    text = lower(gemm(M=128, N=128, bM=128, bN=128), "LowerCBIntrinsics")["gemm_writer"].script()
    assert "for m_subblock in range(4)" in text


def _conditions(func) -> list[str]:
    """The conditions of the ``if``s in ``func``, as TVMScript text."""
    found = []
    tvm_ffi.structural_walk(func.body, (tirx.IfThenElse, lambda s: found.append(str(s.condition))))
    return found


def _sizes(func, kernel: str) -> dict[str, int]:
    """The sizes ``func``'s ``kernel`` takes as runtime arguments (FinalizePersistentSignatureTT), by name:
    the values of the names LowerCBIntrinsics bounds tiles with."""
    mod = lower(func, "FinalizePersistentSignatureTT")
    return {a.name: a.value for a in mod[kernel].attrs["tt.runtime_args"] if a.kind == "shape"}


def test_aligned_program_moves_tiles_unconditionally():
    mod = lower(gemm(M=128, N=96, K=128, bN=32), "LowerCBIntrinsics")
    assert _conditions(mod["gemm_reader"]) == [] and _conditions(mod["gemm_writer"]) == []


def test_k_remainder_zero_fills_the_tiles_past_the_grid():
    # K = 96, block_K = 64: A has 3 tile columns, B 3 tile rows; k = 1 reaches tile 3 of both.
    mod = lower(gemm(M=64, N=64, K=96, bM=64, bN=64, bK=64), "LowerCBIntrinsics")
    reader = mod["gemm_reader"]
    assert _conditions(reader) == ["k * 2 + kt < a_tile_cols", "k * 2 + kt < b_tile_rows"]
    text = reader.script()
    assert text.count("reinterpret_cast<volatile tt_l1_ptr uint32_t*>") == 2
    assert "outside A's tile grid: zeros" in text and "outside B's tile grid: zeros" in text
    assert _conditions(mod["gemm_writer"]) == []  # C (64x64) is covered exactly
    sizes = {"grid_x": 1, "k_count": 2, "a_tile_cols": 3, "b_tile_rows": 3, "b_tile_cols": 2}
    assert _sizes(gemm(M=64, N=64, K=96, bM=64, bN=64, bK=64), "gemm_reader") == sizes


def test_writer_skips_tiles_past_the_grid_but_pops_every_page():
    # M = 275, N = 273: C's 9x9 tile grid; by, bx in [0, 5) blocks of 2x2 tiles reach tile 9.
    writer = lower(gemm(M=275, N=273, K=64), "LowerCBIntrinsics")["gemm_writer"]
    assert _conditions(writer) == ["by * 2 + mt < c_tile_rows and bx * 2 + nt < c_tile_cols"]
    assert _sizes(gemm(M=275, N=273, K=64), "gemm_writer") == {
        "grid_x": 5,
        "c_tile_rows": 9,
        "c_tile_cols": 9,
    }
    assert extern_calls(writer) == [
        "cb_wait_front",
        "noc_async_write_tile",
        "noc_async_write_barrier",
        "cb_pop_front",
    ]


def test_gemm_reader_before_expected():
    """Each k step: reserve A's and B's CB pages, read tile by * 2 + k of A and k * 2 + bx of B, one
    barrier (prefetch), push both; the GEMM is tile-aligned, so no edge test is emitted."""
    attrs = kernel_attrs("reader", {"tt.accessor_args": READER_ACCESSORS})
    assert_pass(
        LowerCBIntrinsics(),
        data_movement_kernel("reader", attrs, reads_by_accessor),
        data_movement_kernel("reader", attrs, reads_on_noc),
    )


def test_gemm_writer_before_expected():
    """Wait for C's packed tile, write it to tile by * 2 + bx, barrier, pop."""
    attrs = kernel_attrs("writer", {"tt.accessor_args": WRITER_ACCESSORS})
    assert_pass(
        LowerCBIntrinsics(),
        data_movement_kernel("writer", attrs, write_by_accessor),
        data_movement_kernel("writer", attrs, writer_block),
    )


@T.prim_func(private=True, check_well_formed=False)  # data, cb_*: names the kernel header declares
def im2col_reader():
    T.func_attr(GATHER_READER)
    data = T.int32()
    for block in range(T.tt.work_count()):
        bx: T.let[T.int32] = T.tt.work_block(block, 0)
        T.tt.read_im2col(0, data, bx, 0, 3, 1, 1, 1, 8, 8, 32, 8, 8, 64, 64, 32, "p.py:7:8")


@T.prim_func(private=True, check_well_formed=False)
def im2col_reader_on_noc():
    T.func_attr(GATHER_READER)
    data = T.int32()
    cb_cols_rows = T.int32()
    for block in range(T.tt.work_count()):
        bx: T.let[T.int32] = T.tt.work_block(block, 0)
        T.tt.comment("p.py:7: ")
        T.tt.comment("im2col rows: 3x3 window, stride 1, dilation 1, padding 1; runs of 32 channels per read")
        # one strip of 32 rows = one tile-sized page of the staging CB at a time
        for strip in range(2):
            T.call_extern("void", "cb_reserve_back", cb_cols_rows, 1)
            l1_write_addr_cols_rows: T.let[T.int32] = T.call_extern("int32", "get_write_ptr", cb_cols_rows)
            for r in range(32):
                # output position m = (n, oh, ow) of the 8×8 grid; window entry k = (kh, kw, c): one run of
                # 32 channels per row (block_K = C = 32, so kw = k // 32 % 3, c = 0)
                m: T.let[T.int32] = bx * 64 + strip * 32 + r
                k: T.let[T.int32] = 0
                h_padded: T.let[T.int32] = k // 96 + m % 64 // 8
                w_padded: T.let[T.int32] = k % 96 // 32 + m % 8
                run_addr: T.let[T.int32] = r * 64 + l1_write_addr_cols_rows
                # inside the image: h_padded, w_padded in [pad, size + pad)
                if m < 64 and k < 288 and h_padded >= 1 and w_padded >= 1 and h_padded < 9 and w_padded < 9:
                    T.call_extern(
                        "void",
                        "noc_async_read",
                        T.call_extern(
                            "int32",
                            "get_noc_addr",
                            m // 64 * 64 + h_padded * 8 + w_padded - 9,
                            data,
                            k % 32 * 2,
                        ),
                        run_addr,
                        64,
                    )
                else:
                    padding: T.let[T.handle("uint32", "global")] = T.call_extern(
                        T.handle("uint32", "global").ty,
                        "reinterpret_cast<volatile tt_l1_ptr uint32_t*>",
                        run_addr,
                    )
                    for word in range(16):
                        padding_1 = T.Buffer((1,), "uint32", data=padding)
                        padding_1[word] = T.uint32(0)
            T.call_extern("void", "noc_async_read_barrier")
            T.call_extern("void", "cb_push_back", cb_cols_rows, 1)


def test_im2col_reader_reads_runs_of_channels_and_zero_fills_the_padding():
    assert_pass(LowerCBIntrinsics(), im2col_reader, im2col_reader_on_noc)


def test_the_reader_copies_an_index_table_to_l1_once_and_reads_it_there():
    """ConfigureTensorAccessorTT gives the table its accessor; the reader reads its one page before the work
    loop, keeps it (the compute kernel does not need it: no push) and indexes the copy by word; a page
    number is known at run time only, so tiles past K's end are zero-filled."""
    reader = lower(page_table_gather, "LowerCBIntrinsics")["gemm_reader"]
    (table,) = [a for a in reader.attrs["tt.accessor_args"] if a.tensor == "Pages"]
    assert (table.page_layout, table.page_size) == ("table", 24)
    externs = extern_calls(reader)
    first_read = externs.index("noc_async_read")
    assert externs[first_read + 1 : first_read + 3] == ["noc_async_read_barrier", "cb_reserve_back"]
    binds = []
    tvm_ffi.structural_walk(reader.body, (tirx.Bind, binds.append))
    pointer = [b.var for b in binds if isinstance(b.var.ty, tvm.ir.PointerType)]
    assert "Pages_words" in [str(v.name) for v in pointer], pointer  # (k_zeros: the zero fill past K's end)
    loads = []
    tvm_ffi.structural_walk(reader.body, (tvm.ir.TensorLoad, lambda t: loads.append(str(t.source.name))))
    assert loads and set(loads) == {"Pages_words"}, loads


def test_a_row_vector_read_as_a_broadcast_is_fetched_one_row_per_tile():
    """gamma (bf16) and shift (fp32), row vectors only broadcast down rows: each tile's first row alone,
    its 16 values in each upper face (bf16: 32 bytes at bytes 0 and 512 of the page; fp32: 64 bytes at 0
    and 1024); X's tiles whole. gamma, the same for every block, is read before the work loop."""
    reader = lower(affine_blocks, "LowerCBIntrinsics")["gemm_reader"]
    runs = []

    def note(e):
        if ops.is_extern(e) and e.value.args[0].value == "noc_async_read":
            _, source, destination, size = e.value.args
            runs.append((str(source.args[2].name), int(source.args[3]), int(size)))

    tvm_ffi.structural_walk(reader.body, (tirx.Evaluate, note))
    assert runs == [("gamma", 0, 32), ("gamma", 512, 32), ("shift", 0, 64), ("shift", 1024, 64)], runs
    externs = extern_calls(reader)
    assert externs.count("noc_async_read_tile") == 1, externs  # X's
    assert externs.index("noc_async_read") < externs.index("noc_async_read_tile"), externs


@T.macro
def reads_with_a_halo(bx, by):
    """The GEMM reader's k loop with A sharded 2 x 1 (a tile row a shard) and a halo of one tile row: A's
    buffer holds each shard widened to 3 tile rows. A tile in the core's window (its shard and one row on
    each side: rows a_halo_row0 .. a_halo_row0 + 2) is read there, from page a_halo_page0 on; any other
    from its owner's shard, row by * 3 + 1 of the 6 x 2 buffer."""
    cb_in0 = T.int32()
    cb_in1 = T.int32()
    a = T.int32()
    b = T.int32()
    a_halo_row0 = T.int32()
    a_halo_page0 = T.int32()
    b_tile_cols = T.int32()
    for k in T.serial(2, annotations={"tl.pipelined_stages": 2}):
        T.tt.comment("g.py:10: ")
        T.tt.comment("g.py:11: ")
        T.call_extern("void", "cb_reserve_back", cb_in0, 1)
        T.call_extern("void", "cb_reserve_back", cb_in1, 1)
        l1_write_addr_in0: T.let[T.int32] = T.call_extern("int32", "get_write_ptr", cb_in0)
        a_tile: T.let[T.int32] = T.Select(
            by - a_halo_row0 >= 0 and by - a_halo_row0 < 3,
            by * 2 + a_halo_page0 + k - a_halo_row0 * 2,
            by * 6 + k + 2,
        )
        T.call_extern("void", "noc_async_read_tile", a_tile, a, l1_write_addr_in0)
        l1_write_addr_in1: T.let[T.int32] = T.call_extern("int32", "get_write_ptr", cb_in1)
        b_tile: T.let[T.int32] = k * b_tile_cols + bx
        T.call_extern("void", "noc_async_read_tile", b_tile, b, l1_write_addr_in1)
        T.call_extern("void", "noc_async_read_barrier")
        T.call_extern("void", "cb_push_back", cb_in0, 1)
        T.call_extern("void", "cb_push_back", cb_in1, 1)


def test_a_tensor_with_halos_is_read_from_the_cores_own_window_when_it_holds_the_tile():
    a = replace(READER_ACCESSORS[0], shard_grid=[2, 1], shard_order="row_major", halo=[1, 0])
    attrs = kernel_attrs("reader", {"tt.accessor_args": [a, READER_ACCESSORS[1]]})
    assert_pass(
        LowerCBIntrinsics(),
        data_movement_kernel("reader", attrs, reads_by_accessor),
        data_movement_kernel("reader", attrs, reads_with_a_halo),
    )


@T.macro
def write_with_a_halo(bx, by):
    """C sharded 2 x 1 (a tile row a shard) with a halo of one tile row, 3 stored rows a shard: the tile
    goes to its owner's shard (row by * 3 + 1), and to the neighbour whose window holds it — shard 1's top
    halo row (stored row 3) for shard 0's tile, shard 0's bottom one (stored row 2) for shard 1's."""
    cb_out0 = T.int32()
    c = T.int32()
    T.tt.comment("g.py:13: ")
    T.call_extern("void", "cb_wait_front", cb_out0, 1)
    l1_read_addr_out0: T.let[T.int32] = T.call_extern("int32", "get_read_ptr", cb_out0)
    c_tile: T.let[T.int32] = by * 6 + bx + 2
    T.call_extern("void", "noc_async_write_tile", c_tile, c, l1_read_addr_out0)
    T.tt.comment("and into the halo of each neighbouring shard of C whose window holds the tile")
    if by < 1:
        c_tile_1: T.let[T.int32] = by * 6 + bx + 6
        T.call_extern("void", "noc_async_write_tile", c_tile_1, c, l1_read_addr_out0)
    if 1 <= by:  # noqa: SIM300 (the order the simplifier leaves)
        c_tile_2: T.let[T.int32] = by * 6 + bx - 2
        T.call_extern("void", "noc_async_write_tile", c_tile_2, c, l1_read_addr_out0)
    T.call_extern("void", "noc_async_write_barrier")
    T.call_extern("void", "cb_pop_front", cb_out0, 1)


def test_a_tensor_with_halos_is_written_to_its_owner_and_to_the_neighbours_halos():
    c = replace(WRITER_ACCESSORS[0], shard_grid=[2, 1], shard_order="row_major", halo=[1, 0])
    attrs = kernel_attrs("writer", {"tt.accessor_args": [c]})
    assert_pass(
        LowerCBIntrinsics(),
        data_movement_kernel("writer", attrs, write_by_accessor),
        data_movement_kernel("writer", attrs, write_with_a_halo),
    )


@pytest.mark.parametrize("channels, run_bytes", [(64, 128), (96, 64)])
def test_im2col_reads_a_row_at_once_where_the_block_lies_in_one_window_position(channels, run_bytes):
    """K steps of 32 are taken in groups (k_groups.py): with 64 channels, 2 steps make the block 64 wide,
    which divides C, so each row is one read of 64 channels (128 bytes); with 96 channels the window's 27
    steps do not group and a 32-wide row is one run of 32 channels (64 bytes) anyway, read the old way."""
    reader = lower(conv_3x3(channels), "LowerCBIntrinsics")["gemm_reader"]
    sizes = set()

    def note(e):
        if ops.is_extern(e) and e.value.args[0].value == "noc_async_read":
            sizes.add(int(e.value.args[3]))

    tvm_ffi.structural_walk(reader.body, (tirx.Evaluate, note))
    assert sizes == {run_bytes}, sizes


def _k_steps_named_first(named: bool):
    @TL.prim_func
    def main(
        A: TL.Tensor((256, 256), "bfloat16"),
        B: TL.Tensor((256, 256), "bfloat16"),
        C: TL.Tensor((256, 256), "float32"),
    ):
        with TL.Kernel(2, 2) as (bx, by):
            A_s = TL.alloc_shared((128, 32), "bfloat16")
            B_s = TL.alloc_shared((32, 128), "bfloat16")
            C_l = TL.alloc_fragment((128, 128), "float32")
            TL.clear(C_l)
            steps = TL.ceildiv(256, 32) if named else 8
            for k in TL.Pipelined(steps):
                TL.copy(A[by * 128, k * 32], A_s)
                TL.copy(B[k * 32, bx * 128], B_s)
                TL.gemm(A_s, B_s, C_l)
            TL.copy(C_l, C[by * 128, bx * 128])

    return main


def test_a_k_loop_whose_trip_count_is_named_first_still_multicasts():
    """``steps = TL.ceildiv(K, bK); for k in TL.Pipelined(steps)`` (attention's ``loop_range``) is as many
    steps on every core as a constant bound: the 2x2 cores stepping in lockstep multicast A along their rows
    and B down their columns either way."""
    for named in (False, True):
        reader = lower(_k_steps_named_first(named), "LowerCBIntrinsics", partition_strategy="block")[
            "gemm_reader"
        ]
        calls = extern_calls(reader)
        assert calls.count("noc_async_write_multicast") == 2, (named, calls)
