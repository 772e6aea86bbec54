"""FinalizePersistentSignatureTT: runtime-argument schemas, per-core values, work decoding."""

import pytest
import tilelang_tt
import tilelang_tt.language as T
import tvm
import tvm_ffi
from before_after import assert_pass
from gemm_kernels import final_kernels, lowered_kernels
from programs import attr, box_stencil, gemm, lower
from tilelang_tt.errors import TTResourceError
from tilelang_tt.passes import FinalizePersistentSignatureTT
from tilelang_tt.records import replace
from tilelang_tt.sharding import shard_cores
from tilelang_tt.target import get_target
from tvm import tirx


def test_reader_schema():
    """Addresses, then the sizes of the problem (grid width, the k loop's trip count, A's and B's tile
    columns), then the work range."""
    args = attr(lower(gemm(), "FinalizePersistentSignatureTT"), "tt.runtime_args", "gemm_reader")
    assert [(a.name, a.kind, a.value) for a in args] == [
        ("a_addr", "addr", 0),
        ("b_addr", "addr", 0),
        ("grid_x", "shape", 2),
        ("k_count", "shape", 4),
        ("a_tile_cols", "shape", 4),
        ("b_tile_cols", "shape", 4),
        ("block_start", "work_start", 0),
        ("num_blocks", "work_count", 0),
    ]


def test_compute_gets_its_loop_count_and_block_count():
    args = attr(lower(gemm(), "FinalizePersistentSignatureTT"), "tt.runtime_args", "gemm_compute")
    assert [a.name for a in args] == ["k_count", "num_blocks"]


def test_kernels_are_the_same_text_for_every_shape():
    """Two shapes of one program structure (same blocks, both aligned, more than one K group): the three
    kernels are the same IR, only their size arguments differ (the compiled kernels are reused)."""
    small, large = (
        lower(gemm(M=m, N=n, K=k), "FinalizePersistentSignatureTT")
        for m, n, k in ((64, 128, 128), (192, 256, 320))
    )
    for kernel in ("gemm_reader", "gemm_compute", "gemm_writer"):
        assert _body(small[kernel]) == _body(large[kernel]), f"{kernel} differs between the shapes"
    sizes = [
        {a.name: a.value for a in attr(m, "tt.runtime_args", "gemm_reader") if a.kind == "shape"}
        for m in (small, large)
    ]
    assert sizes == [
        {"grid_x": 2, "k_count": 4, "a_tile_cols": 4, "b_tile_cols": 4},
        {"grid_x": 4, "k_count": 10, "a_tile_cols": 10, "b_tile_cols": 8},
    ]


def _body(func) -> str:
    """``func`` as TVMScript without its attributes (which hold the shape's tables)."""
    return "\n".join(line for line in func.script().splitlines() if "T.func_attr(" not in line)


def test_block_partition_gives_each_core_its_rectangle():
    """4 x 4 blocks on 2 x 2 cores' worth of rectangles: core (1, 0) walks block rows 0..1 of columns 2..3."""
    mod = lower(
        gemm(M=128, N=512, bM=32, bN=128), "FinalizePersistentSignatureTT", partition_strategy="block"
    )
    schema = [a.name for a in attr(mod, "tt.runtime_args", "gemm_writer")]
    assert schema == ["c_addr", "c_tile_cols", "block_row0", "block_col0", "block_cols", "num_blocks"]
    values = {tuple(c.core): c.values for c in attr(mod, "tt.core_runtime_args", "gemm_writer")}
    assert values[(1, 0)] == ["addr:C", 16, 0, 1, 1, 1]


def test_work_intrinsics_are_lowered():
    text = lower(gemm(M=64, N=256), "FinalizePersistentSignatureTT")["gemm_reader"].script()
    assert "work_block" not in text and "block_id % grid_x" in text


def test_column_major_decodes_rows_fastest():
    text = lower(gemm(M=128, N=128), "FinalizePersistentSignatureTT", partition_strategy="column_major")[
        "gemm_writer"
    ].script()
    assert "by: T.let[T.int32] = block_id % grid_y" in text


def test_too_many_runtime_args_is_a_resource_error():
    """A chip that takes fewer runtime arguments than a kernel needs: the reader's 6 words (two addresses,
    its rectangle of blocks, their count) do not fit in 4."""
    mod = lower(gemm(M=256, N=256), "ConfigureTensorAccessorTT", partition_strategy="block")
    mod = tvm.IRModule(
        {
            gv: f.with_attr("tt.target", replace(f.attrs["tt.target"], max_runtime_args=4))
            for gv, f in mod.functions.items()
        }
    )
    with pytest.raises(
        TTResourceError, match=r"core \(0,0\) needs 6 runtime arguments for the reader kernel; the limit is 4"
    ):
        FinalizePersistentSignatureTT()(mod)


