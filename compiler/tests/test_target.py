"""Device descriptions: real facts, one place."""

import pytest
from tilelang_tt.errors import TTCompileError
from tilelang_tt.target import TARGETS, get_target


def test_default_is_wormhole():
    assert get_target(None).name == "wormhole"


@pytest.mark.parametrize(
    "name,grid,banks,cbs",
    [("grayskull", (12, 9), 8, 32), ("wormhole", (8, 8), 12, 32), ("blackhole", (13, 10), 8, 64)],
)
def test_facts(name, grid, banks, cbs):
    t = TARGETS[name]
    assert (t.grid, t.dram_banks, t.num_circular_buffers) == (grid, banks, cbs)


def test_dst_capacity_halves_for_fp32_and_half_sync():
    t = get_target("wormhole")
    assert (t.dst_tiles(False, True), t.dst_tiles(False), t.dst_tiles(True)) == (16, 8, 4)


def test_l1_sizes():
    assert (get_target("wormhole").l1_bytes, get_target("blackhole").l1_bytes) == (1464 * 1024, 1536 * 1024)


def test_unknown_target():
    with pytest.raises(TTCompileError, match="unknown target 'tpu'"):
        get_target("tpu")
