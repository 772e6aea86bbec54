"""The simulator's timing model, as seen from Python: profiling sessions, their summary and Chrome traces.

    with runtime_mock.profiling() as session:      # every Device.run on this thread, incl. host .so programs
        ...
    print(runtime_mock.profile.summary(session))
    runtime_mock.profile.write_chrome_trace(session, "trace.json")   # open in https://ui.perfetto.dev

A profiled run executes exactly as an unprofiled one (same output bytes); its kernels also record what
they do, and afterwards the device replays that record in modelled time (runtime_mock/src/timing_model.hpp,
constants from ``runtime_mock/arch/<arch>.json``). Cycles are device clock cycles; ``seconds`` divides by the
arch's clock. Runs in one session are sequential on the device, so a session's time is their sum.
"""

from __future__ import annotations

import contextlib
import json
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import _runtime_mock
from .architecture import arch_facts

RISCS = ("BRISC", "NCRISC", "TRISC")
FIDELITIES = ("LoFi", "HiFi2", "HiFi3", "HiFi4")
FLOPS_PER_MATMUL_TILE = 2 * 32 * 32 * 32

# Chrome-trace threads of a core, in TraceTrack order (runtime_mock/profile.hpp).
_TRACKS = (
    "BRISC",
    "NCRISC",
    "TRISC",
    "NOC0",
    "NOC1",
    "BRISC zones",
    "NCRISC zones",
    "TRISC zones",
    "TRISC pack",
)
_CATEGORIES = ("compute", "cb_wait", "noc_transfer", "noc_barrier", "semaphore", "zone", "api")
_SPAN_DTYPE = np.dtype(
    {
        "names": ["start", "duration", "name", "core", "track", "category"],
        "formats": ["<u8", "<u8", "<u4", "<u4", "u1", "u1"],
        "offsets": [0, 8, 16, 20, 24, 25],
        "itemsize": 32,
    }
)
_FLOW_DTYPE = np.dtype(
    {
        "names": ["from_cycle", "from_core", "from_track", "to_cycle", "to_core", "to_track"],
        "formats": ["<u8", "<u4", "u1", "<u8", "<u4", "u1"],
        "offsets": [0, 8, 12, 16, 24, 28],
        "itemsize": 32,
    }
)


@dataclass(frozen=True)
class RiscProfile:
    """One RISC of one core: cycles busy (compute, NOC issue, API overheads), when its kernel ended, and
    the cycles it waited by cause ("cb_wait_front cb 0", "noc_async_read_barrier", "semaphore", ...)."""

    busy_cycles: int
    end_cycle: int
    waits: dict[str, int]


class RunProfile:
    """The modelled timing of one Device.run."""

    def __init__(self, native: _runtime_mock.RunProfile) -> None:
        self._native = native
        self.arch: str = native.arch
        self.clock_ghz: float = native.clock_ghz
        self.cycles: int = native.cycles
        self.matmul_tiles: int = native.matmul_tiles
        self.dram_bytes_read: int = native.dram_bytes_read
        self.dram_bytes_written: int = native.dram_bytes_written
        self.noc_bytes: int = native.noc_bytes
        # Waits the replay could not end in modelled time and released (see timing_model.hpp).
        self.forced_waits: int = native.forced_waits
        self.cores: dict[tuple[int, int], dict[str, RiscProfile]] = {
            (core.core.x, core.core.y): {
                RISCS[i]: RiscProfile(risc.busy_cycles, risc.end_cycle, dict(risc.waits))
                for i, risc in enumerate(core.riscs)
                if risc.present
            }
            for core in native.cores
        }

    @property
    def seconds(self) -> float:
        return self.cycles / (self.clock_ghz * 1e9)

    @property
    def flops(self) -> int:
        return self.matmul_tiles * FLOPS_PER_MATMUL_TILE

    def __repr__(self) -> str:
        return f"RunProfile({self.arch}, {self.cycles} cycles, {len(self.cores)} cores)"


class ProfilingSession:
    """The runs profiled while the session was open, in order."""

    def __init__(self) -> None:
        self.runs: list[RunProfile] = []

    @property
    def cycles(self) -> int:
        return sum(run.cycles for run in self.runs)

    @property
    def seconds(self) -> float:
        return sum(run.seconds for run in self.runs)


