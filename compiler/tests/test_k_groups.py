"""k_groups: a tile program's GEMM loop takes several K steps at a time; other loops are left alone."""

import pytest
import tilelang_tt.language as T
import tvm_ffi
from programs import conv_3x3
from tilelang_tt import ops
from tilelang_tt.ir_utils import find_ops
from tilelang_tt.k_groups import group_k_steps
from tvm import tirx


def _gemm_then_relu(transpose_b=False, extra=False, trip=8):
    """C = relu(A @ B) over 32-wide K steps (B given as (N, K) with ``transpose_b``); ``extra`` reads A_s in
    an element statement too."""
    K = 32 * trip
    b_shape = (64, K) if transpose_b else (K, 64)

    @T.prim_func
    def main(
        A: T.Tensor((64, K), "bfloat16"), B: T.Tensor(b_shape, "bfloat16"), C: T.Tensor((64, 64), "float32")
    ):
        with T.Kernel(1, 1) as (bx, by):
            A_s = T.alloc_shared((64, 32), "bfloat16")
            B_s = T.alloc_shared((64, 32) if transpose_b else (32, 64), "bfloat16")
            C_f = T.alloc_fragment((64, 64), "float32")
            T.clear(C_f)
            for k in T.Pipelined(trip, num_stages=2):
                T.copy(A[0, k * 32], A_s)
                if transpose_b:
                    T.copy(B[0, k * 32], B_s)
                else:
                    T.copy(B[k * 32, 0], B_s)
                T.gemm(A_s, B_s, C_f, transpose_B=transpose_b)
            if extra:
                for i, j in T.Parallel(64, 32):
                    C_f[i, j] += A_s[i, j]
            for i, j in T.Parallel(64, 64):
                C_f[i, j] = T.max(C_f[i, j], 0)
            T.copy(C_f, C[0, 0])

    return main


def _shapes(func) -> dict:
    found = {}
    for site in find_ops(func.body, ("tl.gemm",)):
        f = ops.fields(site.call)
        for operand in (f.a, f.b):
            found[str(operand.source.name)] = [int(x) for x in operand.source.ty.shape]
    return found


@pytest.mark.parametrize("transpose_b", [False, True])
def test_four_steps_become_one_with_four_times_the_k_block(transpose_b):
    grouped = group_k_steps(_gemm_then_relu(transpose_b), 4)
    (loop,) = [site.loops[-1] for site in find_ops(grouped.body, ("tl.gemm",))]
    assert int(loop.extent) == 2, "8 steps of 32 should be 2 steps of 128"
    assert _shapes(grouped) == {"A_s": [64, 128], "B_s": [64, 128] if transpose_b else [128, 64]}
    loads = [ops.fields(s.call).src for s in find_ops(loop, ("tl.copy",))]
    k_dims = [r.region[1] if r.source.name == "A" or transpose_b else r.region[0] for r in loads]
    assert [(str(r.min), int(r.extent)) for r in k_dims] == [("k * 128", 128), ("k * 128", 128)], k_dims
    allocs = []
    tvm_ffi.structural_walk(grouped.body, (tirx.AllocBuffer, lambda a: allocs.append(a.buffer)))
    assert {str(b.name): [int(x) for x in b.ty.shape] for b in allocs}["A_s"] == [64, 128]


@pytest.mark.parametrize(
    "program",
    [_gemm_then_relu(extra=True), _gemm_then_relu(trip=6)],
    ids=["an operand an element statement also reads", "6 steps, no multiple of 4"],
)
def test_loops_it_cannot_group_are_left_alone(program):
    assert group_k_steps(program, 4).same_as(program)


def test_a_convolutions_gather_groups_like_a_load():
    """T.im2col(data, data_s, by, k, ...) at step k of 2-wide groups gathers a 64-wide block: its window
    position is k times the block's width, so the same call covers both steps of the group."""
    grouped = group_k_steps(conv_3x3(64), 2)
    (gather,) = [site for site in find_ops(grouped.body, ("tl.im2col",))]
    assert int(gather.loops[-1].extent) == 9 and str(ops.fields(gather.call).c_step) == "k"
    assert _shapes(grouped) == {"data_s": [32, 64], "kernel_s": [64, 32]}
