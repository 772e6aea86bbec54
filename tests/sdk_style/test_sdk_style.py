"""SDK-style host programs of this directory, run on the mock device and compared with numpy.

Each host program (a .cpp here) is built as C++17, like generated host code, with its shape as host
defines, and called through tilelang_tt_run with row-major bf16 tensors (uint16 bits).
"""

from __future__ import annotations

import math
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

import runtime_mock

HERE = Path(__file__).absolute().parent
KERNELS = HERE / "kernels"
BF16 = ml_dtypes.bfloat16


def run_host_program_outputs(
    name: str, defines: dict[str, int | str], inputs: list[np.ndarray], out_shapes: list[tuple[int, ...]]
) -> list[np.ndarray]:
    """Builds HERE/name.cpp with the defines, runs it on bf16 inputs, returns the outputs as float32."""
    so = runtime_mock.build_host_program(
        [HERE / f"{name}.cpp"], defines={k: str(v) for k, v in defines.items()}, std="c++17"
    )
    tensors = [np.ascontiguousarray(x.astype(BF16)).view(np.uint16) for x in inputs]
    outputs = [np.zeros(shape, np.uint16) for shape in out_shapes]
    runtime_mock.HostProgram(so).run(KERNELS, [*tensors, *outputs])
    return [out.view(BF16).astype(np.float32) for out in outputs]


def run_host_program(name: str, defines: dict[str, int], inputs: list[np.ndarray], out_shape) -> np.ndarray:
    """Builds HERE/name.cpp with the defines, runs it on bf16 inputs, returns the output as float32."""
    return run_host_program_outputs(name, defines, inputs, [out_shape])[0]


def bf16(x: np.ndarray) -> np.ndarray:
    """x rounded to bf16, as float32 (what the device sees as input)."""
    return x.astype(BF16).astype(np.float32)


def pcc(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.corrcoef(a.reshape(-1), b.reshape(-1))[0, 1])


@pytest.mark.parametrize("op, reference", [(0, np.add), (1, np.subtract), (2, np.multiply)])
def test_eltwise_binary(op, reference):
    rng = np.random.default_rng(op)
    a, b = (bf16(rng.uniform(-2, 2, (96, 320))) for _ in range(2))
    out = run_host_program("eltwise_binary", {"ROWS": 96, "COLS": 320, "ELTWISE_OP": op}, [a, b], (96, 320))
    np.testing.assert_allclose(out, reference(a, b), rtol=1e-2, atol=1e-2)


def bits(x: float) -> str:
    """The fp32 bit pattern of x as a C++ literal: how the SFPU functions take scalar parameters."""
    return hex(int(np.float32(x).view(np.uint32)))


def broadcast_in_tiles(a: np.ndarray, axis: int) -> np.ndarray:
    """a with row 0 (axis 0) or column 0 (axis 1) of every 32x32 tile broadcast over the tile."""
    tiles = a.reshape(a.shape[0] // 32, 32, a.shape[1] // 32, 32)
    first = tiles[:, :1] if axis == 0 else tiles[..., :1]
    return np.broadcast_to(first, tiles.shape).reshape(a.shape)


def gelu_tanh(x: np.ndarray) -> np.ndarray:
    return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x**3)))


def gelu_erf(x: np.ndarray) -> np.ndarray:
    erf = np.vectorize(math.erf)
    return 0.5 * x * (1 + erf(x / np.sqrt(2)))