@contextlib.contextmanager
def profiling() -> Iterator[ProfilingSession]:
    """Profiles every Device.run on this thread (including those inside host programs) until the block
    ends; the session's ``runs`` are filled in when it does."""
    session = ProfilingSession()
    native = _runtime_mock.ProfilingSession()
    try:
        yield session
    finally:
        native.close()
        session.runs = [RunProfile(run) for run in native.runs]


def peak_tflops(arch: str, fidelity: str = "HiFi4") -> float:
    """The chip's matmul peak from its data file: cores x 2*32^3 / cycles per tile x clock."""
    facts = arch_facts(arch)
    cycles = facts["compute"]["fidelity_op_cycles_per_tile"]["matmul_tiles"]
    if fidelity not in cycles:
        raise ValueError(f"unknown math fidelity {fidelity!r} (expected one of {', '.join(FIDELITIES)})")
    cores = facts["chip"]["grid"][0] * facts["chip"]["grid"][1]
    return cores * FLOPS_PER_MATMUL_TILE / cycles[fidelity] * facts["clock_ghz"] * 1e9 / 1e12


def peak_dram_gb_s(arch: str) -> float:
    """The chip's DRAM bandwidth the model uses (its data file's noc.dram_bandwidth_gb_s)."""
    return float(arch_facts(arch)["noc"]["dram_bandwidth_gb_s"])


def _totals(runs: list[RunProfile]) -> tuple[int, float, int, int]:
    flops = sum(run.flops for run in runs)
    seconds = sum(run.seconds for run in runs)
    dram = sum(run.dram_bytes_read + run.dram_bytes_written for run in runs)
    return flops, seconds, dram, sum(run.cycles for run in runs)


def _waits(run: RunProfile, riscs: tuple[str, ...]) -> dict[str, int]:
    """Wait cycles by cause, summed over the cores' `riscs`."""
    total: dict[str, int] = {}
    for cores in run.cores.values():
        for name in riscs:
            if name in cores:
                for cause, cycles in cores[name].waits.items():
                    total[cause] = total.get(cause, 0) + cycles
    return total


def _largest(waits: dict[str, int]) -> tuple[str, int]:
    return max(waits.items(), key=lambda item: (item[1], item[0]))


def _bottleneck(run: RunProfile) -> str:
    """One sentence: what limits the run, judged from the compute RISCs' time (busy, or waiting for
    inputs or for room for outputs) and what the data-movement RISCs wait on."""
    computes = [cores["TRISC"] for cores in run.cores.values() if "TRISC" in cores]
    movers = _waits(run, ("BRISC", "NCRISC"))
    feeding = {cause: cycles for cause, cycles in movers.items() if not cause.startswith("cb_wait_front")}
    movers_wait = f"; the data-movement RISCs wait mostly on {_largest(feeding)[0]}" if feeding else ""
    if not computes:
        if not movers:
            return "no RISC waits: the run is bound by its own instruction stream."
        cause, cycles = _largest(movers)
        return (
            f"data movement: the RISCs spend {cycles / max(1, run.cycles * len(run.cores)):.0%} on {cause}."
        )
    span = max(1, run.cycles * len(computes))
    busy = sum(risc.busy_cycles for risc in computes) / span
    waits = _waits(run, ("TRISC",))
    if busy >= 0.7 or not waits:
        return f"compute-bound: the compute RISCs are busy {busy:.0%} of the run."
    cause, cycles = _largest(waits)
    if cause.startswith("cb_reserve_back"):
        return f"output-bound: compute waits {cycles / span:.0%} of the run for room ({cause}){movers_wait}."
    return f"input-bound: compute waits {cycles / span:.0%} of the run for data ({cause}){movers_wait}."


