"""ScheduleTileComputeTT: a tile program's compute kernel becomes compute-API calls (engines, DST, CBs)."""

import tilelang_tt.language as TL
import tvm
import tvm_ffi
from before_after import DEFAULT_OPTIONS, WORMHOLE, T, assert_pass
from gather_tiles import CB_TABLE as GATHER_CB_TABLE
from programs import cast_for_a_gemm, centred_rows, cut_to_integers, extern_calls, lower, rescaled_sums
from softmax_tiles import CB_TABLE, cb_entry
from tilelang_tt import ops
from tilelang_tt.passes import ScheduleTileComputeTT
from tilelang_tt.records import ComputeConfig
from tvm import tirx

COMPUTE_KERNEL = {
    "tt.kernel_role": "compute",
    "tt.compute_schedule": "tile_program",
    "tt.target": WORMHOLE,
    "tt.options": DEFAULT_OPTIONS,
    "tt.cb_table": CB_TABLE,
}
# what the pass adds: the CBs hold float32, so DST keeps fp32
SCHEDULED = {
    **COMPUTE_KERNEL,
    "tt.compute_config": ComputeConfig(
        math_fidelity="HiFi4", fp32_dest_acc_en=True, dst_full_sync_en=False, math_approx_mode=False
    ),
}


@T.prim_func(private=True)
def softmax_numerator_compute():
    T.func_attr(COMPUTE_KERNEL)
    for block in range(T.tt.work_count()):
        T.tt.tile.wait_input(0, "p.py:8:8")
        T.tt.tile.reduce(0, 24, "max", 1, 1, 26, -1, -1, T.float32("-inf"), "p.py:9:8")
        T.tt.tile.eltwise(
            25, T.exp(T.tt.tile.operand(0, "none") - T.tt.tile.operand(24, "col")), "p.py:10:20"
        )
        T.tt.tile.copy(25, 16, "p.py:12:8")