# Each case: the inputs (as numpy makes them from a generator, bf16-rounded), then rows of
# (SFPU_OP_INIT, SFPU_OP, reference of the inputs, exact). The kernel loads input i into DST[i] and packs
# DST[0]; an exact row must match the bf16-rounded fp32 reference bit for bit, the others within 1%.
SFPU_CASES = {
    "unary": (
        lambda rng: [rng.uniform(-3, 3, (64, 256))],
        [
            ("exp_tile_init();", "exp_tile(0);", np.exp, False),
            ("exp2_tile_init();", "exp2_tile(0);", np.exp2, False),
            ("abs_tile_init();", "abs_tile(0);", np.abs, True),
            ("negative_tile_init();", "negative_tile(0);", np.negative, True),
            ("relu_tile_init();", "relu_tile(0);", lambda a: np.maximum(a, 0), True),
            ("tanh_tile_init();", "tanh_tile(0);", np.tanh, False),
            ("sigmoid_tile_init();", "sigmoid_tile(0);", lambda a: 1 / (1 + np.exp(-a)), False),
            ("gelu_tile_init<true>();", "gelu_tile<true>(0);", gelu_tanh, False),
            ("gelu_tile_init<false>();", "gelu_tile<false>(0);", gelu_erf, False),
            # The two GELU forms differ by less than bf16 resolves; their difference times 1024, taken in fp32
            # in DST, tells them apart.
            (
                "gelu_tile_init<true>(); gelu_tile_init<false>();"
                " sub_binary_tile_init(); binop_with_scalar_tile_init();",
                "copy_tile(tt::CBIndex::c_0, 0, 1); gelu_tile<true>(0); gelu_tile<false>(1);"
                f" sub_binary_tile(0, 1, 0); mul_unary_tile(0, {bits(1024.0)});",
                lambda a: (gelu_tanh(a) - gelu_erf(a)) * 1024,
                False,
            ),
            ("fill_tile_init();", "fill_tile(0, 1.75f);", lambda a: np.full_like(a, 1.75), True),
            ("binop_with_scalar_tile_init();", f"add_unary_tile(0, {bits(0.75)});", lambda a: a + 0.75, True),
            ("binop_with_scalar_tile_init();", f"sub_unary_tile(0, {bits(0.75)});", lambda a: a - 0.75, True),
            ("binop_with_scalar_tile_init();", f"mul_unary_tile(0, {bits(-1.5)});", lambda a: a * -1.5, True),
            ("binop_with_scalar_tile_init();", f"div_unary_tile(0, {bits(4.0)});", lambda a: a / 4, True),
            (
                "binop_with_scalar_tile_init();",
                f"rsub_unary_tile(0, {bits(0.75)});",
                lambda a: 0.75 - a,
                True,
            ),
            # DST holds fp32: x + 1000 - 1000 keeps x to fp32 precision (bf16 would leave multiples of 4).
            (
                "binop_with_scalar_tile_init();",
                f"add_unary_tile(0, {bits(1000.0)}); sub_unary_tile(0, {bits(1000.0)});",
                lambda a: (a + 1000) - 1000,
                True,
            ),
            (
                "unary_bcast_init<BroadcastType::COL>(tt::CBIndex::c_0, tt::CBIndex::c_16);",
                "unary_bcast<BroadcastType::COL>(tt::CBIndex::c_0, 0, 0);",
                lambda a: broadcast_in_tiles(a, 1),
                True,
            ),
            (
                "unary_bcast_init<BroadcastType::ROW>(tt::CBIndex::c_0, tt::CBIndex::c_16);",
                "unary_bcast<BroadcastType::ROW>(tt::CBIndex::c_0, 0, 0);",
                lambda a: broadcast_in_tiles(a, 0),
                True,
            ),
        ],
    ),
    "unary_positive": (
        lambda rng: [rng.uniform(0.25, 4, (64, 256))],
        [
            ("log_tile_init();", "log_tile(0);", np.log, False),
            ("sqrt_tile_init();", "sqrt_tile(0);", np.sqrt, False),
            ("rsqrt_tile_init();", "rsqrt_tile(0);", lambda a: 1 / np.sqrt(a), False),
            ("recip_tile_init();", "recip_tile(0);", np.reciprocal, False),
        ],
    ),
    "binary": (
        lambda rng: [
            rng.uniform(-3, 3, (64, 256)),
            rng.uniform(0.5, 3, (64, 256)) * rng.choice([-1, 1], (64, 256)),
        ],
        [
            ("add_binary_tile_init();", "add_binary_tile(0, 1, 0);", np.add, True),
            ("sub_binary_tile_init();", "sub_binary_tile(0, 1, 0);", np.subtract, True),
            ("mul_binary_tile_init();", "mul_binary_tile(0, 1, 0);", np.multiply, True),
            ("div_binary_tile_init();", "div_binary_tile(0, 1, 0);", np.divide, True),
            ("rsub_binary_tile_init();", "rsub_binary_tile(0, 1, 0);", lambda a, b: b - a, True),
            ("binary_max_tile_init();", "binary_max_tile(0, 1, 0);", np.maximum, True),
            ("binary_min_tile_init();", "binary_min_tile(0, 1, 0);", np.minimum, True),
            ("binary_max_tile_init();", "binary_max_tile(1, 0, 0, VectorMode::RC);", np.maximum, True),
        ],
    ),
    # Multiples of 0.5 in [-2, 2]: zeros and the compared scalar 0.5 occur.
    "comparisons": (
        lambda rng: [rng.integers(-4, 5, (64, 256)) / 2],
        [
            ("gtz_tile_init();", "gtz_tile(0);", lambda a: a > 0, True),
            ("gez_tile_init();", "gez_tile(0);", lambda a: a >= 0, True),
            ("ltz_tile_init();", "ltz_tile(0);", lambda a: a < 0, True),
            ("lez_tile_init();", "lez_tile(0);", lambda a: a <= 0, True),
            ("eqz_tile_init();", "eqz_tile(0);", lambda a: a == 0, True),
            ("nez_tile_init();", "nez_tile(0);", lambda a: a != 0, True),
            ("unary_gt_tile_init();", f"unary_gt_tile(0, {bits(0.5)});", lambda a: a > 0.5, True),
            ("unary_ge_tile_init();", f"unary_ge_tile(0, {bits(0.5)});", lambda a: a >= 0.5, True),
            ("unary_lt_tile_init();", f"unary_lt_tile(0, {bits(0.5)});", lambda a: a < 0.5, True),
            ("unary_le_tile_init();", f"unary_le_tile(0, {bits(0.5)});", lambda a: a <= 0.5, True),
            ("unary_eq_tile_init();", f"unary_eq_tile(0, {bits(0.5)});", lambda a: a == 0.5, True),
            ("unary_ne_tile_init();", f"unary_ne_tile(0, {bits(0.5)});", lambda a: a != 0.5, True),
        ],
    ),
    # The condition holds -1, 0 and 1: any nonzero value selects the second input.
    "where": (
        lambda rng: [
            rng.integers(-1, 2, (64, 256)),
            rng.uniform(-3, 3, (64, 256)),
            rng.uniform(-3, 3, (64, 256)),
        ],
        [
            ("where_tile_init();", "where_tile<DataFormat::Float16_b>(0, 1, 2, 0);", np.where, True),
            ("where_tile_init();", "where_tile<DataFormat::Float32>(0, 1, 2, 0);", np.where, True),
        ],
    ),
}


