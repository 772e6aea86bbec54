"""Multicast of shared reads: with partition="block" on a grid of blocks the cores divide evenly, one core
of each row reads the tiles its row shares (A of a GEMM) and multicasts them, one core of each column
likewise for B. The results must match numpy and be bit-identical to a partition without multicast (the
same tiles reach the same CB slots, only by another path)."""

import ml_dtypes
import numpy as np
import pytest
import tilelang_tt
from gemm_check import check
from programs import batched_gemm, gemm

BF16 = np.dtype(ml_dtypes.bfloat16)


def _reader(kernel) -> dict:
    return next(k for k in kernel.plan["kernels"] if k["role"] == "reader")


def _bits(a: np.ndarray) -> np.ndarray:
    return a.view(np.uint16 if a.dtype.itemsize == 2 else np.uint32)


@pytest.mark.parametrize(
    "program, target, prefetch, lockstep",
    [
        (dict(M=512, N=512, K=256, bM=64, bN=64, bK=32), "wormhole", True, (8, 8)),
        (dict(M=256, N=384, K=128, bM=64, bN=64, bK=64, trans_b=True), "blackhole", False, (6, 4)),
        (dict(M=256, N=64, K=96, bM=32, bN=64, bK=32, c_shared=False), "wormhole", True, (1, 8)),
    ],
    ids=["8x8_both_directions", "blackhole_trans_b_no_prefetch", "one_column_of_cores"],
)
def test_gemm_multicasts_and_matches_the_unicast_program(program, target, prefetch, lockstep):
    kernel = tilelang_tt.compile(
        gemm(**program), out_idx=[-1], partition="block", target=target, enable_prefetch=prefetch
    )
    cores_x, cores_y = lockstep
    assert kernel.plan["lockstep_grid"] == {"cores_x": cores_x, "cores_y": cores_y}
    expected = [d for d, cores in (("row", cores_x), ("col", cores_y)) if cores > 1]
    assert _reader(kernel)["multicast"] == expected, "A should travel along rows and B down columns"
    check(kernel, trans_b=program.get("trans_b", False), seed=3)

    unicast = tilelang_tt.compile(gemm(**program), out_idx=[-1], partition="row_major", target=target)
    assert _reader(unicast)["multicast"] == []
    rng = np.random.default_rng(4)
    a_p, b_p, _ = kernel.params
    a = rng.standard_normal(a_p["shape"]).astype(BF16)
    b = rng.standard_normal(b_p["shape"]).astype(BF16)
    assert np.array_equal(_bits(kernel(a, b)), _bits(unicast(a, b))), "multicast changed the result bits"


def test_a_read_that_depends_on_both_block_axes_stays_unicast():
    """Batched GEMM on a 3-D grid: A[bz, by, k] is shared along a row of cores (bz and by both select the
    block row), B[bz, k, bx] depends on the block row through bz, so each core reads its own."""
    kernel = tilelang_tt.compile(
        batched_gemm(4, 64, 128, 96, 32, 32, 32), out_idx=[-1], partition="block", target="wormhole"
    )
    assert kernel.plan["lockstep_grid"] == {"cores_x": 4, "cores_y": 8}
    assert _reader(kernel)["multicast"] == ["row"]
    rng = np.random.default_rng(7)
    a = rng.standard_normal((4, 64, 96)).astype(BF16)
    b = rng.standard_normal((4, 96, 128)).astype(BF16)
    got = kernel(a, b).astype(np.float32)
    ref = a.astype(np.float32) @ b.astype(np.float32)
    rel = float(np.abs(got - ref).max() / np.abs(ref).max())
    assert rel < 1e-2, f"max rel err {rel:.3e}"


def test_blocks_the_cores_do_not_divide_are_not_multicast():
    """10 block rows on 8 rows of cores: the cores would not step in lockstep, so each reads its own."""
    kernel = tilelang_tt.compile(gemm(M=320, N=96, K=64, bM=32, bN=32), out_idx=[-1], partition="block")
    assert kernel.plan["lockstep_grid"] is None and _reader(kernel)["multicast"] == []
    check(kernel)


def test_auto_multicasts_an_uneven_block_grid_in_blocks_made_for_the_cores():
    """14 x 14 blocks of 128 x 128 on Blackhole's 13 x 10 cores do not divide them: auto gives each core one
    192 x 160 block (12 x 10 of them, ReblockGemmForCoresTT), steps them in lockstep and multicasts; the
    result is bit-identical to the unicast one in the user's blocks."""
    program = dict(M=1792, N=1792, K=64, bM=128, bN=128, bK=32)
    kernel = tilelang_tt.compile(gemm(**program), out_idx=[-1], partition="auto", target="blackhole")
    assert kernel.plan["grid"]["block_shape"] == [192, 160], kernel.plan["grid"]
    assert kernel.plan["lockstep_grid"] == {"cores_x": 12, "cores_y": 10}
    assert _reader(kernel)["multicast"] == ["row", "col"]
    unicast = tilelang_tt.compile(gemm(**program), out_idx=[-1], partition="row_major", target="blackhole")
    rng = np.random.default_rng(5)
    a = rng.standard_normal((1792, 64)).astype(BF16)
    b = rng.standard_normal((64, 1792)).astype(BF16)
    got = kernel(a, b)
    assert np.array_equal(_bits(got), _bits(unicast(a, b))), "multicast changed the result bits"
    ref = a.astype(np.float32) @ b.astype(np.float32)
    rel = float(np.abs(got.astype(np.float32) - ref).max() / np.abs(ref).max())
    assert rel < 1e-2, f"max rel err {rel:.3e}"
