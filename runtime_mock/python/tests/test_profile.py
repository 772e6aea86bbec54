"""The timing model: exact replay results for small programs, determinism, and the Chrome trace.

Expected cycle counts are derived here from the arch's data file with the rules of
runtime_mock/src/timing_model.hpp, so a change of a constant keeps these tests meaningful.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

import runtime_mock

KERNELS = Path(__file__).absolute().parent / "kernels"
PAGE = 2048
TENSOR_ACCESSOR_INTERLEAVED_DRAM = [2]


class Model:
    """The data file's constants, in the units the replay uses."""

    def __init__(self, arch: str) -> None:
        facts = runtime_mock.arch_facts(arch)
        overhead, noc = facts["overhead"], facts["noc"]
        self.launch = overhead["kernel_launch_cycles"]
        self.cb = overhead["cb_api_cycles"]
        self.issue = overhead["noc_issue_cycles"]
        self.semaphore = overhead["semaphore_api_cycles"]
        self.latency = noc["latency_cycles"]
        self.banks = facts["chip"]["dram_banks"]
        self.bank_rate = noc["dram_bandwidth_gb_s"] / facts["clock_ghz"] / self.banks
        self.noc = noc

    def cycles(self, size: int, rate: float) -> int:
        return math.ceil(size / rate)

    def dram_read(self, size: int) -> tuple[int, int]:
        """(port occupancy, bank occupancy) of one DRAM read."""
        return self.cycles(size, self.noc["dram_read_bytes_per_cycle"]), self.cycles(size, self.bank_rate)

    def multicast(self, size: int, destinations: int) -> int:
        per_destination = self.noc["multicast_per_destination_cycles"]
        return self.cycles(size, self.noc["multicast_bytes_per_cycle"]) + destinations * per_destination


def _profiled_run(device, program):
    with runtime_mock.profiling() as session:
        device.run(program)
    assert len(session.runs) == 1
    return session, session.runs[0]