@pytest.mark.parametrize("case", sorted(SFPU_CASES))
def test_sfpu_eltwise(case):
    make_inputs, ops = SFPU_CASES[case]
    inputs = [bf16(x) for x in make_inputs(np.random.default_rng(len(case)))]
    rows, cols = inputs[0].shape
    defines = {
        "ROWS": rows,
        "COLS": cols,
        "NUM_INPUTS": len(inputs),
        # A C++ initializer list of {SFPU_OP_INIT, SFPU_OP} string pairs.
        "SFPU_OPS": "{" + ", ".join(f'{{"{init}", "{call}"}}' for init, call, _, _ in ops) + "}",
    }
    outputs = run_host_program_outputs("sfpu_eltwise", defines, inputs, [(rows, cols)] * len(ops))
    for (_, call, reference, exact), got in zip(ops, outputs, strict=True):
        want = reference(*inputs).astype(np.float32)
        if exact:
            np.testing.assert_array_equal(got, bf16(want), err_msg=call)
        else:
            np.testing.assert_allclose(got, want, rtol=1e-2, atol=1e-2, err_msg=call)


@pytest.mark.parametrize("reduce_max", [False, True], ids=["sum", "max"])
@pytest.mark.parametrize("along_rows", [True, False], ids=["rows", "cols"])
def test_reduce_tiles(reduce_max, along_rows):
    rows, cols = 96, 160
    # All-negative inputs for MAX: the running maximum must not start from DST's zeros.
    low, high = (-3.0, -0.5) if reduce_max else (-1.0, 1.0)
    a = bf16(np.random.default_rng(7).uniform(low, high, (rows, cols)))
    out_shape = (rows, 32) if along_rows else (32, cols)
    defines = {
        "ROWS": rows,
        "COLS": cols,
        "REDUCE_MAX": int(reduce_max),
        "REDUCE_ALONG_ROWS": int(along_rows),
    }
    out = run_host_program("reduce_tiles", defines, [a], out_shape)
    got = out[:, 0] if along_rows else out[0, :]
    axis = 1 if along_rows else 0
    if reduce_max:
        np.testing.assert_array_equal(got, a.max(axis=axis))
    else:
        np.testing.assert_allclose(got, a.sum(axis=axis), rtol=1e-2, atol=2e-2)


