"""Calibration of the simulator's timing model against Tenstorrent's published performance figures.

Builds the SDK-style microbenchmarks of tools/calibration, runs each under the timing model
(``runtime_mock.profiling()``) on Wormhole and Blackhole, and prints one table: the modelled figure, the
published one, and the error. Bandwidths and per-tile costs are differential: each benchmark runs at two
amounts of work and the figure is (work difference) / (modelled cycle difference), so launch, setup and the
programs' own result checks cancel out. With ``--sdk-examples DIR`` (a tt-metal checkout or
``git archive`` of its tt_metal/programming_examples) it also runs the SDK's matmul examples from a scratch
copy and lists their modelled TFLOPS.

Usage::

    ./bazelw run //tools:calibrate -- [--arch wormhole|blackhole] [--sdk-examples DIR]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import runtime_mock

CALIBRATION = Path(__file__).absolute().parent / "calibration"
KERNELS = CALIBRATION / "kernels"
ARCHS = ("wormhole", "blackhole")

# Published figures and where they come from (tenstorrent/tt-metal; see also the project's notes).
DRAM_REPORT = "tech_reports/Saturating_DRAM_bandwidth/Saturating_DRAM_bandwidth.md"
NOC_REPORT = "tests/tt_metal/tt_metal/data_movement/documentation/ideal_performance.md"
GEMM_REPORT = "tech_reports/GEMM_FLOPS/GEMM_FLOPS.md"


@dataclass(frozen=True)
class Benchmark:
    """One row per arch: `program` run with `params`, once with `work_param` at each of `work_values`."""

    name: str
    program: str
    params: dict[str, str]
    work_param: str
    work_values: tuple[int, int]
    work: Callable[[str, int], float]  # (arch, work_param value) -> work units (bytes, tiles, flops)
    unit: str  # what the figure is: "B/cycle", "GB/s", "cycles/tile", "% of peak"
    published: dict[str, float | None]
    source: str
    tolerance: float = 0.10
    small_params: dict[str, str] = field(default_factory=dict)  # a cheap functional run (tests)


def grid_cores(arch: str) -> int:
    spec = runtime_mock.Device(arch).spec
    return spec.grid_x * spec.grid_y


def dram_banks(arch: str) -> int:
    return runtime_mock.Device(arch).spec.dram_banks


def dram_bytes(readers: Callable[[str], int]) -> Callable[[str, int], float]:
    return lambda arch, pages: readers(arch) * pages * 2048


def _tiles(per_value: int) -> Callable[[str, int], float]:
    return lambda arch, value: value * per_value


def benchmarks() -> list[Benchmark]:
    """The calibration table's rows."""
    # (readers, row label, their number, pages per reader at the two runs, unit, published, source). The page
    # counts are 1 more than a multiple of every bank count (12, 8), so the readers of "all" start on
    # different banks and stay spread over them; 64-page blocks keep one barrier's latency small.
    dram_rows = [
        ("all", "all cores", grid_cores, (73, 145), "GB/s", (267.0, 344.0), DRAM_REPORT),
        ("per_bank", "one reader per bank", dram_banks, (73, 145), "GB/s", (267.0, 500.0), DRAM_REPORT),
        ("one", "one core", lambda arch: 1, (73, 145), "B/cycle", (22.0, 33.0), NOC_REPORT),
    ]
    rows = [
        Benchmark(
            f"DRAM read, {label}",
            "dram_read",
            {"readers": readers, "block_pages": "64"},
            "pages_per_reader",
            pages,
            dram_bytes(count),
            unit,
            dict(zip(ARCHS, published, strict=True)),
            source,
            small_params={"pages_per_reader": "4"},
        )
        for readers, label, count, pages, unit, published, source in dram_rows
    ]
    for mode, published in [("unicast", (29.0, 60.0)), ("multicast", (15.0, 24.0)), ("linked", (22.0, 41.0))]:
        rows.append(
            Benchmark(
                f"NOC write, {mode}",
                "noc_write",
                {"mode": mode},
                "transfers",
                (16, 32),
                lambda arch, transfers: transfers * 8192.0,
                "B/cycle",
                dict(zip(ARCHS, published, strict=True)),
                NOC_REPORT,
                small_params={"transfers": "2"},
            )
        )
    for fidelity, cycles in [("lofi", 16.0), ("hifi2", 32.0), ("hifi3", 48.0), ("hifi4", 64.0)]:
        # 4 x 2 x 16 = 128 tile products per pass.
        rows.append(
            Benchmark(
                f"matmul {fidelity}, one core",
                "matmul_fidelity",
                {"fidelity": fidelity},
                "passes",
                (8, 16),
                _tiles(128),
                "cycles/tile",
                {a: cycles for a in ARCHS},
                GEMM_REPORT,
                small_params={"passes": "1", "kt": "2"},
            )
        )
    rows.append(
        Benchmark(
            "SFPU exp+recip+sqrt, one core",
            "sfpu_chain",
            {},
            "tiles",
            (32, 64),
            _tiles(1),
            "cycles/tile",
            {a: None for a in ARCHS},
            "no published per-tile figure",
            small_params={"tiles": "2"},
        )
    )
    # The SDK's default exp_tile on bfloat16 tiles, its SFPU kernel looped 1M times (tt-metal PR #29495,
    # 2025-09). Here each repeat also unpacks the tile again (16 cycles in the model).
    rows.append(
        Benchmark(
            "SFPU exp (bfloat16-accurate), one core",
            "sfpu_chain",
            {"tiles": "8", "exp_only": "1"},
            "repeats",
            (4, 12),  # both compute-bound: one repeat per tile would wait for the reader
            _tiles(8),
            "cycles/tile",
            {"wormhole": 1344.0, "blackhole": 672.0},
            "tenstorrent/tt-metal PR #29495 (exp accurate, bfloat16: 1344 / 672 cycles per tile)",
            small_params={"tiles": "2", "repeats": "2"},
        )
    )
    return rows