def summary(session: ProfilingSession, fidelity: str | None = None) -> str:
    """A per-core, per-RISC breakdown (busy %, top waits) of each run, achieved TFLOPS and DRAM GB/s
    against the target's peak (at ``fidelity``, default HiFi4), and the bottleneck in one sentence."""
    if not session.runs:
        return "no device runs were profiled"
    fidelity = fidelity or "HiFi4"
    lines: list[str] = []
    for index, run in enumerate(session.runs):
        lines.append(
            f"run {index}: {run.arch} @ {run.clock_ghz:g} GHz, {run.cycles} cycles = "
            f"{run.seconds * 1e6:.2f} us, {len(run.cores)} cores"
        )
        for (x, y), riscs in sorted(run.cores.items(), key=lambda item: (item[0][1], item[0][0])):
            parts = []
            for name, risc in riscs.items():
                busy = risc.busy_cycles / run.cycles if run.cycles else 0.0
                top = sorted(risc.waits.items(), key=lambda item: (-item[1], item[0]))[:2]
                waits = ", ".join(f"{cause} {cycles / run.cycles:.0%}" for cause, cycles in top if run.cycles)
                parts.append(f"{name} busy {busy:.0%}" + (f" (waits: {waits})" if waits else ""))
            lines.append(f"  core ({x},{y}): " + "; ".join(parts))
        lines.append("  bottleneck: " + _bottleneck(run))
        if run.forced_waits:
            lines.append(f"  note: {run.forced_waits} waits had no satisfying write in modelled order")
    flops, seconds, dram, cycles = _totals(session.runs)
    arch = session.runs[0].arch
    tflops = flops / seconds / 1e12 if seconds else 0.0
    gb_s = dram / seconds / 1e9 if seconds else 0.0
    peak, dram_peak = peak_tflops(arch, fidelity), peak_dram_gb_s(arch)
    lines.append(
        f"total: {cycles} cycles = {seconds * 1e6:.2f} us; {tflops:.2f} TFLOPS ({tflops / peak:.0%} of the "
        f"{peak:.1f} TFLOPS {fidelity} peak); DRAM {gb_s:.1f} GB/s "
        f"({gb_s / dram_peak:.0%} of {dram_peak:g} GB/s)"
    )
    return "\n".join(lines)


class _Tracks:
    """Chrome-trace processes (one per core) and threads (one per track), named when first used."""

    def __init__(self, events: list[dict]) -> None:
        self._events = events
        self._pids: dict[tuple[int, int], int] = {}
        self._named: set[tuple[int, int]] = set()

    def process(self, core: tuple[int, int]) -> int:
        if core not in self._pids:
            pid = len(self._pids) + 1
            self._pids[core] = pid
            self._events.append(
                {"ph": "M", "name": "process_name", "pid": pid, "args": {"name": f"core {core}"}}
            )
            self._events.append(
                {"ph": "M", "name": "process_sort_index", "pid": pid, "args": {"sort_index": pid}}
            )
        return self._pids[core]

    def thread(self, core: tuple[int, int], track: int) -> dict:
        """The pid/tid fields of an event on `track` of `core`."""
        pid = self.process(core)
        if (pid, track) not in self._named:
            self._named.add((pid, track))
            self._events.append(
                {"ph": "M", "name": "thread_name", "pid": pid, "tid": track, "args": {"name": _TRACKS[track]}}
            )
        return {"pid": pid, "tid": track}


def chrome_trace(session: ProfilingSession) -> dict:
    """The session as Chrome trace-event JSON (a dict): runs one after another on one timeline; a process
    per core (pid) with a thread per RISC, NOC port and RISC zone track (tid), named by "M" events;
    "X" spans; flow pairs ("s"/"f", bound to the enclosing slices) from each CB push or semaphore write to
    the wait it ended. Times are microseconds of modelled device time."""
    events: list[dict] = []
    tracks = _Tracks(events)
    offset_us = 0.0
    flow_id = 0
    for run in session.runs:
        us_per_cycle = 1.0 / (run.clock_ghz * 1e3)
        native = run._native
        names = native.names
        cores = [(c.core.x, c.core.y) for c in native.cores]
        for core in cores:
            tracks.process(core)
        spans = np.frombuffer(native.packed_spans(), dtype=_SPAN_DTYPE)
        for start, duration, name, core, track, category in spans.tolist():
            events.append(
                {
                    "ph": "X",
                    "name": names[name],
                    "cat": _CATEGORIES[category],
                    **tracks.thread(cores[core], track),
                    "ts": offset_us + start * us_per_cycle,
                    "dur": duration * us_per_cycle,
                }
            )
        flows = np.frombuffer(native.packed_flows(), dtype=_FLOW_DTYPE)
        for from_cycle, from_core, from_track, to_cycle, to_core, to_track in flows.tolist():
            flow_id += 1
            flow = {"name": "release", "cat": "flow", "id": flow_id}
            # Half a cycle inside the releasing call's slice and inside the end of the wait's slice.
            start_ts = offset_us + (from_cycle + 0.5) * us_per_cycle
            end_ts = offset_us + (to_cycle - 0.5) * us_per_cycle
            events.append({"ph": "s", **flow, **tracks.thread(cores[from_core], from_track), "ts": start_ts})
            events.append(
                {"ph": "f", "bp": "e", **flow, **tracks.thread(cores[to_core], to_track), "ts": end_ts}
            )
        offset_us += run.cycles * us_per_cycle
    return {"traceEvents": events, "displayTimeUnit": "ns"}