@T.prim_func
def batched_gemm(
    A: T.Tensor((3, 128, 64), "bfloat16"),
    B: T.Tensor((3, 64, 64), "bfloat16"),
    C: T.Tensor((3, 128, 64), "bfloat16"),
):
    with T.Kernel(1, 2, 3) as (bx, by, bz):
        A_s = T.alloc_shared((64, 64), "bfloat16")
        B_s = T.alloc_shared((64, 64), "bfloat16")
        C_f = T.alloc_fragment((64, 64), "float")
        T.clear(C_f)
        T.copy(A[bz, by * 64, 0], A_s)
        T.copy(B[bz, 0, 0], B_s)
        T.gemm(A_s, B_s, C_f)
        T.copy(C_f, C[bz, by * 64, 0])


@pytest.mark.parametrize("strategy", ["row_major", "column_major", "block"])
def test_a_3d_grid_decodes_every_block_once(strategy):
    """Each core's block ids, decoded by the kernel's own expressions, give every (bx, by, bz) once."""
    mod = lower(batched_gemm, "FinalizePersistentSignatureTT", partition_strategy=strategy)
    decoded = []
    schema = attr(mod, "tt.runtime_args", "gemm_writer")
    for core in attr(mod, "tt.core_runtime_args", "gemm_writer"):
        values = {a.name: v for a, v in zip(schema, core.values, strict=False)}
        for block in range(values["num_blocks"]):
            decoded.append(_grid_index(mod["gemm_writer"], values, block))
    assert sorted(decoded) == [(0, y, z) for y in range(2) for z in range(3)]


def _bound_values(func, args: dict, block: int) -> dict[str, int]:
    """The value of each Bind of ``func`` (in program order) for its ``block``-th work item, with the
    runtime arguments ``args``: the kernel's own expressions, evaluated."""
    analyzer = tvm.sym.Analyzer()
    known = {**args, "block": block}

    def value_of(var):
        number = known.get(var.name)
        return var if number is None or isinstance(number, str) else tirx.const(number, "int32")

    # The analyzer does not fold bit operations on constants; TIR's constructors do.
    refold = [
        (tirx.BitwiseAnd, lambda e: tirx.bitwise_and(e.a, e.b)),
        (tirx.BitwiseOr, lambda e: tirx.bitwise_or(e.a, e.b)),
        (tirx.RShift, lambda e: tirx.shift_right(e.a, e.b)),
    ]

    def visit(bind):
        if not isinstance(bind.var.ty, tvm.ir.PrimType):  # an L1 pointer (a zero fill), not a number
            return
        value = tvm_ffi.structural_map(bind.value, (tvm.ir.Var, value_of))
        value = analyzer.simplify(tvm_ffi.structural_map(value, refold, order="post"))
        if isinstance(value, tirx.IntImm):
            known[bind.var.name] = int(value)

    tvm_ffi.structural_walk(func.body, (tirx.Bind, visit))
    return known


def _grid_index(func, args: dict, block: int) -> tuple[int, ...]:
    """(bx, by, bz) that ``func``'s Bind statements give for its ``block``-th work item, with the runtime
    arguments ``args``."""
    known = _bound_values(func, args, block)
    return tuple(known.get(name, 0) for name in ("bx", "by", "bz"))


def test_z_order_decodes_the_curve_and_skips_what_lies_outside_the_grid():
    """12 x 12 blocks of 32 x 32 (the Z curve over a 16 x 16 square) on 64 cores: the kernels' own bit
    gathers give each core's positions; those with block_row or block_col past the grid are skipped, the
    rest are every block once. Compute takes the curve's start too: it skips the same positions."""
    mod = lower(
        gemm(M=384, N=384, K=32, bM=32, bN=32), "FinalizePersistentSignatureTT", partition_strategy="z_order"
    )
    assert attr(mod, "tt.work_encoding", "gemm_writer") == "range_z_order"
    schema = attr(mod, "tt.runtime_args", "gemm_writer")
    blocks = []
    for core in attr(mod, "tt.core_runtime_args", "gemm_writer"):
        values = {a.name: v for a, v in zip(schema, core.values, strict=False)}
        for position in range(values["num_blocks"]):
            known = _bound_values(mod["gemm_writer"], values, position)
            if known["block_row"] < 12 and known["block_col"] < 12:
                blocks.append((known["bx"], known["by"]))
    assert sorted(blocks) == [(x, y) for x in range(12) for y in range(12)]
    assert "block_start" in [a.name for a in attr(mod, "tt.runtime_args", "gemm_compute")]


