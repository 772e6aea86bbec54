"""InferTTLayout: default descriptors, normalised hints, name validation."""

import pytest
import tilelang_tt.language as T
import tvm_ffi
from before_after import assert_pass
from gemm_stages import AFTER_INFER, DEFAULTS, LAYOUT_DESC, launched
from programs import attr, gemm, lower
from tilelang_tt.errors import TTCompileError
from tilelang_tt.ir_utils import substitute_buffers
from tilelang_tt.passes import InferTTLayout
from tilelang_tt.records import LayoutDesc
from tvm import tirx


def test_globals_default_to_dram_interleaved():
    mod = lower(gemm(), "InferTTLayout")
    assert attr(mod, "tt.layout_desc")["A"] == LayoutDesc(
        memory="DRAM", layout="interleaved", tile_id_order="row_major"
    )


def test_tile_buffers_live_in_l1_cbs():
    mod = lower(gemm(), "InferTTLayout")
    assert attr(mod, "tt.layout_desc")["A_s"] == LayoutDesc(
        memory="L1", layout="cb", tile_id_order="row_major"
    )


def test_hint_spellings_are_normalised():
    func = gemm().with_attr("tt.layout_hints", {"B": {"memory": "sram", "layout": "Interleaved"}})
    mod = lower(func, "InferTTLayout")
    assert (
        attr(mod, "tt.layout_desc")["B"].memory == "L1"
        and attr(mod, "tt.layout_desc")["B"].layout == "interleaved"
    )


def test_ddr_means_dram():
    func = gemm().with_attr("tt.layout_hints", {"A": {"memory": "DDR"}})
    assert attr(lower(func, "InferTTLayout"), "tt.layout_desc")["A"].memory == "DRAM"


def test_hint_with_an_unknown_key_is_rejected_at_the_function():
    func = gemm().with_attr("tt.layout_hints", {"A": {"colour": "blue"}})
    with pytest.raises(
        TTCompileError, match="tt.layout_hints for 'A' sets 'colour'; a layout hint sets"
    ) as err:
        lower(func, "InferTTLayout")
    assert err.value.lineno is not None, err.value


def test_hint_for_unknown_buffer_is_rejected():
    func = gemm().with_attr("tt.layout_hints", {"Z": {"memory": "DRAM"}})
    with pytest.raises(TTCompileError, match="names 'Z'"):
        lower(func, "InferTTLayout")


@T.prim_func
def reused_name(A: T.Tensor((64, 64), "bfloat16"), C: T.Tensor((64, 64), "bfloat16")):
    with T.Kernel(1, 1) as (bx, by):
        for _i in T.serial(1):
            S = T.alloc_shared((32, 32), "bfloat16")
            T.copy(A[0, 0], S)
        for _j in T.serial(1):
            S = T.alloc_shared((32, 32), "bfloat16")
            T.copy(S, C[0, 0])


def _allocations(func) -> list:
    found = []
    tvm_ffi.structural_walk(func.body, (tirx.AllocBuffer, lambda a: found.append(a.buffer)))
    return found


def test_buffer_names_must_be_unique():
    """The DSL numbers a name two scopes share (language._unique_buffer_names); IR built otherwise, with two
    buffers of one name, is refused at its function."""
    assert [str(b.name) for b in _allocations(reused_name)] == ["S", "S_1"]
    second = _allocations(reused_name)[1]
    again = tirx.decl_buffer(second.ty.shape, second.ty.dtype, "S", scope=second.ty.storage_scope)
    body = substitute_buffers(reused_name.body, {second: again})
    with pytest.raises(TTCompileError, match="S is used more than once") as err:
        lower(reused_name.with_body(body), "InferTTLayout")
    assert err.value.filename == __file__, err.value


def test_gemm_before_expected():
    """Before/Expected on the GEMM of gemm_stages.py: tensors default to DRAM, interleaved, row-major tile
    ids; tile buffers are L1 circular buffers."""
    assert_pass(InferTTLayout(), launched(DEFAULTS), launched(AFTER_INFER))


def test_the_forks_user_layout_before_expected():
    """Before/Expected: the original fork's ``tt.user_layout`` attribute (what its annotate_tt_layout writes)
    is read like ``tt.layout_hints``: A in L1, the rest at their defaults."""
    hints = {"tt.user_layout": {"A": {"memory": "l1"}}}
    in_l1 = LayoutDesc(memory="L1", layout="interleaved", tile_id_order="row_major")
    expected = {**hints, **DEFAULTS, "tt.layout_desc": {**LAYOUT_DESC, "A": in_l1}}
    assert_pass(InferTTLayout(), launched({**hints, **DEFAULTS}), launched(expected))


def test_an_nd_shard_hint_before_expected():
    """Before/Expected: A (M, K) sharded by nd_shard over both axes gets the shard grid over its tile view
    ([row shards, column shards]) and the order shards go to cores; the rest keep their defaults."""
    shard = {
        "memory": "L1",
        "layout": "sharded",
        "nd_shard": {"axes": [0, 1], "grid": [2, 4], "order": "col_major"},
    }
    hints = {"tt.layout_hints": {"A": shard}}
    sharded = LayoutDesc(
        memory="L1", layout="sharded", tile_id_order="row_major", shard_grid=[2, 4], shard_order="col_major"
    )
    expected = {**hints, **DEFAULTS, "tt.layout_desc": {**LAYOUT_DESC, "A": sharded}}
    assert_pass(InferTTLayout(), launched({**hints, **DEFAULTS}), launched(expected))


def test_a_halo_hint_before_expected():
    """Before/Expected: A sharded 2 x 1 with a halo of 32 rows records the halo in elements (whole tiles,
    along a split dimension, on a read-only tensor: AttachTensorAccessorTT checks)."""
    shard = {
        "memory": "L1",
        "layout": "sharded",
        "nd_shard": {"axes": [0], "grid": [2]},
        "halo": [32, 0],
    }
    hints = {"tt.layout_hints": {"A": shard}}
    sharded = LayoutDesc(
        memory="L1",
        layout="sharded",
        tile_id_order="row_major",
        shard_grid=[2, 1],
        shard_order="row_major",
        halo=[32, 0],
    )
    expected = {**hints, **DEFAULTS, "tt.layout_desc": {**LAYOUT_DESC, "A": sharded}}
    assert_pass(InferTTLayout(), launched({**hints, **DEFAULTS}), launched(expected))


@pytest.mark.parametrize("halo", [[32], "32, 0", [32.0, 0], [-32, 0]])
def test_a_malformed_halo_is_rejected_at_the_function(halo):
    func = gemm().with_attr("tt.layout_hints", {"A": {"halo": halo}})
    with pytest.raises(TTCompileError, match=r"the halo of A is .*; give \[rows, columns\]") as err:
        lower(func, "InferTTLayout")
    assert "programs.py" in str(err.value), err.value