def write_chrome_trace(session: ProfilingSession, path: str | Path) -> None:
    """Writes :func:`chrome_trace` to ``path`` (Perfetto's UI and chrome://tracing open it)."""
    Path(path).write_text(json.dumps(chrome_trace(session)))


def check_chrome_trace(trace: dict) -> dict[str, int]:
    """Checks what :func:`chrome_trace` promises of a trace (e.g. one read back from a file): every track
    is named by one "M" event, spans never overlap on a track (on zone tracks they nest), and every flow
    has one start and one end, each inside a slice of its track. Returns the number of tracks, spans and
    flows; raises ValueError naming the first violation."""
    events = trace["traceEvents"]
    names: dict[tuple[int, int], str] = {}
    for event in events:
        if event.get("name") == "thread_name":
            track = (event["pid"], event["tid"])
            if track in names:
                raise ValueError(f"track {track[1]} of core {track[0]} is named twice")
            names[track] = event["args"]["name"]

    def where(track: tuple[int, int]) -> str:
        return f"{names.get(track, f'track {track[1]}')} of core {track[0]}"

    spans: dict[tuple[int, int], list[tuple[float, float, str]]] = defaultdict(list)
    for event in events:
        if event["ph"] == "X":
            track = (event["pid"], event["tid"])
            if track not in names:
                raise ValueError(
                    f"span {event['name']!r} is on track {track[1]} of core {track[0]}, which no thread_name "
                    "event names"
                )
            spans[track].append((event["ts"], event["ts"] + event["dur"], event["name"]))
    epsilon = 1e-9
    for track, items in spans.items():
        items.sort(key=lambda item: (item[0], -item[1]))
        if names[track].endswith("zones"):
            parents: list[tuple[float, str]] = []
            for start, end, name in items:
                while parents and parents[-1][0] <= start + epsilon:
                    parents.pop()
                if parents and end > parents[-1][0] + epsilon:
                    raise ValueError(
                        f"zone {name!r} straddles the end of its parent {parents[-1][1]!r} on {where(track)}"
                    )
                parents.append((end, name))
        else:
            for (_, end, name), (start, _, next_name) in zip(items, items[1:], strict=False):
                if start < end - epsilon:
                    raise ValueError(f"{name!r} and {next_name!r} overlap on {where(track)}")
    flows: dict[int, dict[str, dict]] = defaultdict(dict)
    for event in events:
        if event["ph"] in ("s", "f"):
            flows[event["id"]][event["ph"]] = event
    for flow_id, ends in sorted(flows.items()):
        if "f" not in ends:
            raise ValueError(f"flow {flow_id} has a start but no end")
        if "s" not in ends:
            raise ValueError(f"flow {flow_id} has an end but no start")
        for phase, label in (("s", "start"), ("f", "end")):
            event = ends[phase]
            track = (event["pid"], event["tid"])
            if not any(start <= event["ts"] <= end for start, end, _ in spans[track]):
                raise ValueError(
                    f"flow {flow_id}'s {label} at {event['ts']:g} us is inside no slice of {where(track)}"
                )
    return {"tracks": len(names), "spans": sum(map(len, spans.values())), "flows": len(flows)}