def _cb_pipeline(device, pages):
    source = device.dram_buffer(np.arange(pages * PAGE // 2, dtype=np.uint16), page_size=PAGE)
    program = runtime_mock.Program()
    producer = program.add_kernel(
        KERNELS / "profile_producer.cpp", (0, 0), "riscv_0", compile_args=TENSOR_ACCESSOR_INTERLEAVED_DRAM
    )
    consumer = program.add_kernel(KERNELS / "profile_consumer.cpp", (0, 0), "riscv_1")
    program.add_circular_buffer((0, 0), index=0, data_format="Float16_b", page_size=PAGE, num_pages=2)
    program.set_runtime_args(producer, (0, 0), [source.address, pages, PAGE])
    program.set_runtime_args(consumer, (0, 0), [pages])
    return program, source


@pytest.mark.parametrize("arch", ["wormhole", "blackhole"])
def test_cb_producer_consumer(arch):
    model, device, pages = Model(arch), runtime_mock.Device(arch), 4
    program, _source = _cb_pipeline(device, pages)
    session, run = _profiled_run(device, program)
    # Per page the producer reserves, reads (its completion is the slower of port and bank, plus the
    # latency), waits on the barrier and pushes; the consumer is released by each push and pops.
    per_page = model.cb + max(model.dram_read(PAGE)) + model.latency + model.cb
    producer_end = model.launch + pages * per_page
    assert run.cycles == producer_end + model.cb
    brisc, ncrisc = run.cores[(0, 0)]["BRISC"], run.cores[(0, 0)]["NCRISC"]
    assert brisc.end_cycle == producer_end and ncrisc.end_cycle == producer_end + model.cb
    assert brisc.waits == {
        "noc_async_read_barrier": pages * (max(model.dram_read(PAGE)) + model.latency - model.issue)
    }
    consumer_busy = pages * 2 * model.cb
    assert ncrisc.busy_cycles == consumer_busy
    assert ncrisc.waits == {"cb_wait_front cb 0": run.cycles - model.launch - consumer_busy}
    assert run.dram_bytes_read == pages * PAGE and run.noc_bytes == pages * PAGE
    assert session.cycles == run.cycles and session.seconds == pytest.approx(
        run.cycles / (run.clock_ghz * 1e9)
    )


def _bank_readers(device, cores, reads):
    banks = device.spec.dram_banks
    source = device.dram_buffer(size=reads * banks * PAGE, page_size=PAGE)
    program = runtime_mock.Program()
    kernel = program.add_kernel(
        KERNELS / "profile_bank_reader.cpp", cores, "riscv_0", compile_args=TENSOR_ACCESSOR_INTERLEAVED_DRAM
    )
    program.add_circular_buffer(cores, index=0, data_format="Float16_b", page_size=PAGE, num_pages=1)
    for core in cores:
        program.set_runtime_args(kernel, core, [source.address, reads, PAGE, banks])
    return program, source


@pytest.mark.parametrize("arch", ["wormhole", "blackhole"])
def test_dram_bank_contention(arch):
    model, device, reads = Model(arch), runtime_mock.Device(arch), 8
    port, bank = model.dram_read(PAGE)
    program, _one = _bank_readers(device, [(0, 0)], reads)
    _session, alone = _profiled_run(device, program)
    # One reader: its NOC port paces the reads (one starts when the previous one leaves the port).
    assert port >= bank and port >= model.issue
    assert alone.cycles == model.launch + reads * port + model.latency
    twelve = [(i % 8, i // 8) for i in range(12)]
    program, _twelve = _bank_readers(device, twelve, reads)
    _session, shared = _profiled_run(device, program)
    # Twelve readers of one bank: the bank serialises all their reads, back to back from the first; each
    # reader's port, claimed on its own, is free long before (a read queued at the bank does not hold it).
    assert 12 * bank >= port and reads * port <= 12 * reads * bank
    assert shared.cycles == model.launch + 12 * reads * bank + model.latency
    assert shared.dram_bytes_read == 12 * reads * PAGE


def test_semaphore_hand_off():
    model, device = Model("wormhole"), runtime_mock.Device("wormhole")
    program = runtime_mock.Program()
    kernel = program.add_kernel(KERNELS / "profile_semaphore.cpp", [(0, 0), (1, 0)], "riscv_0")
    program.add_semaphore([(0, 0), (1, 0)], initial_value=0)
    waiter_noc = device.worker_noc_coord((0, 0))
    program.set_runtime_args(kernel, (0, 0), [0, 0, 0])
    program.set_runtime_args(kernel, (1, 0), [1, *waiter_noc])
    session, run = _profiled_run(device, program)
    arrival = model.launch + model.cycles(4, model.noc["one_to_one_bytes_per_cycle"]) + model.latency
    waiter = run.cores[(0, 0)]["BRISC"]
    assert waiter.waits == {"semaphore": arrival - model.launch - model.semaphore}
    assert waiter.end_cycle == arrival + model.semaphore == run.cycles
    trace = runtime_mock.profile.chrome_trace(session)
    flows = [e for e in trace["traceEvents"] if e["ph"] == "s"]
    assert len(flows) == 1


def test_multicast():
    model, device = Model("wormhole"), runtime_mock.Device("wormhole")
    cores = [(0, 0), (1, 0), (0, 1), (1, 1)]
    program = runtime_mock.Program()
    kernel = program.add_kernel(KERNELS / "profile_semaphore.cpp", cores, "riscv_0")
    program.add_semaphore(cores, initial_value=0)
    program.add_circular_buffer(cores, index=0, data_format="Float16_b", page_size=PAGE, num_pages=1)
    (x0, y0), (x1, y1) = device.worker_noc_coord((0, 0)), device.worker_noc_coord((1, 1))
    for core in cores:
        program.set_runtime_args(kernel, core, [2 if core == (0, 0) else 0, x0, y0, x1, y1, 3, PAGE])
    _session, run = _profiled_run(device, program)
    data_done = model.launch + model.multicast(PAGE, 3) + model.latency
    flag_sent = data_done + model.semaphore
    flag_done = flag_sent + model.multicast(4, 3) + model.latency
    assert run.cores[(0, 0)]["BRISC"].end_cycle == flag_done
    for receiver in cores[1:]:
        assert run.cores[receiver]["BRISC"].waits == {"semaphore": flag_done - model.launch - model.semaphore}
        assert run.cores[receiver]["BRISC"].end_cycle == flag_done + model.semaphore
    assert run.noc_bytes == 3 * (PAGE + 4)


def test_same_program_same_timing_and_profile_leaves_output_alone():
    device = runtime_mock.Device()
    program, source = _cb_pipeline(device, 6)
    _session, first = _profiled_run(device, program)
    _session, second = _profiled_run(device, program)
    assert first.cycles == second.cycles
    spans = [
        np.frombuffer(run._native.packed_spans(), dtype=runtime_mock.profile._SPAN_DTYPE)
        for run in (first, second)
    ]
    assert spans[0].tolist() == spans[1].tolist()

    data = np.random.default_rng(3).integers(0, 2**16, size=6 * PAGE // 2, dtype=np.uint16)
    outputs = []
    for profiled in (False, True):
        src = device.dram_buffer(data, page_size=PAGE)
        dst = device.dram_buffer(size=data.nbytes, page_size=PAGE)
        copy = runtime_mock.Program()
        kernel = copy.add_kernel(KERNELS / "dram_copy.cpp", (0, 0), "riscv_0", compile_args=[2, 2])
        copy.add_circular_buffer((0, 0), index=0, data_format="Float16_b", page_size=PAGE, num_pages=2)
        copy.set_runtime_args(kernel, (0, 0), [src.address, dst.address, 6, PAGE])
        if profiled:
            with runtime_mock.profiling():
                device.run(copy)
            assert device.last_run_profile().cycles > 0
        else:
            device.run(copy)
            assert device.last_run_profile() is None
        outputs.append(dst.read(np.uint16))
    np.testing.assert_array_equal(outputs[0], data)
    np.testing.assert_array_equal(outputs[1], data)


def test_chrome_trace_of_a_pipeline(tmp_path):
    device, pages = runtime_mock.Device(), 5
    program, _source = _cb_pipeline(device, pages)
    session, run = _profiled_run(device, program)
    path = tmp_path / "trace.json"
    runtime_mock.profile.write_chrome_trace(session, path)
    counts = runtime_mock.profile.check_chrome_trace(json.loads(path.read_text()))
    # BRISC, NCRISC, BRISC's NOC 0 port and the consumer's zone track; every push released a blocked wait.
    assert counts["tracks"] == 4
    assert counts["flows"] == pages
    names = run._native.names
    assert counts["spans"] == len(
        np.frombuffer(run._native.packed_spans(), dtype=runtime_mock.profile._SPAN_DTYPE)
    )
    assert "consume" in names and "read from DRAM" in names


def test_zones_are_spans_on_the_risc_zone_track():
    device, pages = runtime_mock.Device(), 3
    program, _source = _cb_pipeline(device, pages)
    session, _run = _profiled_run(device, program)
    events = runtime_mock.profile.chrome_trace(session)["traceEvents"]
    tracks = {(e["pid"], e["tid"]): e["args"]["name"] for e in events if e["name"] == "thread_name"}
    zones = [e for e in events if e["ph"] == "X" and e["name"] == "consume"]
    assert len(zones) == pages
    assert {tracks[(e["pid"], e["tid"])] for e in zones} == {"NCRISC zones"}


def test_summary_names_peak_and_bottleneck():
    device = runtime_mock.Device()
    program, _source = _cb_pipeline(device, 4)
    session, _run = _profiled_run(device, program)
    text = runtime_mock.profile.summary(session)
    assert "core (0,0): BRISC busy" in text and "NCRISC busy" in text, text
    assert "bottleneck:" in text and "TFLOPS" in text and "GB/s" in text, text
    assert runtime_mock.profile.summary(runtime_mock.ProfilingSession()) == "no device runs were profiled"


def test_peak_tflops_from_the_data_file():
    assert runtime_mock.profile.peak_tflops("wormhole") == pytest.approx(64 * 2 * 32**3 / 64 * 1e9 / 1e12)
    assert runtime_mock.profile.peak_tflops("wormhole", "LoFi") == pytest.approx(
        4 * runtime_mock.profile.peak_tflops("wormhole")
    )
    assert runtime_mock.profile.peak_tflops("blackhole") == pytest.approx(130 * 1024 * 1.35e9 / 1e12)
    with pytest.raises(ValueError, match="unknown math fidelity 'HiFi5'"):
        runtime_mock.profile.peak_tflops("wormhole", "HiFi5")


def test_nested_sessions_both_see_the_run():
    device = runtime_mock.Device()
    program, _source = _cb_pipeline(device, 2)
    with runtime_mock.profiling() as outer:
        device.run(program)
        with runtime_mock.profiling() as inner:
            device.run(program)
    assert len(outer.runs) == 2 and len(inner.runs) == 1
    assert inner.runs[0].cycles == outer.runs[1].cycles


def test_environment_variable_profiles_every_run(monkeypatch):
    device = runtime_mock.Device()
    program, _source = _cb_pipeline(device, 2)
    monkeypatch.setenv("RUNTIME_MOCK_PROFILE", "1")
    device.run(program)
    profiled = device.last_run_profile()
    monkeypatch.setenv("RUNTIME_MOCK_PROFILE", "0")
    device.run(program)
    assert profiled is not None and profiled.cycles > 0
    assert device.last_run_profile() is None


def _span(name, ts, dur, tid=0):
    return {"ph": "X", "name": name, "pid": 1, "tid": tid, "ts": ts, "dur": dur}


_NAMES = [
    {"ph": "M", "name": "thread_name", "pid": 1, "tid": 0, "args": {"name": "BRISC"}},
    {"ph": "M", "name": "thread_name", "pid": 1, "tid": 5, "args": {"name": "BRISC zones"}},
]


@pytest.mark.parametrize(
    "events, message",
    [
        ([_span("a", 0, 2), _span("b", 1, 2)], r"'a' and 'b' overlap on BRISC of core 1"),
        ([_span("outer", 0, 2, 5), _span("inner", 1, 2, 5)], r"zone 'inner' straddles the end of its parent"),
        (
            [{**_span("a", 0, 2), "tid": 3}],
            r"span 'a' is on track 3 of core 1, which no thread_name event names",
        ),
        (
            [_span("a", 0, 2), {"ph": "s", "id": 1, "pid": 1, "tid": 0, "ts": 1}],
            r"flow 1 has a start but no end",
        ),
        (
            [_span("a", 0, 2), {"ph": "f", "id": 2, "pid": 1, "tid": 0, "ts": 1}],
            r"flow 2 has an end but no start",
        ),
        ([*_NAMES, _span("a", 0, 1)], r"track 0 of core 1 is named twice"),
        (
            [
                _span("a", 0, 2),
                {"ph": "s", "id": 1, "pid": 1, "tid": 0, "ts": 1},
                {"ph": "f", "bp": "e", "id": 1, "pid": 1, "tid": 0, "ts": 5},
            ],
            r"flow 1's end at 5 us is inside no slice of BRISC of core 1",
        ),
    ],
)
def test_trace_checker_names_each_violation(events, message):
    with pytest.raises(ValueError, match=message):
        runtime_mock.profile.check_chrome_trace({"traceEvents": _NAMES + events})


def test_the_packer_works_beside_the_math_engine():
    """Half-sync DST: the packer (TRISC2) packs one half while the math engine fills the other, so a loop
    of fill-then-pack sections costs the math side's time plus the last section's packing, not the sum of
    both; the math engine waits only when both halves are still being packed."""
    device, sections, tiles = runtime_mock.Device("wormhole"), 6, 4
    facts = runtime_mock.arch_facts("wormhole")
    compute = facts["compute"]
    fill = compute["op_cycles_per_tile"][compute["sfpu_op_class"]["fill_tile"]]
    pack = compute["op_cycles_per_tile"]["pack_tile"]
    overhead = facts["overhead"]
    sync, cb = overhead["dst_sync_cycles"], overhead["cb_api_cycles"]
    assert fill * tiles >= pack * tiles + sync, "the packer keeps up with the math engine"
    program = runtime_mock.Program()
    kernel = program.add_kernel(KERNELS / "profile_pack_overlap.cpp", (0, 0), "compute")
    program.add_circular_buffer((0, 0), index=16, data_format="Float16_b", page_size=PAGE,
                                num_pages=sections * tiles)  # fmt: skip
    program.set_runtime_args(kernel, (0, 0), [sections, tiles])
    _session, run = _profiled_run(device, program)
    # math side per section: acquire, the fills, commit, the output CB's reserve and push
    math_section = sync + fill * tiles + sync + 2 * cb
    pack_section = sync + pack * tiles  # tile_regs_wait, then the packs
    launch = overhead["kernel_launch_cycles"]
    # the last section's packs start once its fills are committed and end the run
    assert run.cycles == launch + (sections - 1) * math_section + (2 * sync + fill * tiles) + pack_section
    assert run.cycles < launch + sections * (math_section + pack_section)
    assert run.cores[(0, 0)]["TRISC"].end_cycle == run.cycles