# The 2-D multicast matmul at the published shapes: device-based utilisation (ideal cycles / device
# cycles) of the hand-tuned ttnn matmul, 4096^3 on Wormhole's 8x8 (83.67%, 2.506 ms; the 50.56 TFLOPS in
# the same row is host-timed) and 2560x4992x4992 on Blackhole's 13x10 (93.98%, in0 and out L1-sharded).
BIG_MATMUL = {
    "wormhole": ({"m": "4096", "k": "4096", "n": "4096"}, 83.67),
    "blackhole": ({"m": "2560", "k": "4992", "n": "4992"}, 93.98),
}
BIG_MATMUL_TOLERANCE = 0.15
SMALL_MATMUL = {"m": "128", "k": "256", "n": "192", "grid_x": "3", "grid_y": "2", "in0_block_w": "2"}


def run_program(program: str, params: dict[str, str], arch: str) -> int:
    """Builds tools/calibration/<program>.cpp and runs it on `arch`; returns its exit status."""
    runtime_mock.set_default_arch(arch)
    so = runtime_mock.build_host_program([CALIBRATION / f"{program}.cpp"], std="c++17")
    argv = [str(KERNELS), *(f"{name}={value}" for name, value in params.items())]
    return runtime_mock.HostProgram(so).main(argv)


def modelled_cycles(program: str, params: dict[str, str], arch: str) -> int:
    """Modelled device cycles of one run of the program; raises if its own result check fails."""
    with runtime_mock.profiling() as session:
        status = run_program(program, params, arch)
    if status != 0:
        raise RuntimeError(f"{program} {params} on {arch} failed its result check (exit status {status})")
    return session.cycles


def measure(bench: Benchmark, arch: str) -> float:
    """The benchmark's figure on `arch` under the model, in bench.unit."""
    low, high = bench.work_values
    cycles = [
        modelled_cycles(bench.program, {**bench.params, bench.work_param: str(v)}, arch) for v in (low, high)
    ]
    work = bench.work(arch, high) - bench.work(arch, low)
    per_cycle = work / (cycles[1] - cycles[0])
    if bench.unit == "cycles/tile":
        return 1 / per_cycle
    if bench.unit == "GB/s":
        return per_cycle * runtime_mock.arch_facts(arch)["clock_ghz"]
    return per_cycle


