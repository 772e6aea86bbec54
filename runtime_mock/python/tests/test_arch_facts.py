"""runtime_mock.arch_facts: the architectures' data files, and the simulator's tables generated from them."""

import re

import pytest

import runtime_mock


@pytest.mark.parametrize("name", ["wormhole", "wormhole_b0", "blackhole"])
def test_simulator_tables_come_from_the_data_file(name):
    facts = runtime_mock.arch_facts(name)
    chip = facts["chip"]
    spec = runtime_mock.Device(name).spec
    assert spec.name == facts["name"]
    assert [spec.grid_x, spec.grid_y] == chip["grid"]
    assert spec.l1_bytes == chip["l1_bytes"]
    assert spec.l1_reserved_bytes == chip["l1_reserved_bytes"]
    assert spec.dram_banks == chip["dram_banks"]
    assert spec.dram_bank_bytes == chip["dram_bank_bytes"]
    assert spec.dram_alignment == chip["dram_alignment"]
    assert spec.l1_alignment == chip["l1_alignment"]
    assert spec.num_circular_buffers == chip["num_circular_buffers"]
    assert spec.dst_tiles_16bit == chip["dst_tiles_16bit_full_sync"]
    assert spec.clock_ghz == facts["clock_ghz"]


@pytest.mark.parametrize("name", ["wormhole_b0", "blackhole"])
def test_every_timing_constant_names_its_source(name):
    facts = runtime_mock.arch_facts(name)
    sources = facts["sources"]
    for section in ("compute", "overhead", "noc"):
        for key in facts[section]:
            assert f"{section}.{key}" in sources, f"{name}.json: {section}.{key} has no entry in 'sources'"
    assert "clock_ghz" in sources and "chip" in sources


def test_the_published_figures():
    wormhole, blackhole = runtime_mock.arch_facts("wormhole"), runtime_mock.arch_facts("blackhole")
    assert (wormhole["clock_ghz"], blackhole["clock_ghz"]) == (1.0, 1.35)
    matmul = wormhole["compute"]["fidelity_op_cycles_per_tile"]["matmul_tiles"]
    assert matmul == {"LoFi": 16, "HiFi2": 32, "HiFi3": 48, "HiFi4": 64}
    assert wormhole["chip"]["max_runtime_args"] == 341
    # tt-metal 0.81's first circular buffer on an n150 and a p150 (//tools/sdk_check)
    assert (wormhole["chip"]["l1_reserved_bytes"], blackhole["chip"]["l1_reserved_bytes"]) == (105824, 111744)


def test_a_copy_each_time():
    runtime_mock.arch_facts("wormhole")["chip"]["grid"][0] = 99
    assert runtime_mock.arch_facts("wormhole")["chip"]["grid"] == [8, 8]


def test_unknown_arch_names_the_choices():
    with pytest.raises(ValueError, match=r"unknown Tenstorrent arch 'quasar' \(expected one of: blackhole"):
        runtime_mock.arch_facts("quasar")


def test_grayskull_has_chip_facts_only():
    """A compile-only target: the compiler reads its chip, the simulator neither models nor times it."""
    grayskull = runtime_mock.arch_facts("grayskull")
    assert grayskull["simulated"] is False and grayskull["chip"]["grid"] == [12, 9]
    assert "compute" not in grayskull


@pytest.mark.parametrize("name", ["wormhole_b0", "blackhole"])
def test_every_compute_call_of_the_shim_has_a_cost(name):
    # The compute API names each tile operation it records by its SDK name (the `call` string literal);
    # the replay refuses a name without a cost, so every one must be in the data file.
    compute = runtime_mock.arch_facts(name)["compute"]
    costed = set(compute["op_cycles_per_tile"]) | set(compute["sfpu_op_class"])
    costed |= set(compute["fidelity_op_cycles_per_tile"])
    include = runtime_mock.config.shim_include_dir()
    # The release's headers (api/compute) and the former paths' (compute_kernel_api), which keep old names.
    headers = [
        include / "compute_kernel_api.h",
        *sorted((include / "api" / "compute").rglob("*.h")),
        *sorted((include / "compute_kernel_api").rglob("*.h")),
    ]
    calls = {
        call
        for header in headers
        for call in re.findall(r'"([a-z0-9_]+_(?:tiles?|block))"', header.read_text())
    }
    assert len(calls) > 40, calls
    assert not calls - costed, f"{name}.json gives no cost for {sorted(calls - costed)}"
