"""Benchmark of the mock device: bf16 GEMMs on the 8x8 grid next to numpy float32, in one process.

Runs tests/sdk_style/matmul_block_reuse.cpp (block-reuse multi-core matmul: each core of the grid computes
one block of C, walking K in blocks of --in0-block-w tiles) through runtime_mock and reports, with medians
over --repeat repetitions in which the mock and numpy alternate:
- for each size (M = K = N): the wall time of one call on the mock (upload, run, download), numpy's
  float32 matmul of the same shape, their ratio, and simulated 32x32x32 tile-matmuls per second;
- the fixed cost of a call: a 64-core call on a 256^3 problem (one output tile per core);
- the kernel JIT build time, cold (empty kernel cache) and warm (disk cache, fresh process);
- the peak resident set size of the process.
Sizes of 4096 and more take seconds per call: they run --large-repeat times (the count is printed).

Then the same for the GEMM the compiler generates from examples/gemm.py's `matmul` (the simulator's
targets are set on it): 512^3 with 64x64x32 blocks, 1024^3 with 128x128x32 blocks and with 32^3 blocks,
2048^3 and 4096^3 with 128x128x32 blocks (4096^3: --compiled-large-repeat runs), mock and numpy
alternating, with simulated tile-matmuls per second, and a 64-core call on a 256^3 problem (32^3 blocks:
one output tile per core). --no-compiled skips it.

numpy runs with OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE removed from this process's environment before it
loads (they pin OpenBLAS to a slower kernel) and its idle threads sleeping at once (numpy_environment.py);
the BLAS library, the kernel it chose and the thread timeout are printed.

Usage: ./bazelw run //tools:bench_runtime -- [--sizes 512 1024 2048 4096] [--repeat 7] [--in0-block-w 1]
       [--no-compiled] [--compiled-large-repeat 3]
"""

from __future__ import annotations

import os

import numpy_environment

numpy_environment.prepare()  # before numpy loads

import argparse  # noqa: E402
import importlib.util  # noqa: E402
import json  # noqa: E402
import resource  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402
from blas_info import blas_description  # noqa: E402

import runtime_mock  # noqa: E402

# tests/sdk_style next to tools/, in the source tree or in runfiles.
SDK_STYLE = Path(__file__).absolute().parent.parent / "tests" / "sdk_style"
KERNELS = SDK_STYLE / "kernels"
TILE = 32
SMALL_CALL_SIZE = 256  # 8 x 8 output tiles: one per core of the 8x8 grid
GEMM_EXAMPLE = Path(__file__).absolute().parent.parent / "examples" / "gemm.py"
# (M = K = N, block_M, block_N, block_K) of the compiler-generated GEMMs, as in the simulator's targets.
COMPILED_GEMMS = [
    (512, 64, 64, 32),
    (1024, 128, 128, 32),
    (1024, 32, 32, 32),
    (2048, 128, 128, 32),
    (4096, 128, 128, 32),
]


