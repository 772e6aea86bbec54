"""`bazel run //tools:bench_autotune -- [--program gemm|attention] [--repeat 3] [--workers N] [--size S]`:
wall time of one autotuning run in each of the ways tuning_pool.py offers — this process, N forked worker
processes (default: every CPU this process may use), and a local Ray cluster of N CPUs when ``ray`` imports.

``gemm`` tunes examples/gemm.py (bf16, S³, S default 1024) over eight block configs, as TileLang's autotuned
GEMM example does; ``attention`` tunes examples/flash_attention.py (B1 H8 S×S D128, S default 1024) over
TileLang's block_M × block_N grid. Every candidate is checked against numpy. The compiler runs for every
candidate in every run (the kernel cache is off); the C++ builds of the host program and kernels are cached,
warmed by one untimed run first, so the table compares the compile-check-time loop itself. Ways alternate
within each round; medians of ``--repeat`` rounds. Each way's chosen config, its modelled time and whether
every candidate's outcome equals the one-process run's are printed beside it. Ray's start-up (``ray.init``)
is timed separately: a cluster is started once and tunes many times.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

EXAMPLES = Path(__file__).absolute().parent.parent / "examples"
GEMM_CONFIGS = [
    {"block_M": bm, "block_N": bn, "block_K": bk}
    for bm, bn, bk in [
        (64, 64, 32),
        (64, 128, 64),
        (128, 64, 64),
        (128, 128, 32),
        (128, 128, 64),
        (128, 256, 32),
        (256, 128, 32),
        (256, 256, 32),
    ]
]
ATTENTION_CONFIGS = [{"block_M": bm, "block_N": bn} for bm in (64, 128) for bn in (32, 64, 128)]

SIZE = 1024  # of the programs; --size sets it


def gemm(block_M: int, block_N: int, block_K: int):  # noqa: N803 -- TileLang's names
    """examples/gemm.py's PrimFunc at SIZE³ (bf16, fp32 accumulation)."""
    import gemm as example

    return example.matmul.get_tir(SIZE, SIZE, SIZE, block_M, block_N, block_K)


def gemm_reference(A, B):  # noqa: N803
    import gemm as example

    return example.ref_program(A, B)


def attention(block_M: int, block_N: int):  # noqa: N803
    """examples/flash_attention.py's PrimFunc at B1 H8 SIZE×SIZE D128, not causal."""
    import flash_attention

    return flash_attention.flashattn.get_tir(1, 8, SIZE, SIZE, 128, False, block_M=block_M, block_N=block_N)


def attention_reference(Q, K, V):  # noqa: N803
    import flash_attention

    return flash_attention.ref_program(Q, K, V)


PROGRAMS = {  # name: (PrimFunc builder, configs, out_idx, reference)
    "gemm": (gemm, GEMM_CONFIGS, [-1], gemm_reference),
    "attention": (attention, ATTENTION_CONFIGS, [3], attention_reference),
}


def tune(program: str, workers: int):
    """One tuning run's AutotuneResult, with ``workers`` processes (or on a connected Ray session)."""
    from tilelang_tt.autotuner import AutoTuner

    build, configs, out_idx, reference = PROGRAMS[program]
    os.environ["TILELANG_AUTO_TUNING_CPU_COUNTS"] = str(workers)
    return (
        AutoTuner.from_kernel(kernel=build, configs=configs)
        .set_compile_args(out_idx=out_idx)
        .set_profile_args(ref_prog=reference)
        .run()
    )


def outcomes(result) -> list:
    return [(trial.config, trial.latency, trial.failure) for trial in result.trials]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--program", choices=sorted(PROGRAMS), default="gemm")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--workers", type=int, default=len(os.sched_getaffinity(0)))
    parser.add_argument("--size", type=int, default=1024)
    args = parser.parse_args(argv)
    global SIZE
    SIZE = args.size
    cache = tempfile.mkdtemp(prefix="bench_autotune")
    os.environ.update(
        TILELANG_TT_KERNEL_CACHE="0",
        TILELANG_TT_CACHE_DIR=cache,
        RUNTIME_MOCK_CACHE_DIR=os.path.join(cache, "kernels"),
        RAY_ACCEL_ENV_VAR_OVERRIDE_ON_ZERO="0",
        # Ray's workers import the example by name, as this process does.
        PYTHONPATH=os.pathsep.join([str(EXAMPLES), *(p for p in sys.path if p)]),
    )
    sys.path.insert(0, str(EXAMPLES))
    ways = {"one process": lambda: tune(args.program, 1)}
    ways[f"{args.workers} processes"] = lambda: tune(args.program, args.workers)
    try:
        import ray
    except ImportError:
        ray = None
        print("ray does not import: its row is left out")
    baseline = tune(args.program, 1)  # untimed: warms the C++ build cache
    ray_start = None
    if ray is not None:
        start = time.perf_counter()
        session = tempfile.mkdtemp(prefix="ray", dir="/tmp")  # Ray's socket paths must stay short
        ray.init(num_cpus=args.workers, include_dashboard=False, log_to_driver=False, _temp_dir=session)
        ray_start = time.perf_counter() - start
        os.environ["TILELANG_TT_AUTOTUNE_RAY"] = "0"  # the local ways keep off the cluster

        def on_ray():
            os.environ["TILELANG_TT_AUTOTUNE_RAY"] = "1"
            try:
                return tune(args.program, 1)
            finally:
                os.environ["TILELANG_TT_AUTOTUNE_RAY"] = "0"

        ways[f"Ray, local cluster of {args.workers} CPUs"] = on_ray
    seconds: dict[str, list[float]] = {way: [] for way in ways}
    results: dict[str, object] = {}
    for _ in range(args.repeat):
        for way, run in ways.items():
            start = time.perf_counter()
            results[way] = run()
            seconds[way].append(time.perf_counter() - start)
    if ray is not None:
        ray.shutdown()
    print(
        f"autotuning {args.program} at size {args.size} over {len(PROGRAMS[args.program][1])} configs "
        f"(numpy check each), "
        f"{len(os.sched_getaffinity(0))} CPUs, median of {args.repeat} rounds:"
    )
    one = statistics.median(seconds["one process"])
    print(
        f"  {'way':34s} {'wall s':>8s} {'speed-up':>9s}  chosen config, modelled ms, outcomes as one process"
    )
    for way, values in seconds.items():
        result, median = results[way], statistics.median(values)
        same = outcomes(result) == outcomes(baseline)
        print(
            f"  {way:34s} {median:8.2f} {one / median:8.2f}x  {result.config}, {result.latency:.4f}, {same}"
        )
    if ray_start is not None:
        print(f"  Ray start-up (ray.init), once: {ray_start:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