@pytest.mark.parametrize("out_of_order", [False, True], ids=["in_order", "out_of_order"])
def test_pack_tiles_of_a_block(out_of_order):
    rows, cols, block = 64, 256, 4
    a = bf16(np.random.default_rng(8).uniform(-2, 2, (rows, cols)))
    defines = {"ROWS": rows, "COLS": cols, "BLOCK": block, "OUT_OF_ORDER": int(out_of_order)}
    out = run_host_program("pack_tiles", defines, [a], (rows, cols))
    # A block is `block` consecutive tiles of one tile row; out of order reverses them within the block.
    tiles = a.reshape(rows, cols // (32 * block), block, 32)
    want = (tiles[:, :, ::-1] if out_of_order else tiles).reshape(rows, cols)
    np.testing.assert_array_equal(out, want)


def matmul_inputs(m: int, k: int, n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    return bf16(rng.uniform(-0.5, 0.5, (m, k))), bf16(rng.uniform(-0.5, 0.5, (k, n)))


@pytest.mark.parametrize("max_cores", [1, 0], ids=["single_core", "multi_core"])
def test_matmul_tiles(max_cores):
    m, k, n = 96, 128, 160
    a, b = matmul_inputs(m, k, n, max_cores)
    out = run_host_program(
        "matmul_tiles", {"SHAPE_M": m, "SHAPE_K": k, "SHAPE_N": n, "MAX_CORES": max_cores}, [a, b], (m, n)
    )
    np.testing.assert_allclose(out, a @ b, rtol=2e-2, atol=2e-2)


@pytest.mark.parametrize("program", ["matmul_block_reuse", "matmul_mcast"])
@pytest.mark.parametrize("m, k, n, in0_block_w", [(256, 256, 256, 2), (192, 128, 320, 4)])
def test_block_matmuls(program, m, k, n, in0_block_w):
    a, b = matmul_inputs(m, k, n, m + n)
    defines = {"SHAPE_M": m, "SHAPE_K": k, "SHAPE_N": n, "IN0_BLOCK_W": in0_block_w}
    out = run_host_program(program, defines, [a, b], (m, n))
    assert pcc(out, a @ b) > 0.999
    np.testing.assert_allclose(out, a @ b, rtol=2e-2, atol=3e-2)


def test_single_device_api_and_runtime_args_edited_in_place(capfd):
    program = runtime_mock.HostProgram(
        runtime_mock.build_host_program([HERE / "legacy_api.cpp"], std="c++17")
    )
    assert program.main([str(KERNELS)]) == 0, capfd.readouterr().out
    assert "legacy_api: pass" in capfd.readouterr().out


HEIGHT, WIDTH, BLOCK = 2, 3, 4  # TensorMemoryLayout


def expected_shard_tiles(layout, row_major, grid, tiles, shard) -> dict[tuple[int, int], int]:
    """(core slot y * grid_x + x, page of its shard) -> the tensor's tile it holds, as the SDK lays out a
    ShardSpecBuffer: shards to the grid's cores in orientation order; HEIGHT_SHARDED shard i is tiles
    i * shard size onwards, WIDTH_ and BLOCK_SHARDED shards tile the tensor row by row, a shard's tiles row
    by row in its core."""
    (gx, gy), (ty, tx), (sy, sx) = grid, tiles, shard
    cores = (
        [(x, y) for y in range(gy) for x in range(gx)]
        if row_major
        else [(x, y) for x in range(gx) for y in range(gy)]
    )
    held = {}
    for tile in range(ty * tx):
        if layout == HEIGHT:
            shard_index, page = divmod(tile, sy * sx)
        else:
            row, col = divmod(tile, tx)
            shard_index = (row // sy) * -(-tx // sx) + col // sx
            page = (row % sy) * sx + col % sx
        x, y = cores[shard_index]
        held[(y * gx + x, page)] = tile
    return held


def run_sharded_add(layout, row_major, grid, tiles, shard, **extra_defines):
    """sharded_add.cpp on a tensor whose tile t holds the value t (a) and 0.5 (b): (c, placement)."""
    (gx, gy), (ty, tx), (sy, sx) = grid, tiles, shard
    a = np.kron(np.arange(ty * tx, dtype=np.float32).reshape(ty, tx), np.ones((32, 32), np.float32))
    b = np.full_like(a, 0.5)
    defines = {"LAYOUT": layout, "ROWS_FIRST": int(row_major), "GRID_X": gx, "GRID_Y": gy, "TILES_Y": ty,
               "TILES_X": tx, "SHARD_Y": sy, "SHARD_X": sx}  # fmt: skip
    defines.update(extra_defines)
    c, placement = run_host_program_outputs(
        "sharded_add", defines, [a, b], [a.shape, (gx * gy * sy * sx * 32 * 32,)]
    )
    return a, b, c, placement.reshape(gx * gy, sy * sx, 32 * 32)


def test_block_shards_column_major_land_on_the_cores_the_sdk_puts_them():
    """4 x 4 tiles in 2 x 2 shards on 2 x 2 cores, taken column by column: core (0,1) (slot 2) holds the
    top right shard, tiles 2, 3, 6, 7."""
    *_, placement = run_sharded_add(BLOCK, False, (2, 2), (4, 4), (2, 2))
    held = placement[:, :, 0].astype(int).tolist()
    assert held == [[0, 1, 4, 5], [8, 9, 12, 13], [2, 3, 6, 7], [10, 11, 14, 15]], held


@pytest.mark.parametrize(
    "layout, row_major, grid, tiles, shard",
    [
        (HEIGHT, True, (4, 1), (4, 4), (1, 4)),
        (HEIGHT, True, (3, 1), (4, 2), (3, 1)),  # the last shard holds 2 tiles of 3
        (WIDTH, True, (1, 4), (4, 4), (4, 1)),
        (WIDTH, False, (2, 2), (2, 8), (2, 2)),
        (BLOCK, True, (2, 2), (4, 4), (2, 2)),
        (BLOCK, True, (2, 2), (3, 3), (2, 2)),  # partial shards at the right and bottom edges
        (BLOCK, False, (3, 2), (4, 6), (2, 2)),
    ],
    ids=["height", "height_partial", "width", "width_col_major", "block", "block_partial", "block_col_major"],
)
def test_sharded_buffers_and_globally_allocated_cbs(layout, row_major, grid, tiles, shard):
    """The host writes a and b shard by shard, compute adds them in CBs that are the shards themselves,
    the host reads c back; each core holds the tiles the SDK's layout gives it."""
    a, b, c, placement = run_sharded_add(layout, row_major, grid, tiles, shard)
    np.testing.assert_array_equal(c, a + b)
    for (slot, page), tile in expected_shard_tiles(layout, row_major, grid, tiles, shard).items():
        assert np.all(placement[slot, page] == tile), f"core slot {slot} page {page}: expected tile {tile}"


def test_a_globally_allocated_cb_larger_than_its_buffer_is_an_error():
    with pytest.raises(
        Exception, match=r"globally allocated in the sharded L1 buffer .* holds 8192 bytes on each core"
    ):
        run_sharded_add(BLOCK, True, (2, 2), (4, 4), (2, 2), CB_TILES=5)


def test_shards_that_need_more_cores_than_the_grid_has_are_an_error():
    with pytest.raises(
        Exception, match=r"BLOCK_SHARDED sharding of \[4, 4\] pages .* needs 4 cores; its grid .* has 2"
    ):
        run_sharded_add(BLOCK, True, (2, 1), (4, 4), (2, 2))


def run_sharded_accessor(layout, row_major, grid, tiles, shard, **extra_defines):
    """sharded_accessor.cpp on a tensor whose elements are all distinct: (a, mid, dst)."""
    (gx, gy), (ty, tx), (sy, sx) = grid, tiles, shard
    a = np.arange(ty * tx * 32 * 32, dtype=np.float32).reshape(ty * 32, tx * 32) % 251
    defines = {"LAYOUT": layout, "ROWS_FIRST": int(row_major), "GRID_X": gx, "GRID_Y": gy, "TILES_Y": ty,
               "TILES_X": tx, "SHARD_Y": sy, "SHARD_X": sx}  # fmt: skip
    defines.update(extra_defines)
    return (a, *run_host_program_outputs("sharded_accessor", defines, [a], [a.shape, a.shape]))


@pytest.mark.parametrize(
    "layout, row_major, grid, tiles, shard",
    [
        (HEIGHT, True, (2, 2), (8, 2), (2, 2)),
        (WIDTH, False, (3, 1), (2, 6), (2, 2)),
        (BLOCK, True, (2, 2), (4, 4), (2, 2)),
        (BLOCK, False, (2, 2), (3, 3), (2, 2)),  # partial shards at the edges, cores taken column by column
    ],
)
def test_tensor_accessors_address_every_page_of_a_sharded_buffer(layout, row_major, grid, tiles, shard):
    """Page p of a sharded buffer through a TensorAccessor is page p of the tensor: copied to DRAM and back
    into a second sharded buffer, both downloads equal the input (tiles/shard sizes and orders vary)."""
    a, mid, dst = run_sharded_accessor(layout, row_major, grid, tiles, shard)
    np.testing.assert_array_equal(mid, a, err_msg="sharded pages read through the accessor, in DRAM")
    np.testing.assert_array_equal(dst, a, err_msg="pages written back through the sharded accessor")


def test_a_page_past_a_sharded_tensor_is_an_error():
    with pytest.raises(Exception, match=r"page 16 is past the end of the sharded tensor, which has 16 pages"):
        run_sharded_accessor(BLOCK, True, (2, 2), (4, 4), (2, 2), COPY_PAGES=17)


def test_shards_read_without_a_wait_work_with_a_warning(capfd):
    """The SDK's vecadd_sharding reads its globally allocated CBs without cb_wait_front (the host filled
    them; silicon does not care): it works, and the mock says why it would hang or fail elsewhere."""
    a, b, c, _ = run_sharded_add(BLOCK, True, (2, 2), (4, 4), (2, 2), UNWAITED=1)
    np.testing.assert_array_equal(c, a + b)
    warnings = capfd.readouterr().err
    assert "cb_pop_front(0, 1) without cb_wait_front" in warnings and "globally allocated" in warnings, (
        warnings
    )
