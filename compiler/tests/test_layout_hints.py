"""annotate_tt_layout (the original Tenstorrent fork's layout annotation): function and decorator forms,
the fork's attribute name, and what the compiler does with each hint — executes it (DRAM or L1
interleaved: run against numpy) or names it in a located error."""

import ml_dtypes
import numpy as np
import pytest
import tilelang_tt
from programs import attr, gemm, lower
from tilelang_tt.errors import TTCompileError


def test_annotate_as_a_function_and_as_a_decorator_write_the_same_hints():
    layout = {"A": {"memory": "L1", "layout": "interleaved"}}
    by_call = tilelang_tt.annotate_tt_layout(gemm(), layout)
    by_decorator = tilelang_tt.annotate_tt_layout(layout)(gemm())
    for func in (by_call, by_decorator):
        assert attr(lower(func, "InferTTLayout"), "tt.layout_desc")["A"].memory == "L1"


def test_annotations_merge_over_the_hints_a_function_has():
    func = tilelang_tt.annotate_tt_layout(gemm(), {"A": {"memory": "L1"}})
    func = tilelang_tt.annotate_tt_layout(func, {"A": {"layout": "interleaved"}, "B": {"memory": "L1"}})
    desc = attr(lower(func, "InferTTLayout"), "tt.layout_desc")
    assert (desc["A"].memory, desc["A"].layout, desc["B"].memory) == ("L1", "interleaved", "L1")


def test_the_forks_attribute_name_is_read_too():
    func = gemm().with_attr("tt.user_layout", {"B": {"memory": "L1"}})
    assert attr(lower(func, "InferTTLayout"), "tt.layout_desc")["B"].memory == "L1"


@pytest.mark.parametrize(
    "hint, message",
    [
        (
            {"nd_shard": {"axes": ["M", "N"], "grid": [2, 4]}},
            "sets 'nd_shard': ND shard grids are not supported",
        ),
        ({"halo": [1, 1]}, "sets 'halo': halos between shards are not supported"),
    ],
)
def test_shard_hints_are_named_as_not_supported_yet(hint, message):
    with pytest.raises(TTCompileError, match=message):
        lower(tilelang_tt.annotate_tt_layout(gemm(), {"A": hint}), "InferTTLayout")


def test_annotate_refuses_what_is_not_a_prim_func_or_a_layout():
    with pytest.raises(TypeError, match="takes a T.prim_func"):
        tilelang_tt.annotate_tt_layout(lambda: None, {"A": {}})
    with pytest.raises(TypeError, match="takes {tensor name: {hint: value}}"):
        tilelang_tt.annotate_tt_layout(gemm(), {"A": "L1"})


@pytest.mark.parametrize("target", ["wormhole", "blackhole"])
def test_a_gemm_with_its_inputs_interleaved_in_l1_runs(target):
    func = tilelang_tt.annotate_tt_layout(
        gemm(M=128, N=128, K=128), {"A": {"memory": "L1"}, "B": {"memory": "L1"}}
    )
    kernel = tilelang_tt.compile(func, out_idx=[-1], target=target)
    rng = np.random.default_rng(0)
    a, b = (rng.standard_normal((128, 128)).astype(ml_dtypes.bfloat16) for _ in range(2))
    expected = a.astype(np.float32) @ b.astype(np.float32)
    error = np.abs(kernel(a, b).astype(np.float32) - expected).max() / np.abs(expected).max()
    assert error < 1e-2, f"max relative error {error:.3g}"
    assert kernel.plan["layouts"]["A"]["memory"] == "L1", kernel.plan["layouts"]["A"]