def big_matmul_utilisation(arch: str) -> float:
    """Modelled % of the grid's HiFi4 peak for the 2-D multicast matmul at the published shape."""
    params, _ = BIG_MATMUL[arch]
    with runtime_mock.profiling() as session:
        status = run_program("matmul_mcast_2d", params, arch)
    if status != 0:
        raise RuntimeError(f"matmul_mcast_2d on {arch} failed its result check")
    flops = 2 * int(params["m"]) * int(params["k"]) * int(params["n"])
    achieved_tflops = flops / session.seconds / 1e12
    return 100 * achieved_tflops / runtime_mock.profile.peak_tflops(arch, "HiFi4")


def error_percent(model: float, published: float | None) -> str:
    return "-" if published is None else f"{100 * (model - published) / published:+.1f}%"


def sdk_example_tflops(examples: Path, arch: str) -> list[tuple[str, float]]:
    """Modelled TFLOPS of the SDK's matmul examples, run from a scratch copy of `examples`
    (a directory holding tt_metal/programming_examples)."""
    results = []
    with tempfile.TemporaryDirectory(prefix="sdk-examples-") as scratch:
        root = Path(scratch)
        shutil.copytree(
            examples / "tt_metal" / "programming_examples", root / "tt_metal" / "programming_examples"
        )
        programming = root / "tt_metal" / "programming_examples"
        # matmul_multicore_reuse_mcast names its kernels under programming_examples/matmul_common.
        if not (programming / "matmul_common").exists():
            (programming / "matmul_common").symlink_to(programming / "matmul" / "matmul_common")
        os.environ["TT_METAL_KERNEL_PATH"] = str(root)
        runtime_mock.set_default_arch(arch)
        for name in [
            "matmul_single_core",
            "matmul_multi_core",
            "matmul_multicore_reuse",
            "matmul_multicore_reuse_mcast",
        ]:
            source = programming / "matmul" / name / f"{name}.cpp"
            so = runtime_mock.build_host_program(
                [source],
                # <bmm_op.hpp> for three of them, <matmul_common/bmm_op.hpp> for the fourth
                include_dirs=[programming / "matmul", programming / "matmul" / "matmul_common"],
                defines={"OVERRIDE_KERNEL_PREFIX": '"tt_metal/programming_examples/"'},
            )
            with runtime_mock.profiling() as session:
                status = runtime_mock.HostProgram(so).main([])
            if status != 0:
                raise RuntimeError(f"SDK example {name} on {arch} exited with {status}")
            flops = sum(run.flops for run in session.runs)
            results.append((name, flops / session.seconds / 1e12))
    return results


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="calibrate", description=__doc__.split("\n")[0])
    parser.add_argument("--arch", choices=ARCHS, action="append", help="arch to calibrate (default: both)")
    parser.add_argument("--sdk-examples", type=Path, help="directory holding tt_metal/programming_examples")
    args = parser.parse_args(argv)
    os.chdir(os.environ.get("BUILD_WORKING_DIRECTORY", os.getcwd()))
    print(f"{'arch':10} {'benchmark':34} {'model':>10} {'published':>10} {'error':>8}  unit, source")
    for arch in args.arch or ARCHS:
        for bench in benchmarks():
            model = measure(bench, arch)
            published = bench.published[arch]
            shown = "-" if published is None else f"{published:.2f}"
            print(
                f"{arch:10} {bench.name:34} {model:10.2f} {shown:>10} {error_percent(model, published):>8}"
                f"  {bench.unit}, {bench.source}"
            )
        params, published = BIG_MATMUL[arch]
        model = big_matmul_utilisation(arch)
        shape = "x".join(params[d] for d in "mkn")
        print(
            f"{arch:10} {'2-D mcast matmul ' + shape:34} {model:10.2f} {published:10.2f}"
            f" {error_percent(model, published):>8}  % of HiFi4 peak (device), {GEMM_REPORT}"
        )
        if args.sdk_examples:
            for name, tflops in sdk_example_tflops(args.sdk_examples, arch):
                print(f"{arch:10} {'SDK ' + name:34} {tflops:10.2f} {'-':>10} {'-':>8}  TFLOPS (modelled)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
