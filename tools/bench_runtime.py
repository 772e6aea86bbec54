"""Benchmark of the mock device: a 1024 x 1024 x 1024 bf16 matmul on the 8x8 grid next to numpy.

Runs tests/sdk_style/matmul_block_reuse.cpp (block-reuse multi-core matmul) through tt_mock and reports
- the median wall time of the matmul on the mock (upload, run, download) and of numpy's float32 matmul
  of the same shape, and their ratio (target: the mock within 30x of numpy);
- the kernel JIT build time: cold (empty kernel cache) and warm (kernels found in the disk cache, in a
  fresh process), each as the first run's time minus the median run time.

Usage: ./bazelw run //tools:bench_runtime -- [--size 1024] [--repeat 5] [--in0-block-w 4]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import ml_dtypes
import numpy as np
import tt_mock

# tests/sdk_style next to tools/, in the source tree or in runfiles.
SDK_STYLE = Path(__file__).absolute().parent.parent / "tests" / "sdk_style"


def _inputs(size: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    a = rng.uniform(-0.5, 0.5, (size, size)).astype(ml_dtypes.bfloat16)
    b = rng.uniform(-0.5, 0.5, (size, size)).astype(ml_dtypes.bfloat16)
    return a, b


def _timed_runs(
    program: tt_mock.HostProgram, kernels: Path, size: int, runs: int
) -> tuple[list[float], np.ndarray]:
    a, b = _inputs(size)
    tensors = [a.view(np.uint16), b.view(np.uint16), np.zeros((size, size), np.uint16)]
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        program.run(kernels, tensors)
        times.append(time.perf_counter() - start)
    return times, tensors[2].view(ml_dtypes.bfloat16).astype(np.float32)


def _build(sdk_style: Path, size: int, in0_block_w: int) -> Path:
    defines = {"SHAPE_M": size, "SHAPE_K": size, "SHAPE_N": size, "IN0_BLOCK_W": in0_block_w}
    return tt_mock.build_host_program(
        [sdk_style / "matmul_block_reuse.cpp"], defines={k: str(v) for k, v in defines.items()}
    )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench_runtime", description=__doc__.split("\n")[0])
    parser.add_argument("--size", type=int, default=1024, help="M = K = N")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs (median)")
    parser.add_argument("--in0-block-w", type=int, default=4, help="K tiles per block")
    parser.add_argument("--first-run-of", type=Path, help=argparse.SUPPRESS)  # built host program
    args = parser.parse_args(argv)
    sdk_style = SDK_STYLE
    kernels = sdk_style / "kernels"

    if args.first_run_of is not None:
        first, _ = _timed_runs(tt_mock.HostProgram(args.first_run_of), kernels, args.size, 1)
        print(json.dumps({"first_run": first[0]}))
        return 0
    start = time.perf_counter()
    so_path = _build(sdk_style, args.size, args.in0_block_w)
    host_build = time.perf_counter() - start
    program = tt_mock.HostProgram(so_path)

    with tempfile.TemporaryDirectory() as cache:
        os.environ["TT_METAL_MOCK_CACHE_DIR"] = cache
        first, _ = _timed_runs(program, kernels, args.size, 1)
        runs, result = _timed_runs(program, kernels, args.size, args.repeat)
        warm = subprocess.run(
            [sys.executable, __file__, f"--first-run-of={so_path}", f"--size={args.size}"],
            capture_output=True,
            text=True,
            check=True,
            env=os.environ,
        )
        warm_first = json.loads(warm.stdout.strip().splitlines()[-1])["first_run"]

    a, b = (x.astype(np.float32) for x in _inputs(args.size))
    np.matmul(a, b)
    numpy_times = []
    for _ in range(max(args.repeat, 5)):
        start = time.perf_counter()
        np.matmul(a, b)
        numpy_times.append(time.perf_counter() - start)
    error = float(np.max(np.abs(result - a @ b)))

    mock, numpy = statistics.median(runs), statistics.median(numpy_times)
    grid = tt_mock.Device().grid
    ms = 1e3
    lines = [
        f"matmul {args.size}^3 bf16, block-reuse on the {grid[0]}x{grid[1]} grid ({tt_mock.default_arch()})",
        f"  mock device, median of {len(runs)}:  {mock * ms:8.1f} ms   runs: {[round(t * ms) for t in runs]}",
        f"  numpy float32, median of {len(numpy_times)}: {numpy * ms:8.1f} ms",
        f"  ratio mock / numpy:         {mock / numpy:8.1f}x   (target <= 30x)",
        f"  max |mock - numpy|:         {error:8.4f}",
        f"  kernel JIT build, cold:     {(first[0] - mock) * ms:8.1f} ms   (first run: {first[0] * ms:.0f})",
        f"  kernel JIT build, warm:     {(warm_first - mock) * ms:8.1f} ms   (first run of a new process)",
        f"  host program build:         {host_build * ms:8.1f} ms   (0 when cached)",
    ]
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