def test_gemm_kernels_before_expected():
    """range_row_major: each kernel loops num_blocks times over block_id = block_start + block, split
    into bx = block_id % 2, by = block_id // 2 where it uses them; per-core values: tensor addresses,
    block b's start and a count of 1 (gemm_kernels.py)."""
    assert_pass(FinalizePersistentSignatureTT(), lowered_kernels(), final_kernels())


@T.prim_func
def causal_rows(A: T.Tensor((4096, 64), "bfloat16"), C: T.Tensor((4096, 64), "float32")):
    """Row block bx sums the row blocks 0..bx of A: a loop that grows with bx (causal attention's shape)."""
    with T.Kernel(128, 1) as (bx, by):
        piece = T.alloc_fragment((32, 64), "float")
        total = T.alloc_fragment((32, 64), "float")
        T.clear(total)
        for k in T.serial(bx + 1):
            T.copy(A[k * 32, 0], piece)
            for i, j in T.Parallel(32, 64):
                total[i, j] += piece[i, j]
        T.copy(total, C[bx * 32, 0])


def test_balanced_decodes_blocks_from_both_ends():
    """range_balanced on 128 row blocks over Wormhole's 64 cores: the kernels' own expressions give core 0
    blocks 0 and 127, core 1 blocks 1 and 126, ...: every core loops 129 times."""
    mod = lower(causal_rows, "FinalizePersistentSignatureTT", partition_strategy="auto")
    assert attr(mod, "tt.work_encoding", "gemm_writer") == "range_balanced"
    schema = attr(mod, "tt.runtime_args", "gemm_writer")
    blocks = []
    for core in attr(mod, "tt.core_runtime_args", "gemm_writer"):
        values = {a.name: v for a, v in zip(schema, core.values, strict=False)}
        blocks.append([_grid_index(mod["gemm_writer"], values, b)[0] for b in range(values["num_blocks"])])
    assert sorted(b for core in blocks for b in core) == list(range(128))
    assert {sum(b + 1 for b in core) for core in blocks} == {129}, blocks


def test_halo_windows_keep_every_read_of_a_stencil_in_the_cores_own_l1():
    """A 3-block stencil down A (8 x 2 tiles) height-sharded 4 ways with a halo of one tile row, C sharded
    alike and computed where its shards are: each reader gets its window (first row, first page), and the
    kernel's own page expression, evaluated for every block and every row the stencil reads, names a page
    of the core's own widened shard (4 rows of 2 tiles) holding exactly that tile."""
    sharded = {"memory": "L1", "layout": "sharded", "nd_shard": {"axes": [0], "grid": [4]}}
    func = tilelang_tt.annotate_tt_layout(
        box_stencil((256, 64), (1, 0)),
        {"A": {**sharded, "halo": [32, 0]}, "C": {**sharded, "tile_id_order": "match_shard"}},
    )
    mod = lower(func.with_attr("global_symbol", "gemm"), "FinalizePersistentSignatureTT")
    schema = attr(mod, "tt.runtime_args", "gemm_reader")
    assert [a.kind for a in schema if a.name.startswith("a_halo")] == ["halo_window", "halo_window"]
    shards = shard_cores([4, 1], "row_major", WORMHOLE_GRID)
    checked = 0
    for core in attr(mod, "tt.core_runtime_args", "gemm_reader"):
        # the kernel reads its words as int32 where a value can be negative (a window before the tensor)
        values = {
            a.name: _signed(v) if isinstance(v, int) else v for a, v in zip(schema, core.values, strict=True)
        }
        shard = shards.index(tuple(core.core))
        window = (values["a_halo_row0"], values["a_halo_page0"])
        assert window == (2 * shard - 1, 8 * shard), f"core {core.core}: window {window}"
        for block in range(values["num_blocks"]):
            grid_point = _bound_values(mod["gemm_reader"], values, block)
            bx, by = grid_point["bx"], grid_point["by"]
            for i in range(max(by - 1, 0), min(by + 2, 8)):
                known = _bound_values(mod["gemm_reader"], {**values, "i": i, "j": bx}, block)
                page = known["a_tile"]
                stored_row, stored_col = divmod(page, 2)
                assert stored_row // 4 == shard, f"core {core.core} reads tile row {i} from page {page}"
                assert (stored_row // 4 * 2 + stored_row % 4 - 1, stored_col) == (i, bx), f"page {page}"
                checked += 1
    assert checked == 44  # 8 x 2 blocks, each reading 3 block rows (2 in the first and last row)


WORMHOLE_GRID = get_target("wormhole").grid


def _signed(value: int) -> int:
    """A 32-bit word as the kernel's int32 arithmetic leaves it."""
    return (value + 2**31) % 2**32 - 2**31