@T.prim_func(private=True, check_well_formed=False)  # cb_* are free: constants the kernel header declares
def softmax_numerator_scheduled():
    T.func_attr(SCHEDULED)
    cb_A_s = T.int32()
    cb_S_out = T.int32()
    cb_reduce_scaler = T.int32()
    cb_m = T.int32()
    cb_S = T.int32()
    T.tt.comment("Configure the unpacker, math engines and packer")
    T.call_extern("void", "compute_kernel_hw_startup", cb_A_s, cb_A_s, cb_S_out)
    T.tt.comment("The reduce scaler: a tile of ones, filled once")
    T.call_extern("void", "cb_reserve_back", cb_reduce_scaler, 1)
    T.call_extern("void", "tile_regs_acquire")
    T.call_extern("void", "fill_tile_init")
    T.call_extern("void", "fill_tile", 0, T.float32(1.0))
    T.call_extern("void", "tile_regs_commit")
    T.call_extern("void", "tile_regs_wait")
    T.call_extern("void", "pack_tile", 0, cb_reduce_scaler)
    T.call_extern("void", "tile_regs_release")
    T.call_extern("void", "cb_push_back", cb_reduce_scaler, 1)
    T.call_extern("void", "cb_wait_front", cb_reduce_scaler, 1)
    for block in range(T.tt.work_count()):
        # the input block A_s, where its T.copy was
        T.call_extern("void", "cb_wait_front", cb_A_s, 2)
        # m = rowmax(A_s): reduce both tiles of the row into one column tile
        T.tt.comment("p.py:9: ")
        T.call_extern("void", "cb_reserve_back", cb_m, 1)
        T.call_extern("void", "tile_regs_acquire")
        T.call_extern(
            "void", "reduce_init<PoolType::MAX, ReduceDim::REDUCE_ROW>", cb_A_s, cb_reduce_scaler, cb_m
        )
        for ct in range(2):
            T.call_extern(
                "void",
                "reduce_tile<PoolType::MAX, ReduceDim::REDUCE_ROW>",
                cb_A_s,
                cb_reduce_scaler,
                ct,
                0,
                0,
            )
        T.call_extern("void", "reduce_uninit")
        T.call_extern("void", "tile_regs_commit")
        T.call_extern("void", "tile_regs_wait")
        T.call_extern("void", "pack_tile", 0, cb_m)
        T.call_extern("void", "tile_regs_release")
        T.call_extern("void", "cb_push_back", cb_m, 1)
        T.call_extern("void", "cb_wait_front", cb_m, 1)
        # S = exp(A_s - m) on the SFPU (fp32): the tree needs 2 DST slots, so both output tiles (4 slots)
        # fit one acquire; m's tile is broadcast along the columns into the second slot
        T.tt.comment("p.py:10: ")
        T.call_extern("void", "cb_reserve_back", cb_S, 2)
        T.call_extern("void", "tile_regs_acquire")
        for tile in range(2):
            T.call_extern("void", "copy_init", cb_A_s)
            T.call_extern("void", "copy_tile", cb_A_s, tile, tile * 2)
            T.call_extern("void", "unary_bcast_init<BroadcastType::COL>", cb_m)
            T.call_extern("void", "unary_bcast<BroadcastType::COL>", cb_m, tile // 2, tile * 2 + 1)
            T.call_extern("void", "sub_binary_tile_init")
            T.call_extern("void", "sub_binary_tile", tile * 2, tile * 2 + 1, tile * 2)
            T.call_extern("void", "exp_tile_init")
            T.call_extern("void", "exp_tile", tile * 2)
        T.call_extern("void", "tile_regs_commit")
        T.call_extern("void", "tile_regs_wait")
        for tile in range(2):
            T.call_extern("void", "pack_tile", tile * 2, cb_S)
        T.call_extern("void", "tile_regs_release")
        T.call_extern("void", "cb_push_back", cb_S, 2)
        T.call_extern("void", "cb_wait_front", cb_S, 2)
        # S → S_out for the writer
        T.tt.comment("p.py:12: ")
        T.call_extern("void", "cb_reserve_back", cb_S_out, 2)
        T.call_extern("void", "tile_regs_acquire")
        for tile in range(2):
            T.call_extern("void", "copy_init", cb_S)
            T.call_extern("void", "copy_tile", cb_S, tile, tile)
        T.call_extern("void", "tile_regs_commit")
        T.call_extern("void", "tile_regs_wait")
        for tile in range(2):
            T.call_extern("void", "pack_tile", tile, cb_S_out)
        T.call_extern("void", "tile_regs_release")
        T.call_extern("void", "cb_push_back", cb_S_out, 2)
        # values that became live in this loop body die at its end
        T.call_extern("void", "cb_pop_front", cb_A_s, 2)
        T.call_extern("void", "cb_pop_front", cb_m, 1)
        T.call_extern("void", "cb_pop_front", cb_S, 2)


def test_softmax_numerator_compute_kernel():
    assert_pass(ScheduleTileComputeTT(), softmax_numerator_compute, softmax_numerator_scheduled)


GATHER_KERNEL = {**COMPUTE_KERNEL, "tt.cb_table": GATHER_CB_TABLE}
# bfloat16 CBs only: DST keeps 16-bit values
GATHER_SCHEDULED = {
    **GATHER_KERNEL,
    "tt.compute_config": ComputeConfig(
        math_fidelity="HiFi4", fp32_dest_acc_en=False, dst_full_sync_en=False, math_approx_mode=False
    ),
}


@T.prim_func(private=True)
def im2col_gather_compute():
    T.func_attr(GATHER_KERNEL)
    for block in range(T.tt.work_count()):
        T.tt.tile.tilize(0, 24, "p.py:7:8")
        T.tt.tile.copy(24, 16, "p.py:8:8")


@T.prim_func(private=True, check_well_formed=False)  # cb_* are free: constants the kernel header declares
def im2col_gather_scheduled():
    T.func_attr(GATHER_SCHEDULED)
    cb_cols_rows = T.int32()
    cb_cols_out = T.int32()
    cb_cols = T.int32()
    T.tt.comment("Configure the unpacker, math engines and packer")
    T.call_extern("void", "compute_kernel_hw_startup", cb_cols_rows, cb_cols_rows, cb_cols_out)
    for block in range(T.tt.work_count()):
        T.tt.comment("p.py:7: ")
        # the rows arrive one 32-row strip (one tile-sized page) at a time; each is tilized into the pages
        # reserved for it, behind nothing (cols holds no value yet), then the whole tile is waited for
        T.call_extern("void", "tilize_init", cb_cols_rows, 1, cb_cols)
        for strip in range(2):
            T.call_extern("void", "cb_wait_front", cb_cols_rows, 1)
            T.call_extern("void", "cb_reserve_back", cb_cols, 1)
            T.call_extern("void", "tilize_block", cb_cols_rows, 1, cb_cols)
            T.call_extern("void", "cb_push_back", cb_cols, 1)
            T.call_extern("void", "cb_pop_front", cb_cols_rows, 1)
        T.call_extern("void", "tilize_uninit", cb_cols_rows, cb_cols)
        T.call_extern("void", "cb_wait_front", cb_cols, 2)
        # the tile copied to the output CB: both tiles in one DST acquire
        T.tt.comment("p.py:8: ")
        T.call_extern("void", "cb_reserve_back", cb_cols_out, 2)
        T.call_extern("void", "tile_regs_acquire")
        for tile in range(2):
            T.call_extern("void", "copy_init", cb_cols)
            T.call_extern("void", "copy_tile", cb_cols, tile, tile)
        T.call_extern("void", "tile_regs_commit")
        T.call_extern("void", "tile_regs_wait")
        for tile in range(2):
            T.call_extern("void", "pack_tile", tile, cb_cols_out)
        T.call_extern("void", "tile_regs_release")
        T.call_extern("void", "cb_push_back", cb_cols_out, 2)
        # values that became live in this loop body die at its end
        T.call_extern("void", "cb_pop_front", cb_cols, 2)


def test_im2col_rows_are_tilized_strip_by_strip():
    assert_pass(ScheduleTileComputeTT(), im2col_gather_compute, im2col_gather_scheduled)


@TL.prim_func
def masked_k_steps(
    A: TL.Tensor((64, 128), "float16"),
    B: TL.Tensor((128, 64), "float16"),
    Mask: TL.Tensor((4,), "bool"),
    C: TL.Tensor((64, 64), "float16"),
):
    with TL.Kernel(1) as bx:
        A_s = TL.alloc_shared((64, 32), "float16")
        B_s = TL.alloc_shared((32, 64), "float16")
        C_f = TL.alloc_fragment((64, 64), "float32")
        TL.clear(C_f)
        for k in TL.serial(4):
            if Mask[k]:
                TL.copy(A[bx * 64, k * 32], A_s)
                TL.copy(B[k * 32, 0], B_s)
                TL.gemm(A_s, B_s, C_f)
        TL.copy(C_f, C[0, 0])


def test_tiles_loaded_in_one_branch_are_released_at_its_end():
    """A masked K step waits for its A and B tiles inside the branch and pops them before the branch ends,
    so a skipped step leaves the CBs as it found them; the accumulator, written in the branch but holding a
    value before it, stays."""
    compute = lower(masked_k_steps, "ScheduleTileComputeTT")["gemm_compute"]
    branches = []
    tvm_ffi.structural_walk(compute.body, (tvm.tirx.IfThenElse, branches.append))
    (branch,) = branches
    calls = [s.value for s in branch.then_case.seq if isinstance(s, tvm.tirx.Evaluate)]
    last = [(str(c.args[0].value), str(c.args[1].name)) for c in calls[-2:]]
    assert last == [("cb_pop_front", "cb_A_s"), ("cb_pop_front", "cb_B_s")], last
    assert branch.else_case is None


# A 32x32 product into S, first accumulating, then as the cleared form LowerTileProgramTT gives a T.gemm whose
# accumulator the statement before it zeroed (tt.tile.matmul_cleared)
GEMM_CBS = [
    cb_entry(0, "A_s", "input", "p.py:6:8", [1, 1], 2, dtype="bfloat16"),
    cb_entry(1, "B_s", "input", "p.py:7:8", [1, 1], 2, dtype="bfloat16"),
    cb_entry(24, "S", "intermediate", "p.py:8:8", [1, 1], 2),
    cb_entry(16, "S_out", "output", "p.py:11:8", [1, 1], 2),
]
GEMM_KERNEL = {**COMPUTE_KERNEL, "tt.cb_table": GEMM_CBS}
GEMM_SCHEDULED = {**GEMM_KERNEL, "tt.compute_config": SCHEDULED["tt.compute_config"]}


@T.prim_func(private=True)
def accumulating_and_cleared_products():
    T.func_attr(GEMM_KERNEL)
    for block in range(T.tt.work_count()):
        T.tt.tile.wait_input(0, "p.py:6:8")
        T.tt.tile.wait_input(1, "p.py:7:8")
        T.tt.tile.fill(24, T.float32(1.0), "p.py:8:8")
        T.tt.tile.matmul(0, 1, 24, 0, "p.py:9:8")
        T.tt.tile.matmul_cleared(0, 1, 24, 0, "p.py:10:8")
        T.tt.tile.copy(24, 16, "p.py:11:8")


@T.prim_func(private=True, check_well_formed=False)  # cb_* are free: constants the kernel header declares
def accumulating_and_cleared_products_scheduled():
    T.func_attr(GEMM_SCHEDULED)
    cb_A_s = T.int32()
    cb_B_s = T.int32()
    cb_S = T.int32()
    cb_S_out = T.int32()
    T.tt.comment("Configure the unpacker, math engines and packer")
    T.call_extern("void", "compute_kernel_hw_startup", cb_A_s, cb_B_s, cb_S_out)
    for block in range(T.tt.work_count()):
        T.call_extern("void", "cb_wait_front", cb_A_s, 1)
        T.call_extern("void", "cb_wait_front", cb_B_s, 1)
        T.tt.comment("p.py:8: ")
        T.call_extern("void", "cb_reserve_back", cb_S, 1)
        T.call_extern("void", "tile_regs_acquire")
        T.call_extern("void", "fill_tile_init")
        T.call_extern("void", "fill_tile", 0, T.float32(1.0))
        T.call_extern("void", "tile_regs_commit")
        T.call_extern("void", "tile_regs_wait")
        T.call_extern("void", "pack_tile", 0, cb_S)
        T.call_extern("void", "tile_regs_release")
        T.call_extern("void", "cb_push_back", cb_S, 1)
        T.call_extern("void", "cb_wait_front", cb_S, 1)
        # S += A_s·B_s: S's tile is copied into DST, the product accumulates onto it
        T.tt.comment("p.py:9: ")
        T.call_extern("void", "cb_reserve_back", cb_S, 1)
        T.call_extern("void", "tile_regs_acquire")
        T.call_extern("void", "copy_init", cb_S)
        T.call_extern("void", "copy_tile", cb_S, 0, 0)
        T.call_extern("void", "matmul_init", cb_A_s, cb_B_s, 0)
        for kt in range(1):
            T.call_extern("void", "matmul_tiles", cb_A_s, cb_B_s, kt, kt, 0)
        T.call_extern("void", "tile_regs_commit")
        T.call_extern("void", "tile_regs_wait")
        T.call_extern("void", "pack_tile", 0, cb_S)
        T.call_extern("void", "tile_regs_release")
        T.call_extern("void", "cb_pop_front", cb_S, 1)
        T.call_extern("void", "cb_push_back", cb_S, 1)
        T.call_extern("void", "cb_wait_front", cb_S, 1)
        # S = A_s·B_s: nothing copied in; S's old value is still popped behind the new one
        T.tt.comment("p.py:10: ")
        T.call_extern("void", "cb_reserve_back", cb_S, 1)
        T.call_extern("void", "tile_regs_acquire")
        T.call_extern("void", "matmul_init", cb_A_s, cb_B_s, 0)
        for kt in range(1):
            T.call_extern("void", "matmul_tiles", cb_A_s, cb_B_s, kt, kt, 0)
        T.call_extern("void", "tile_regs_commit")
        T.call_extern("void", "tile_regs_wait")
        T.call_extern("void", "pack_tile", 0, cb_S)
        T.call_extern("void", "tile_regs_release")
        T.call_extern("void", "cb_pop_front", cb_S, 1)
        T.call_extern("void", "cb_push_back", cb_S, 1)
        T.call_extern("void", "cb_wait_front", cb_S, 1)
        T.tt.comment("p.py:11: ")
        T.call_extern("void", "cb_reserve_back", cb_S_out, 1)
        T.call_extern("void", "tile_regs_acquire")
        T.call_extern("void", "copy_init", cb_S)
        T.call_extern("void", "copy_tile", cb_S, 0, 0)
        T.call_extern("void", "tile_regs_commit")
        T.call_extern("void", "tile_regs_wait")
        T.call_extern("void", "pack_tile", 0, cb_S_out)
        T.call_extern("void", "tile_regs_release")
        T.call_extern("void", "cb_push_back", cb_S_out, 1)
        T.call_extern("void", "cb_pop_front", cb_A_s, 1)
        T.call_extern("void", "cb_pop_front", cb_B_s, 1)
        T.call_extern("void", "cb_pop_front", cb_S, 1)


def test_a_cleared_product_does_not_copy_its_accumulator_in():
    assert_pass(
        ScheduleTileComputeTT(),
        accumulating_and_cleared_products,
        accumulating_and_cleared_products_scheduled,
    )


_READS = ("reduce_tile", "mul_tiles", "copy_tile")


def _calls_on(func, cb: str) -> list[tuple[str, list[str]]]:
    """(name, arguments as text) of each API call in ``func`` that names circular buffer ``cb``."""
    calls = []

    def note(e):
        if ops.is_extern(e):
            args = list(e.value.args[1:])
            if any(isinstance(a, tirx.Var) and a.name == cb for a in args):
                calls.append((e.value.args[0].value, [str(a) for a in args]))

    tvm_ffi.structural_walk(func.body, (tirx.Evaluate, note))
    return calls


def test_a_kept_buffer_is_read_at_the_block_of_each_step_and_released_after_the_later_loop():
    """x (4 tiles a block) is kept from the first loop over k for the second: step k waits for 4k + 4
    tiles and reads tiles 4k to 4k + 3, in both loops, on every engine that reads it (the reduction's
    unpacker, the FPU's product, the SFPU's copy), and all 16 are popped once, after the second loop."""
    compute = lower(centred_rows, "ScheduleTileComputeTT")["gemm_compute"]
    calls = _calls_on(compute, "cb_x")
    protocol = [(name, args[1]) for name, args in calls if name.startswith("cb_")]
    assert protocol == [("cb_wait_front", "k * 4 + 4"), ("cb_pop_front", "16")], protocol
    reads = [(name.split("<")[0], args) for name, args in calls if name.split("<")[0] in _READS]
    assert reads == [
        ("reduce_tile", ["cb_x", "cb_reduce_scaler", "k * 4 + ct", "0", "0"]),
        ("mul_tiles", ["cb_x", "cb_x", "k * 4 + tile", "k * 4 + tile", "tile"]),
        ("copy_tile", ["cb_x", "k * 4 + chunk * 2 + tile", "tile * 2"]),
    ], reads


def test_a_statement_a_gemm_then_adds_to_is_applied_as_the_gemm_loads_its_sums():
    """acc *= 0.5 before T.gemm(a, b, acc): each step's tile is copied into DST, halved there and the product
    added onto it; acc is packed once per step (by the GEMM), not also by the statement."""
    compute = lower(rescaled_sums, "ScheduleTileComputeTT")["gemm_compute"]
    calls = [(name, args) for name, args in _calls_on(compute, "cb_acc") if not name.startswith("cb_")]
    in_the_loop = [name for name, _ in calls][1:-2]  # between the clear's pack and the copy out
    assert in_the_loop == ["copy_init", "copy_tile", "pack_tile"], calls
    names = extern_calls(compute)
    step = names[names.index("matmul_init") - 4 : names.index("matmul_tiles") + 1]
    assert step == ["copy_init", "copy_tile", "binop_with_scalar_tile_init", "mul_unary_tile", "matmul_init",
                    "matmul_tiles"], names  # fmt: skip


def test_a_copy_of_a_statements_result_is_packed_by_the_statement():
    """T.copy(s, s_cast) after the exponentials that made s (a row sum of s in between): no pass of its own;
    the exponentials' statement packs every tile into s and s_cast."""
    compute = lower(cast_for_a_gemm, "ScheduleTileComputeTT")["gemm_compute"]
    casts = [name for name, _ in _calls_on(compute, "cb_s_cast") if not name.startswith("cb_")]
    assert casts == ["pack_tile", "matmul_init", "matmul_tiles"], casts
    names = extern_calls(compute)
    exp = names.index("exp2_tile")
    assert names[exp + 1 : exp + 5] == ["tile_regs_commit", "tile_regs_wait", "pack_tile", "pack_tile"], names


@TL.prim_func
def exponentials(A: TL.Tensor((32, 32), "float32"), B: TL.Tensor((32, 32), "float32")):
    with TL.Kernel(1) as bx:
        a = TL.alloc_fragment((32, 32), "float32")
        TL.copy(A[bx * 32, 0], a)
        for i, j in TL.Parallel(32, 32):
            a[i, j] = TL.exp(a[i, j]) + TL.exp2(a[i, j])
        TL.copy(a, B[bx * 32, 0])


def test_approximate_exp_takes_the_sdks_fast_exponential_for_exp_and_exp2():
    """With tt.options' approximate_exp, TL.exp is exp_tile<true> and TL.exp2 the same after a product by ln2;
    without it, the accurate exp_tile and exp2_tile."""
    exact = extern_calls(lower(exponentials, "ScheduleTileComputeTT")["gemm_compute"])
    assert "exp_tile" in exact and "exp2_tile" in exact and "exp_tile<true>" not in exact, exact
    marked = exponentials.with_attr("tl.tt.approximate_exp", True)
    fast = extern_calls(lower(marked, "ScheduleTileComputeTT")["gemm_compute"])
    assert fast.count("exp_tile<true>") == 2 and "exp2_tile" not in fast and "exp_tile" not in fast, fast
    assert fast[fast.index("exp_tile<true>", fast.index("exp_tile<true>") + 1) - 2] == "mul_unary_tile", fast


def test_integer_tiles_are_typecast_to_int32_words_just_before_the_writers_cb_takes_them():
    """ranks holds float32 tiles (the cut toward zero on the SFPU's trunc); the copy into Ranks' output CB
    turns each tile into Int32 words in DST, then packs it, and the compute kernel runs with a 32-bit DST."""
    compute = lower(cut_to_integers, "ScheduleTileComputeTT")["gemm_compute"]
    names = extern_calls(compute)
    cast = "typecast_tile<(uint32_t)DataFormat::Float32, (uint32_t)DataFormat::Int32>"
    assert names.count(cast) == 1 and "trunc_tile" in names, names
    assert names[names.index(cast) - 3 : names.index(cast) + 4] == [
        "copy_init", "copy_tile", f"typecast_tile_init<{cast.split('<', 1)[1]}", cast,
        "tile_regs_commit", "tile_regs_wait", "pack_tile",
    ], names  # fmt: skip
    assert compute.attrs["tt.compute_config"].fp32_dest_acc_en, "Int32 tiles need a 32-bit DST"
