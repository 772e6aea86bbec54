"""PropagateTTLayout: validation with warning + fallback, and tile buffers tied to their tensors."""

import pytest
from before_after import assert_pass
from gemm_stages import AFTER_INFER, AFTER_PROPAGATE, launched
from programs import attr, gemm, lower
from tilelang_tt.passes import PropagateTTLayout


def test_tile_buffers_know_their_tensor():
    desc = attr(lower(gemm(), "PropagateTTLayout"), "tt.layout_desc")
    assert (desc["A_s"].peer, desc["B_s"].peer, desc["C_s"].peer) == ("A", "B", "C")


def test_sharded_falls_back_to_interleaved_with_a_warning():
    func = gemm().with_attr("tt.layout_hints", {"A": {"layout": "sharded"}})
    with pytest.warns(UserWarning, match="layout of A: layout 'sharded' is not implemented"):
        desc = attr(lower(func, "PropagateTTLayout"), "tt.layout_desc")
    assert desc["A"].layout == "interleaved"


def test_invalid_memory_falls_back_to_dram():
    func = gemm().with_attr("tt.layout_hints", {"C": {"memory": "HBM"}})
    with pytest.warns(UserWarning, match="invalid memory 'HBM'"):
        desc = attr(lower(func, "PropagateTTLayout"), "tt.layout_desc")
    assert desc["C"].memory == "DRAM"


def test_column_major_tile_order_falls_back():
    func = gemm().with_attr("tt.layout_hints", {"B": {"tile_id_order": "column_major"}})
    with pytest.warns(UserWarning, match="tile_id_order 'column_major' is not implemented"):
        desc = attr(lower(func, "PropagateTTLayout"), "tt.layout_desc")
    assert desc["B"].tile_id_order == "row_major"


def test_gemm_before_expected():
    """Before/Expected on the GEMM of gemm_stages.py: valid layouts stay; each tile buffer gets the tensor it
    is copied from or to as its peer."""
    assert_pass(PropagateTTLayout(), launched(AFTER_INFER), launched(AFTER_PROPAGATE))
