"""PropagateTTLayout: layouts the compiler executes pass, the others are located errors; tile buffers are
tied to their tensors."""

import pytest
from before_after import assert_pass
from gemm_stages import AFTER_INFER, AFTER_PROPAGATE, launched
from programs import attr, gemm, lower
from tilelang_tt.errors import TTCompileError
from tilelang_tt.passes import PropagateTTLayout


def test_tile_buffers_know_their_tensor():
    desc = attr(lower(gemm(), "PropagateTTLayout"), "tt.layout_desc")
    assert (desc["A_s"].peer, desc["B_s"].peer, desc["C_s"].peer) == ("A", "B", "C")


@pytest.mark.parametrize(
    "hint, message",
    [
        (
            {"A": {"layout": "sharded", "nd_shard": {"axes": [0], "grid": [2]}}},
            "the layout of A is sharded in DRAM; sharded tensors live in L1",
        ),
        ({"A": {"memory": "L1", "layout": "sharded"}}, "the layout of A is sharded without a shard grid"),
        (
            {"A": {"memory": "L1", "nd_shard": {"axes": [0], "grid": [2]}}},
            "the layout of A sets nd_shard but layout 'interleaved', not 'sharded'",
        ),
        ({"C": {"memory": "HBM"}}, "the layout of C sets memory 'HBM', which is not one: DRAM, L1"),
        (
            {"B": {"tile_id_order": "diagonal"}},
            "sets tile_id_order 'diagonal', which is not one: row_major, column_major, match_shard, z_order",
        ),
        (
            {"B": {"tile_id_order": "match_shard"}},
            "the layout of B sets tile_id_order 'match_shard' but layout 'interleaved'",
        ),
        ({"A": {"layout": "cb"}}, "sets layout 'cb', which is not one: interleaved, sharded"),
        ({"A": {"memory": "L1", "halo": [32, 0]}}, "the layout of A sets a halo but layout 'interleaved'"),
    ],
)
def test_a_layout_the_compiler_does_not_execute_is_a_located_error(hint, message):
    """No hint is silently replaced by a default: each is executed or named in an error at the function."""
    func = gemm().with_attr("tt.layout_hints", hint)
    with pytest.raises(TTCompileError, match=message) as err:
        lower(func, "PropagateTTLayout")
    assert "programs.py" in str(err.value), f"the error should point at the kernel's definition:\n{err.value}"


def test_l1_interleaved_is_kept():
    func = gemm().with_attr("tt.layout_hints", {"A": {"memory": "L1", "layout": "interleaved"}})
    desc = attr(lower(func, "PropagateTTLayout"), "tt.layout_desc")
    assert (desc["A"].memory, desc["A"].layout) == ("L1", "interleaved")


def test_a_sharded_tensor_in_l1_is_kept_with_its_shard_grid():
    hint = {
        "memory": "L1",
        "layout": "sharded",
        "nd_shard": {"axes": [0, 1], "grid": [2, 4], "order": "col_major"},
    }
    desc = attr(
        lower(gemm().with_attr("tt.layout_hints", {"A": hint}), "PropagateTTLayout"), "tt.layout_desc"
    )
    assert (desc["A"].layout, list(desc["A"].shard_grid), desc["A"].shard_order) == (
        "sharded",
        [2, 4],
        "col_major",
    )


def test_gemm_before_expected():
    """Before/Expected on the GEMM of gemm_stages.py: valid layouts stay; each tile buffer gets the tensor it
    is copied from or to as its peer."""
    assert_pass(PropagateTTLayout(), launched(AFTER_INFER), launched(AFTER_PROPAGATE))