def _inputs(size: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    a = rng.uniform(-0.5, 0.5, (size, size)).astype(ml_dtypes.bfloat16)
    b = rng.uniform(-0.5, 0.5, (size, size)).astype(ml_dtypes.bfloat16)
    return a, b


class MockGemm:
    """One size's host program on the mock device, with its input and output tensors."""

    def __init__(self, size: int, in0_block_w: int) -> None:
        self.size = size
        defines = {"SHAPE_M": size, "SHAPE_K": size, "SHAPE_N": size, "IN0_BLOCK_W": in0_block_w}
        start = time.perf_counter()
        self.so_path = runtime_mock.build_host_program(
            [SDK_STYLE / "matmul_block_reuse.cpp"], defines={k: str(v) for k, v in defines.items()}
        )
        self.build_seconds = time.perf_counter() - start
        self.program = runtime_mock.HostProgram(self.so_path)
        a, b = _inputs(size)
        self.tensors = [a.view(np.uint16), b.view(np.uint16), np.zeros((size, size), np.uint16)]
        self.zeroing: list[float] = []  # the waits for the scrubber after each call

    def call(self) -> float:
        start = time.perf_counter()
        self.program.run(KERNELS, self.tensors)
        return _then_wait_for_scrubber(start, self.zeroing)

    def result(self) -> np.ndarray:
        return self.tensors[2].view(ml_dtypes.bfloat16).astype(np.float32)


def _then_wait_for_scrubber(start: float, zeroing: list[float]) -> float:
    """The seconds since ``start`` (a mock call just returned); then waits, untimed, for the scrubber to
    zero the call's device memory, so that what is timed next (numpy) does not share the CPUs with it, and
    appends that wait to ``zeroing``."""
    seconds = time.perf_counter() - start
    waited = time.perf_counter()
    runtime_mock.wait_for_scrubber()
    zeroing.append(time.perf_counter() - waited)
    return seconds


class NumpyGemm:
    """numpy's float32 matmul of the same inputs."""

    def __init__(self, size: int) -> None:
        self.a, self.b = (x.astype(np.float32) for x in _inputs(size))
        np.matmul(self.a, self.b)

    def call(self) -> float:
        start = time.perf_counter()
        np.matmul(self.a, self.b)
        return time.perf_counter() - start


class CompiledGemm:
    """examples/gemm.py's matmul compiled by tilelang_tt for one size and blocking, with its inputs."""

    def __init__(self, size: int, block_m: int, block_n: int, block_k: int) -> None:
        import tilelang_tt

        spec = importlib.util.spec_from_file_location("gemm_example", GEMM_EXAMPLE)
        example = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(example)
        self.label = f"{size}^3, blocks {block_m}x{block_n}x{block_k}"
        self.size = size
        func = example.matmul.get_tir(size, size, size, block_m, block_n, block_k)
        self.kernel = tilelang_tt.compile(func, out_idx=[-1])
        self.a, self.b = _inputs(size)
        self.output = self.kernel(self.a, self.b)  # builds the host program and the kernels
        self.zeroing: list[float] = []  # the waits for the scrubber after each call

    def call(self) -> float:
        start = time.perf_counter()
        self.output = self.kernel(self.a, self.b)
        return _then_wait_for_scrubber(start, self.zeroing)


def compiled_gemms(repeat: int, large_repeat: int, small_repeat: int) -> None:
    """Times the compiler-generated GEMMs next to numpy (alternating) and the 64-core 256^3 call; prints
    the table (a fresh build cache is the caller's choice)."""
    grid = runtime_mock.Device().grid
    ms = 1e3
    gemms = [CompiledGemm(*config) for config in COMPILED_GEMMS]
    reference = {size: NumpyGemm(size) for size in {gemm.size for gemm in gemms}}
    small = CompiledGemm(SMALL_CALL_SIZE, TILE, TILE, TILE)
    mock_times: list[list[float]] = [[] for _ in gemms]
    numpy_times: list[list[float]] = [[] for _ in gemms]
    for rep in range(repeat):
        for i, gemm in enumerate(gemms):
            if gemm.size >= 4096 and rep >= large_repeat:
                continue
            mock_times[i].append(gemm.call())
            numpy_times[i].append(reference[gemm.size].call())
    small_times = [small.call() for _ in range(small_repeat)]
    print(
        f"\nbf16 GEMM generated by the compiler (examples/gemm.py matmul) on the {grid[0]}x{grid[1]} grid; "
        "medians of alternated runs (mock = tilize + upload + run + download + untilize; then zeroing = the "
        "untimed wait, before numpy runs, for the background zeroing of the call's device memory)"
    )
    print(
        f"  {'problem':>30} {'runs':>4} {'mock ms':>9} {'numpy ms':>9} {'ratio':>6} {'tile-mm/s':>10} "
        f"{'max rel err':>11} {'then zeroing ms':>15}"
    )
    for gemm, mock_runs, numpy_runs in zip(gemms, mock_times, numpy_times, strict=True):
        mock, numpy = statistics.median(mock_runs), statistics.median(numpy_runs)
        exact = reference[gemm.size].a @ reference[gemm.size].b
        error = float(np.max(np.abs(gemm.output.astype(np.float32) - exact)) / np.max(np.abs(exact)))
        print(
            f"  {gemm.label:>30} {len(mock_runs):>4} {mock * ms:9.1f} {numpy * ms:9.1f} {mock / numpy:5.2f}x "
            f"{(gemm.size // TILE) ** 3 / mock:10.3g} {error:11.2e} "
            f"{statistics.median(gemm.zeroing[-len(mock_runs) :]) * ms:15.2f}"
        )
    print(
        f"  64-core call, {SMALL_CALL_SIZE}^3 (median of {len(small_times)}): "
        f"{statistics.median(small_times) * ms:8.2f} ms   "
        f"(min {min(small_times) * ms:.2f}, max {max(small_times) * ms:.2f})"
    )


def _first_run_in_fresh_process(so_path: Path, size: int) -> float:
    """The first call of an already-built host program in a new process (warm kernel cache)."""
    warm = subprocess.run(
        [sys.executable, __file__, f"--first-run-of={so_path}", f"--first-run-size={size}"],
        capture_output=True,
        text=True,
        check=True,
        env=os.environ,
    )
    return json.loads(warm.stdout.strip().splitlines()[-1])["first_run"]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench_runtime", description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[512, 1024, 2048, 4096], help="M = K = N")
    parser.add_argument("--repeat", type=int, default=7, help="alternated repetitions (medians)")
    parser.add_argument("--large-repeat", type=int, default=1, help="repetitions of sizes >= 4096")
    parser.add_argument("--small-repeat", type=int, default=21, help="calls of the 256^3 problem")
    parser.add_argument("--in0-block-w", type=int, default=1, help="K tiles per block (1: blocks of K = 32)")
    parser.add_argument("--no-compiled", action="store_true", help="skip the compiler-generated GEMMs")
    parser.add_argument(
        "--compiled-large-repeat", type=int, default=3, help="runs of the compiled 4096^3 GEMM"
    )
    parser.add_argument("--first-run-of", type=Path, help=argparse.SUPPRESS)  # built host program
    parser.add_argument("--first-run-size", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.first_run_of is not None:
        program = runtime_mock.HostProgram(args.first_run_of)
        a, b = _inputs(args.first_run_size)
        start = time.perf_counter()
        program.run(KERNELS, [a.view(np.uint16), b.view(np.uint16), np.zeros_like(a.view(np.uint16))])
        print(json.dumps({"first_run": time.perf_counter() - start}))
        return 0

    print(f"numpy BLAS: {blas_description()}")
    gemms = {size: MockGemm(size, args.in0_block_w) for size in [SMALL_CALL_SIZE, *args.sizes]}
    small = gemms.pop(SMALL_CALL_SIZE)
    reference = {size: NumpyGemm(size) for size in args.sizes}

    with tempfile.TemporaryDirectory() as cache:
        os.environ["RUNTIME_MOCK_CACHE_DIR"] = cache
        jit_size = 1024 if 1024 in gemms else args.sizes[0]
        first_call = gemms[jit_size].call()
        for gemm in [small, *gemms.values()]:
            gemm.call()  # builds (and caches) the kernels of each size
        warm_first = _first_run_in_fresh_process(gemms[jit_size].so_path, jit_size)

        mock_times: dict[int, list[float]] = {size: [] for size in args.sizes}
        numpy_times: dict[int, list[float]] = {size: [] for size in args.sizes}
        for rep in range(args.repeat):
            for size in args.sizes:
                if size >= 4096 and rep >= args.large_repeat:
                    continue
                mock_times[size].append(gemms[size].call())
                numpy_times[size].append(reference[size].call())
        small_times = [small.call() for _ in range(args.small_repeat)]

    grid = runtime_mock.Device().grid
    ms = 1e3
    print(
        f"\nbf16 GEMM, block-reuse on the {grid[0]}x{grid[1]} grid ({runtime_mock.default_arch()}), "
        f"K blocks of {args.in0_block_w * TILE}; medians of alternated runs (mock = upload + run + download)"
    )
    print(
        f"  {'M=K=N':>6} {'runs':>4} {'mock ms':>9} {'numpy ms':>9} {'ratio':>6} {'tile-mm/s':>10} "
        f"{'GFLOP/s':>8} {'max err':>8}  per-core block"
    )
    for size in args.sizes:
        mock, numpy = statistics.median(mock_times[size]), statistics.median(numpy_times[size])
        tiles = size // TILE
        per_core = size // grid[0]
        error = float(np.max(np.abs(gemms[size].result() - reference[size].a @ reference[size].b)))
        print(
            f"  {size:>6} {len(mock_times[size]):>4} {mock * ms:9.1f} {numpy * ms:9.1f} {mock / numpy:5.2f}x "
            f"{tiles**3 / mock:10.3g} {2 * size**3 / mock / 1e9:8.1f} {error:8.4f}  "
            f"{per_core}x{per_core}x{args.in0_block_w * TILE}"
        )
    small_median = statistics.median(small_times)
    builds = ", ".join(f"{size}: {gemm.build_seconds:.1f} s" for size, gemm in gemms.items())
    lines = [
        f"  64-core call, {SMALL_CALL_SIZE}^3 (median of {len(small_times)}): {small_median * ms:8.2f} ms"
        f"   (min {min(small_times) * ms:.2f}, max {max(small_times) * ms:.2f})",
        f"  kernel JIT build, cold:     {(first_call - statistics.median(mock_times[jit_size])) * ms:8.1f} ms"
        f"   (first {jit_size}^3 call: {first_call * ms:.0f} ms)",
        f"  kernel JIT build, warm:     {(warm_first - statistics.median(mock_times[jit_size])) * ms:8.1f} ms"
        "   (first call of a new process)",
        f"  host program builds:        {builds}   (0 when cached)",
    ]
    print("\n".join(lines))
    if not args.no_compiled:
        with tempfile.TemporaryDirectory() as cache:
            os.environ["TILELANG_TT_CACHE_DIR"] = cache
            os.environ["RUNTIME_MOCK_CACHE_DIR"] = os.path.join(cache, "kernels")
            compiled_gemms(args.repeat, args.compiled_large_repeat, args.small_repeat)
    print(f"\npeak RSS: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
