"""ReblockGemmForCoresTT: a plain GEMM whose block grid does not divide the cores gets one block per core."""

import pytest
import tilelang_tt.language as TL
from before_after import DEFAULT_OPTIONS, T, assert_pass
from programs import gemm, lower
from tilelang_tt.passes import ReblockGemmForCoresTT
from tilelang_tt.passes.reblock_gemm_for_cores_tt import reblocked_sizes
from tilelang_tt.records import Options
from tilelang_tt.target import get_target

BLACKHOLE = get_target("blackhole").as_record()
AUTO = Options(partition_strategy="auto", enable_double_buffer=True, enable_prefetch=True)


@T.prim_func(private=True)
def gemm_in_256_blocks(
    A: T.Buffer((4096, 4096), "bfloat16"),
    B: T.Buffer((4096, 4096), "bfloat16"),
    C: T.Buffer((4096, 4096), "bfloat16"),
):
    T.func_attr({"tt.target": BLACKHOLE, "tt.options": AUTO})
    # 16x16 blocks: no 13-wide core row divides 16
    bx = T.launch_thread("blockIdx.x", 16)
    by = T.launch_thread("blockIdx.y", 16)
    A_s = T.alloc_shared((256, 32), "bfloat16")
    B_s = T.alloc_shared((32, 256), "bfloat16")
    C_f = T.alloc_buffer((256, 256), scope="local.fragment")
    T.tl.fill(C_f[0:256, 0:256], T.float32(0.0), "g.py:5:8")
    for k in T.serial(128, annotations={"tl.pipelined_stages": 2}):
        T.tl.copy(A[by * 256 : by * 256 + 256, k * 32 : k * 32 + 32], A_s[0:256, 0:32], "g.py:7:12")
        T.tl.copy(B[k * 32 : k * 32 + 32, bx * 256 : bx * 256 + 256], B_s[0:32, 0:256], "g.py:8:12")
        T.tl.gemm(A_s[0:256, 0:32], B_s[0:32, 0:256], C_f[0:256, 0:256], 0, 0, "g.py:9:12")
    T.tl.copy(C_f[0:256, 0:256], C[by * 256 : by * 256 + 256, bx * 256 : bx * 256 + 256], "g.py:10:8")


@T.prim_func(private=True)
def gemm_in_one_block_per_core(
    A: T.Buffer((4096, 4096), "bfloat16"),
    B: T.Buffer((4096, 4096), "bfloat16"),
    C: T.Buffer((4096, 4096), "bfloat16"),
):
    T.func_attr({"tt.target": BLACKHOLE, "tt.options": AUTO, "tt.reblocked": [256, 256, 416, 320]})
    # 128 tiles over 13 core columns: 10 each (the 13th has 8); over 10 core rows: 13 each (the 10th has 11)
    bx = T.launch_thread("blockIdx.x", 13)
    by = T.launch_thread("blockIdx.y", 10)
    A_s = T.alloc_shared((416, 32), "bfloat16")
    B_s = T.alloc_shared((32, 320), "bfloat16")
    C_f = T.alloc_buffer((416, 320), scope="local.fragment")
    T.tl.fill(C_f[0:416, 0:320], T.float32(0.0), "g.py:5:8")
    for k in T.serial(128, annotations={"tl.pipelined_stages": 2}):
        T.tl.copy(A[by * 416 : by * 416 + 416, k * 32 : k * 32 + 32], A_s[0:416, 0:32], "g.py:7:12")
        T.tl.copy(B[k * 32 : k * 32 + 32, bx * 320 : bx * 320 + 320], B_s[0:32, 0:320], "g.py:8:12")
        T.tl.gemm(A_s[0:416, 0:32], B_s[0:32, 0:320], C_f[0:416, 0:320], 0, 0, "g.py:9:12")
    T.tl.copy(C_f[0:416, 0:320], C[by * 416 : by * 416 + 416, bx * 320 : bx * 320 + 320], "g.py:10:8")


def test_a_grid_the_cores_do_not_divide_becomes_one_block_per_core():
    reblocked = []
    assert_pass(ReblockGemmForCoresTT(reblocked=reblocked), gemm_in_256_blocks, gemm_in_one_block_per_core)
    assert reblocked == [""], "the pipeline's cue to retry without re-blocking should name the function"


def test_a_partition_the_user_chose_keeps_the_users_blocks():
    chosen = gemm_in_256_blocks.with_attr("tt.options", DEFAULT_OPTIONS)  # row_major
    assert_pass(ReblockGemmForCoresTT(), chosen, chosen)


def test_a_disabled_pass_keeps_the_users_blocks():
    assert_pass(ReblockGemmForCoresTT(enabled=False), gemm_in_256_blocks, gemm_in_256_blocks)


@TL.prim_func
def gemm_with_an_epilogue(
    A: TL.Tensor((4096, 256), "bfloat16"),
    B: TL.Tensor((256, 4096), "bfloat16"),
    C: TL.Tensor((4096, 4096), "bfloat16"),
):
    with TL.Kernel(16, 16) as (bx, by):
        A_s = TL.alloc_shared((256, 32), "bfloat16")
        B_s = TL.alloc_shared((32, 256), "bfloat16")
        C_f = TL.alloc_fragment((256, 256), "float")
        TL.clear(C_f)
        for k in TL.Pipelined(8, num_stages=2):
            TL.copy(A[by * 256, k * 32], A_s)
            TL.copy(B[k * 32, bx * 256], B_s)
            TL.gemm(A_s, B_s, C_f)
        for i, j in TL.Parallel(256, 256):
            C_f[i, j] = TL.max(C_f[i, j], 0)
        TL.copy(C_f, C[by * 256, bx * 256])


@pytest.mark.parametrize(
    "func, target, why",
    [
        (gemm(4096, 4096, 4096, 256, 256, 32), "wormhole", "16x16 blocks divide Wormhole's 8x8 cores"),
        (gemm(1024, 1024, 1024, 128, 128, 32), "blackhole", "one block per core would be 12 tiles"),
        (gemm_with_an_epilogue, "blackhole", "not a plain GEMM: an element-wise epilogue"),
    ],
)
def test_other_kernels_keep_their_blocks(func, target, why):
    before = lower(func, "ApplyTTDefaults", target_device=target, partition_strategy="auto")
    after = ReblockGemmForCoresTT()(before)
    assert "tt.reblocked" not in after["gemm"].attrs, f"re-blocked although {why}"


@pytest.mark.parametrize(
    "m, n, blocks, grid, expected",
    [
        (4096, 4096, (256, 256), (13, 10), (416, 320)),  # 16x16 blocks: 13 does not divide 16
        (2048, 2048, (256, 256), (13, 10), (224, 160)),  # 8x8 blocks step alike on half the cores: 35 tiles
        (4096, 4096, (256, 256), (8, 8), None),  # Wormhole: 16x16 on 8x8 divides
        (1024, 1024, (128, 128), (8, 8), None),  # one block per core already
        (2048, 2048, (256, 256), (8, 8), None),  # as above: re-blocking would not take a quarter off
        (1024, 1024, (128, 128), (13, 10), None),  # 12 tiles per core: below the multicast threshold
    ],
)
def test_reblocked_sizes(m, n, blocks, grid, expected):
    assert reblocked_sizes(m, n, *blocks, grid) == expected
