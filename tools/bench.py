"""`bazel run //tools:bench -- [--size 1024] [--block 128 128 32] [--repeat 5] [--no-run] [--compile-table]`:
compiler and simulator timings for a square GEMM.

``--families`` times one program of each tile-program family from ``examples/`` on the mock device next to
its numpy reference (``ref_program``), alternated, medians of at least 7 rounds.

``--model-table`` reports the device timing model instead: modelled TFLOPS and % of the HiFi4 peak of the
compiler's GEMM on Wormhole and Blackhole (1024³, 2048³, 4096³ and Blackhole's published 2560×4992×4992),
next to the SDK-style hand-tuned 2-D multicast matmul of tools/calibration at the published shapes, the
published figure, and with ``--sdk-examples DIR`` the SDK's own matmul examples (calibrate.py); then the
row-wise examples (softmax, LayerNorm, RMSNorm at 8192×1024): cores, modelled ms, DRAM GB/s moved and
the minimal traffic's GB/s (each tensor moved once); element-wise, reductions, GEMV, GEMM epilogue and
convolution beside their rooflines (DRAM- or math-bound); flash
attention; GEMMs on block-float inputs (bfloat8_b, bfloat4_b) beside bfloat16 at each math fidelity; and
sharded L1 tensors beside their interleaved versions (LayerNorm, the published Blackhole GEMM shape).

``--all`` reports everything the simulator's targets are stated on, in one run: the compile table, the
default GEMM's compile, builds, new shape and warm call, the tile-program families, and bench_runtime's
table of compiled GEMMs (512³ to 4096³) next to numpy with tile-matmuls per second, then the peak RSS.

``--compile-table`` instead times compilation alone for 1024³ and 8192³ GEMMs with 32³ and 128×128×32
blocks, repetitions alternated across the four so that machine load hits them alike (median of
``--repeat``, at least 7), split into passes and codegen.

Reports (never asserts): the time to import the compiler, each pass's median time and the total compile
time (passes + codegen) after import, the host-program build cold (empty cache) and warm (cached), and the
mock device's run time next to numpy's matmul on the same shapes in the same process.
"""

from __future__ import annotations

import os

import numpy_environment

numpy_environment.prepare()  # before numpy loads

import argparse  # noqa: E402
import importlib.util  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

EXAMPLES = Path(__file__).absolute().parent.parent / "examples"
FAMILIES = ["elementwise", "softmax", "layer_norm", "gemm_epilogue", "flash_attention", "convolution"]


def _gemm(T, size, bm, bn, bk, n=None, k=None, in_dtype="bfloat16"):  # noqa: N803
    """A GEMM with fp32 accumulation and a bf16 result, size x k @ k x n (n and k default to size), its
    inputs stored as ``in_dtype``."""
    n, k_size = n or size, k or size

    @T.prim_func
    def gemm(
        A: T.Tensor((size, k_size), in_dtype),
        B: T.Tensor((k_size, n), in_dtype),
        C: T.Tensor((size, n), "bfloat16"),
    ):
        with T.Kernel(T.ceildiv(n, bn), T.ceildiv(size, bm), threads=128) as (bx, by):
            A_s = T.alloc_shared((bm, bk), in_dtype)
            B_s = T.alloc_shared((bk, bn), in_dtype)
            C_f = T.alloc_fragment((bm, bn), "float")
            T.clear(C_f)
            for k in T.Pipelined(T.ceildiv(k_size, bk), num_stages=2):
                T.copy(A[by * bm, k * bk], A_s)
                T.copy(B[k * bk, bx * bn], B_s)
                T.gemm(A_s, B_s, C_f)
            T.copy(C_f, C[by * bm, bx * bn])

    return gemm


COMPILE_TABLE = [(1024, (32, 32, 32)), (8192, (32, 32, 32)), (1024, (128, 128, 32)), (8192, (128, 128, 32))]


def compile_table(repeat: int, target: str) -> None:
    """Median compile time per configuration, repetitions alternated (one of each per round)."""
    import tilelang_tt
    import tilelang_tt.language as T

    rounds = max(7, repeat)
    times: dict[tuple, list] = {config: [] for config in COMPILE_TABLE}
    for _ in range(rounds):
        for size, blocks in COMPILE_TABLE:
            kernel = tilelang_tt.compile(_gemm(T, size, *blocks), out_idx=[-1], target=target)
            passes = sum(seconds for _, seconds in kernel.pass_timings)
            times[(size, blocks)].append((kernel.compile_seconds, passes, kernel.codegen_seconds))
    print(f"compile time, median of {rounds} alternated repetitions ({target}):")
    print(f"  {'GEMM':>8s} {'blocks':>12s} {'total ms':>9s} {'passes ms':>10s} {'codegen ms':>11s}")
    for (size, (bm, bn, bk)), values in times.items():
        total, passes, codegen = (statistics.median(v[i] for v in values) * 1000 for i in range(3))
        print(f"  {size:>7d}³ {f'{bm}x{bn}x{bk}':>12s} {total:9.2f} {passes:10.2f} {codegen:11.2f}")


# (arch, M, N, K, blocks of the compiler's GEMM, packer_l1_acc): the blocks divide the output over the arch's
# whole grid, but for Blackhole's 13x10 cores at 4096: 256x256 blocks (16x16) step in lockstep on 8x8 of
# them, 416x320 ones make 10x13 blocks, the last row and column of them partly past the edge.
MODEL_TABLE = [
    ("wormhole", 1024, 1024, 1024, (128, 128, 32), False),
    ("wormhole", 2048, 2048, 2048, (256, 256, 32), False),
    ("wormhole", 4096, 4096, 4096, (256, 256, 32), False),
    ("wormhole", 4096, 4096, 4096, (256, 256, 32), True),
    (
        "wormhole",
        3584,
        3072,
        768,
        (224, 384, 32),
        False,
    ),  # the shape of the SDK's matmul_multicore_reuse_mcast
    ("blackhole", 1024, 1024, 1024, (128, 128, 32), False),
    ("blackhole", 2048, 2048, 2048, (256, 256, 32), False),
    ("blackhole", 4096, 4096, 4096, (256, 256, 32), False),
    ("blackhole", 4096, 4096, 4096, (256, 256, 32), True),
    ("blackhole", 2560, 4992, 4992, (256, 384, 32), False),
    ("blackhole", 2560, 4992, 4992, (256, 384, 32), True),
]


def model_table(sdk_examples: Path | None) -> None:
    """Modelled TFLOPS and % of peak: the compiler's GEMM, the SDK-style hand-tuned matmul, published."""
    import numpy as np
    import tilelang_tt
    import tilelang_tt.language as T

    import runtime_mock

    sys.path.insert(0, str(Path(__file__).absolute().parent))
    import calibrate

    rng = np.random.default_rng(0)
    print("device timing model, bf16 GEMM with fp32 accumulation, HiFi4 (modelled device time):")
    print(f"  {'arch':9s} {'M x N x K':>16s} {'program':48s} {'ms':>8s} {'TFLOPS':>7s} {'% peak':>7s}")

    def row(arch, shape, program, seconds):
        peak = runtime_mock.profile.peak_tflops(arch, "HiFi4")
        tflops = 2 * shape[0] * shape[1] * shape[2] / seconds / 1e12
        text = "x".join(str(v) for v in shape)
        percent = 100 * tflops / peak
        print(f"  {arch:9s} {text:>16s} {program:48s} {seconds * 1e3:8.3f} {tflops:7.1f} {percent:6.1f}%")

    for arch, m, n, k, (bm, bn, bk), l1_acc in MODEL_TABLE:
        kernel = tilelang_tt.compile(
            _gemm(T, m, bm, bn, bk, n=n, k=k), out_idx=[-1], target=arch, packer_l1_acc=l1_acc
        )
        a = rng.standard_normal((m, k)).astype(np.float32).astype(kernel.params[0]["dtype"])
        b = rng.standard_normal((k, n)).astype(np.float32).astype(kernel.params[1]["dtype"])
        profile = kernel.profile(a, b, np.zeros((m, n), a.dtype))
        partition = kernel.plan["work_partition"]["tile_order"]
        made = kernel.plan["grid"]["block_shape"]  # blocks made for the core grid (ReblockGemmForCoresTT)
        blocks = f"{bm}x{bn}x{bk}" + (f" -> {made[0]}x{made[1]}" if made != [bm, bn] else "")
        program = f"TileLang-TT {blocks}, {partition}" + (", L1 acc" if l1_acc else "")
        row(arch, (m, n, k), program, profile.device_ms / 1e3)
    for arch, (params, published) in calibrate.BIG_MATMUL.items():
        shape = (int(params["m"]), int(params["n"]), int(params["k"]))
        percent = calibrate.big_matmul_utilisation(arch)
        peak = runtime_mock.profile.peak_tflops(arch, "HiFi4")
        seconds = 2 * shape[0] * shape[1] * shape[2] / (peak * percent / 100) / 1e12
        row(arch, shape, "SDK-style 2-D multicast (hand-tuned)", seconds)
        row(arch, shape, "published (GEMM_FLOPS.md, device time)", 2 * shape[0] * shape[1] * shape[2]
            / (peak * published / 100) / 1e12)  # fmt: skip
    row_families_table()
    roofline_table()
    attention_table()
    block_float_table()
    sharded_table()
    if sdk_examples is not None:
        for arch in ("wormhole",):
            for name, tflops in calibrate.sdk_example_tflops(sdk_examples, arch):
                peak = runtime_mock.profile.peak_tflops(arch, "HiFi4")
                print(f"  {arch:9s} {'(its own shape)':>16s} {'SDK ' + name:48s} {'':8s} {tflops:7.1f} "
                      f"{100 * tflops / peak:6.1f}%")  # fmt: skip


def _example(name: str):
    """examples/<name>.py, imported."""
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _inputs(kernel, rng) -> list:
    """Standard-normal arrays for the tensors a call of ``kernel`` takes (not its out_idx outputs)."""
    import numpy as np
    from tilelang_tt.arguments import NUMPY_DTYPES, caller_shape

    return [
        rng.standard_normal(caller_shape(t)).astype(np.float32).astype(NUMPY_DTYPES[t["dtype"]])
        for i, t in enumerate(kernel.params)
        if i not in kernel.out_idx
    ]


# Row-wise families at the sizes issue 24 measured them: (label, example file, how to build its kernel).
ROW_FAMILIES = [
    ("online softmax, fp16", "softmax", lambda m: m.softmax_kernel.compile(M=8192, N=1024)),
    ("online softmax, bf16", "softmax", lambda m: m.softmax_kernel.compile(M=8192, N=1024, dtype="bfloat16")),
    ("LayerNorm forward, bf16", "layer_norm", lambda m: m._layernorm_fwd(8192, 1024)),
    ("RMSNorm, fp32", "rms_norm", lambda m: m.rms_norm.compile(M=8192, N=1024, blk_m=1)),
    ("RMSNorm, bf16", "rms_norm", lambda m: m.rms_norm.compile(M=8192, N=1024, blk_m=1, dtype="bfloat16")),
]


def _minimal_bytes(kernel) -> int:
    """Bytes of every tensor the kernel takes or returns, each counted once: the traffic of a program that
    reads each input once and writes each output once."""
    import numpy as np
    from tilelang_tt.arguments import NUMPY_DTYPES, caller_shape

    return sum(
        int(np.prod(caller_shape(t))) * np.dtype(NUMPY_DTYPES[t["dtype"]]).itemsize for t in kernel.params
    )


def row_families_table() -> None:
    """Modelled time of the row-wise examples at 8192x1024 on Wormhole: cores used, DRAM GB/s (the bytes
    the program moves over the modelled time) and the minimal traffic's rate (each tensor moved once over
    the modelled time), both against the chip's DRAM bandwidth."""
    import numpy as np

    import runtime_mock

    rng = np.random.default_rng(0)
    dram = runtime_mock.profile.peak_dram_gb_s("wormhole")
    print(f"device timing model, row-wise families at 8192x1024, wormhole (DRAM {dram:.0f} GB/s):")
    columns = ("GB/s", "% DRAM", "minimal", "% DRAM")
    print(f"  {'program':26s} {'cores':>5s} {'ms':>8s} " + " ".join(f"{c:>8s}" for c in columns))
    for label, name, build in ROW_FAMILIES:
        kernel = build(_example(name))
        profile = kernel.profile(*_inputs(kernel, rng))
        ms, gb_s = profile.device_ms, profile.dram_gb_s
        minimal = _minimal_bytes(kernel) / (ms / 1e3) / 1e9
        shares = [f"{gb_s:.1f}", f"{100 * gb_s / dram:.1f}%"]
        shares += [f"{minimal:.1f}", f"{100 * minimal / dram:.1f}%"]
        print(f"  {label:26s} {kernel.cores_used:5d} {ms:8.3f} " + " ".join(f"{c:>8s}" for c in shares))


# The other families at shapes that fill the chip: (label, example file, how to build its kernel).
ROOFLINE_FAMILIES = [
    ("element-wise add, bf16, 4096x4096", "elementwise", lambda m, T: m.elementwise_add.compile(
        M=4096, N=4096, block_M=64, block_N=128, in_dtype=T.bfloat16, out_dtype=T.bfloat16, threads=128)),
    ("row reductions (5 kinds), fp32, 8192x1024", "reduction", lambda m, T: m.reductions(8192, 1024)),
    ("GEMV, fp16, 8192x8192", "gemv", lambda m, T: m.naive_gemv.compile(N=8192, K=8192, BLOCK_N=128,
                                                                          BLOCK_K=128)),
    ("GEMM + bias + GELU + residual, bf16, 4096^3", "gemm_epilogue",
     lambda m, T: m.matmul_bias_gelu(4096, 4096, 4096, 256, 256, 32)),
    ("conv 3x3, fp16, 8x56x56x256 -> 256", "convolution", lambda m, T: m.convolution.compile(
        N=8, C=256, H=56, W=56, F=256, K=3, S=1, D=1, P=1, block_M=128, block_N=128, block_K=32,
        num_stages=2, threads=128)),
]  # fmt: skip


def roofline_table() -> None:
    """Each family beside its roofline on Wormhole: the longer of its minimal DRAM traffic (each tensor moved
    once) at the chip's DRAM bandwidth and its matmul work at the HiFi4 peak, which names the bound, and the
    share of the modelled time that bound is."""
    import numpy as np
    import tilelang_tt.language as T

    import runtime_mock

    rng = np.random.default_rng(0)
    dram = runtime_mock.profile.peak_dram_gb_s("wormhole")
    peak = runtime_mock.profile.peak_tflops("wormhole", "HiFi4")
    print(f"device timing model, each family against its roofline, wormhole (DRAM {dram:.0f} GB/s, "
          f"{peak:.1f} TFLOPS HiFi4):")  # fmt: skip
    columns = ("ms", "DRAM ms", "math ms", "bound", "share")
    print(f"  {'program':44s} {'cores':>5s} " + " ".join(f"{c:>8s}" for c in columns))
    for label, name, build in ROOFLINE_FAMILIES:
        kernel = build(_example(name), T)
        profile = kernel.profile(*_inputs(kernel, rng))
        ms = profile.device_ms
        memory_ms = _minimal_bytes(kernel) / (dram * 1e9) * 1e3
        math_ms = profile.tflops * ms / peak  # the matmul tiles it ran, at the peak
        bound = "DRAM" if memory_ms >= math_ms else "math"
        cells = [
            f"{ms:.3f}",
            f"{memory_ms:.3f}",
            f"{math_ms:.3f}",
            bound,
            f"{100 * max(memory_ms, math_ms) / ms:.1f}%",
        ]
        print(f"  {label:44s} {kernel.cores_used:5d} " + " ".join(f"{c:>8s}" for c in cells))


# Flash attention forward as issue 24 measures it: (batch, heads, sequence, head dim), 128x128 blocks.
ATTENTION_SHAPES = [(1, 8, 1024, 128), (1, 8, 4096, 128)]

# tt-metal's published SDPA prefill on Blackhole (tt-metal #55756, 2026-09; ../shared/notes/
# hardware-performance.md): p100a (110 cores), S 4096, 32 query / 8 KV heads, head dim 128, bfp8 inputs,
# HiFi2, 128x128 chunks: device time in ms, causal and not.
PUBLISHED_SDPA_BLACKHOLE = {"causal": 1.835, "non-causal": 2.104}


# GEMMs on block-float inputs: (M, N, K, blocks, [(input dtype, math fidelity), ...]), Wormhole.
BLOCK_FLOAT_GEMMS = [
    (4096, 4096, 4096, (256, 256, 32), [(d, f) for d in ("bfloat16", "bfloat8_b", "bfloat4_b") for f in
                                        ("HiFi4", "HiFi2", "LoFi")]),
    (512, 4096, 4096, (64, 512, 32), [(d, "HiFi4") for d in ("bfloat16", "bfloat8_b", "bfloat4_b")]),
]  # fmt: skip


def block_float_table() -> None:
    """Modelled GEMMs with inputs stored as bfloat16, bfloat8_b and bfloat4_b, at the math fidelities the
    SDK pairs with them: ms, TFLOPS, % of the HiFi4 peak, and DRAM GB/s."""
    import numpy as np
    import tilelang_tt
    import tilelang_tt.language as T
    from tilelang_tt.arguments import NUMPY_DTYPES

    import runtime_mock

    rng = np.random.default_rng(0)
    peak = runtime_mock.profile.peak_tflops("wormhole", "HiFi4")
    print("device timing model, GEMM on block-float inputs (fp32 accumulation, bf16 result), wormhole:")
    print(f"  {'M x N x K':>16s} {'inputs':10s} {'fidelity':8s} {'ms':>8s} {'TFLOPS':>7s} {'% HiFi4':>8s} "
          f"{'GB/s':>7s}")  # fmt: skip
    for m, n, k, (bm, bn, bk), variants in BLOCK_FLOAT_GEMMS:
        for in_dtype, fidelity in variants:
            kernel = tilelang_tt.compile(_gemm(T, m, bm, bn, bk, n=n, k=k, in_dtype=in_dtype), out_idx=[-1],
                                         target="wormhole", math_fidelity=fidelity)  # fmt: skip
            a = rng.standard_normal((m, k)).astype(np.float32).astype(NUMPY_DTYPES[in_dtype])
            b = rng.standard_normal((k, n)).astype(np.float32).astype(NUMPY_DTYPES[in_dtype])
            profile = kernel.profile(a, b)
            ms, shape = profile.device_ms, f"{m}x{n}x{k}"
            tflops = 2 * m * n * k / (ms / 1e3) / 1e12
            share = 100 * tflops / peak
            print(f"  {shape:>16s} {in_dtype:10s} {fidelity:8s} {ms:8.3f} {tflops:7.1f} {share:7.1f}% "
                  f"{profile.dram_gb_s:7.1f}")  # fmt: skip


def _height_sharded(shards: int) -> dict:
    """Rows in ``shards`` runs, each core computing on its own (tile_id_order match_shard)."""
    return {
        "memory": "L1",
        "layout": "sharded",
        "nd_shard": {"axes": [0], "grid": [shards]},
        "tile_id_order": "match_shard",
    }


def sharded_table() -> None:
    """Modelled time of programs with a tensor sharded in L1 (annotate_tt_layout's nd_shard) beside the same
    program interleaved in DRAM: LayerNorm 8192x1024 bf16 on Wormhole, and the published Blackhole GEMM shape
    with A block-sharded over the 13x10 cores (as the published figure keeps it)."""
    import numpy as np
    import tilelang_tt
    import tilelang_tt.language as T

    rng = np.random.default_rng(0)
    print("device timing model, sharded L1 tensors against interleaved DRAM:")
    print(f"  {'program':66s} {'ms':>8s}")
    layer_norm = _example("layer_norm")._layernorm_fwd(8192, 1024).func
    gemm = _gemm(T, 2560, 256, 384, 32, n=4992, k=4992)
    block_sharded = {"memory": "L1", "layout": "sharded", "nd_shard": {"axes": [0, 1], "grid": [10, 13]}}
    single, blackhole = {"enable_double_buffer": False}, {"target": "blackhole"}
    l1_acc = {**blackhole, "packer_l1_acc": True}
    matched = {**block_sharded, "tile_id_order": "match_shard"}
    cases = [  # (label, function, layout hints, out_idx, compile options, GEMM: print the share of the peak)
        ("LayerNorm 8192x1024 bf16, wormhole, X interleaved", layer_norm, {}, [-3, -2, -1], {}, False),
        ("  the same, single-buffered CBs", layer_norm, {}, [-3, -2, -1], single, False),
        ("  X height-sharded over 64 cores (match_shard)", layer_norm,
         {"X": _height_sharded(64)}, [-3, -2, -1], {}, False),
        ("GEMM 2560x4992x4992, blackhole, A interleaved", gemm, {}, [-1], blackhole, True),
        ("  A block-sharded 10 x 13 over the cores", gemm, {"A": block_sharded}, [-1], blackhole, True),
        ("  the same, packer_l1_acc", gemm, {"A": block_sharded}, [-1], l1_acc, True),
        ("  C block-sharded (match_shard), packer_l1_acc", gemm, {"C": matched}, [-1], l1_acc, True),
        ("  A and C block-sharded, packer_l1_acc", gemm, {"A": block_sharded, "C": matched}, [-1], l1_acc,
         True),
    ]  # fmt: skip
    for label, func, hints, out_idx, options, is_gemm in cases:
        func = tilelang_tt.annotate_tt_layout(func, hints) if hints else func
        kernel = tilelang_tt.compile(func, out_idx=out_idx, **{"target": "wormhole", **options})
        profile = kernel.profile(*_inputs(kernel, rng))
        share = f"  {100 * profile.tflops / profile.peak_tflops:5.1f}% of peak" if is_gemm else ""
        print(f"  {label:66s} {profile.device_ms:8.3f}{share}")


def attention_table() -> None:
    """Modelled time of examples/flash_attention.py on Wormhole, causal and not: TFLOPS of the work done
    (causal does half), % of the HiFi4 peak, the partition chosen and the causal / full time ratio."""
    import runtime_mock

    module = _example("flash_attention")
    peak = runtime_mock.profile.peak_tflops("wormhole", "HiFi4")
    print("device timing model, flash attention forward bf16/fp16, 128x128 blocks, wormhole:")
    print(
        f"  {'B x H x S x D':>16s} {'causal':>6s} {'partition':>9s} {'ms':>8s} {'TFLOPS':>7s} {'% peak':>7s}"
    )
    for b, h, s, d in ATTENTION_SHAPES:
        full_ms = None
        for causal in (False, True):
            kernel = module.flashattn(b, h, s, s, d, causal, block_M=128, block_N=128, num_stages=2)
            ms = kernel.get_profiler().do_bench()
            flops = 4 * b * h * s * s * d * (0.5 if causal else 1.0)
            tflops = flops / (ms / 1e3) / 1e12
            ratio = f" ({ms / full_ms:.2f}x the full time)" if causal else ""
            full_ms = full_ms or ms
            order = kernel.plan["work_partition"]["tile_order"]
            print(
                f"  {f'{b}x{h}x{s}x{d}':>16s} {str(causal):>6s} {order:>9s} {ms:8.3f} {tflops:7.1f} "
                f"{100 * tflops / peak:6.1f}%{ratio}"
            )
    published_sdpa_table(module)


def published_sdpa_table(module) -> None:
    """examples/flash_attention.py at tt-metal's published Blackhole SDPA configuration, beside its figure.
    The configurations differ: the model's Blackhole is a p150 (130 cores), our inputs are fp16 (bfp8
    there) and every query head has its own K/V head (32 / 8 there: the same FLOPs, less K/V traffic)."""
    import tilelang_tt

    print("flash attention forward beside tt-metal's published SDPA (Blackhole, B1 H32 S4096 D128, HiFi2):")
    header = f"  {'':10s} {'partition':>10s} {'model ms':>9s} {'published ms':>13s}"
    print(header + "  (published: p100a, 110 cores, bfp8, GQA 32/8)")
    for causal in (True, False):
        func = module.flashattn.get_tir(
            1, 32, 4096, 4096, 128, causal, block_M=128, block_N=128, num_stages=2
        )
        published = PUBLISHED_SDPA_BLACKHOLE["causal" if causal else "non-causal"]
        for partition in ("auto", "row_major"):
            kernel = tilelang_tt.compile(
                func, out_idx=[3], target="blackhole", math_fidelity="HiFi2", partition=partition
            )
            label = "causal" if causal else "non-causal"
            order = kernel.plan["work_partition"]["tile_order"]
            ms = kernel.get_profiler().do_bench()
            print(f"  {label:10s} {order:>10s} {ms:9.3f} {published:13.3f}")


def families_table(repeat: int) -> None:
    """Mock-device call time of each family's example kernel next to its numpy reference."""
    import numpy as np
    from blas_info import blas_description

    import runtime_mock

    rounds = max(7, repeat)
    rng = np.random.default_rng(0)
    print(f"numpy BLAS: {blas_description()}")
    print(f"tile-program families on the mock device, median of {rounds} alternated rounds:")
    print(f"  {'family':16s} {'cores':>5s} {'mock ms':>9s} {'numpy ms':>9s} {'ratio':>7s}")
    for name in FAMILIES:
        module = _example(name)
        kernel = module.kernel
        inputs = _inputs(kernel, rng)
        kernel(*inputs)  # build and warm the kernel cache
        mock, ref = [], []
        for _ in range(rounds):
            t0 = time.perf_counter()
            kernel(*inputs)
            mock.append(time.perf_counter() - t0)
            # The call's memory is zeroed in the background: not beside numpy.
            runtime_mock.wait_for_scrubber()
            t1 = time.perf_counter()
            module.ref_program(*inputs)
            ref.append(time.perf_counter() - t1)
        m, r = statistics.median(mock) * 1000, statistics.median(ref) * 1000
        print(f"  {name:16s} {kernel.cores_used:5d} {m:9.2f} {r:9.2f} {m / r:6.1f}x")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=1024)
    parser.add_argument("--block", type=int, nargs=3, default=[128, 128, 32], metavar=("BM", "BN", "BK"))
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--target", default="wormhole")
    parser.add_argument("--no-run", action="store_true", help="skip the host build and the device run")
    parser.add_argument("--compile-table", action="store_true", help="compile times of four GEMM shapes")
    parser.add_argument("--families", action="store_true", help="tile-program examples next to numpy")
    parser.add_argument(
        "--all", action="store_true", help="every table the simulator's targets are stated on"
    )
    parser.add_argument("--model-table", action="store_true", help="modelled TFLOPS of GEMMs, both archs")
    parser.add_argument("--sdk-examples", type=Path, help="with --model-table: an SDK checkout's examples")
    args = parser.parse_args(argv)
    if args.model_table:
        model_table(args.sdk_examples)
        return 0
    if args.compile_table:
        compile_table(args.repeat, args.target)
        return 0
    if args.families:
        families_table(args.repeat)
        return 0
    if args.all:
        return everything(args)

    start = time.perf_counter()
    import ml_dtypes
    import numpy as np
    import tilelang_tt
    import tilelang_tt.language as T

    import runtime_mock

    print(f"import tilelang_tt (with TVM)       {time.perf_counter() - start:8.3f} s")
    size, (bm, bn, bk) = args.size, args.block
    func = _gemm(T, size, bm, bn, bk)
    kernels = [tilelang_tt.compile(func, out_idx=[-1], target=args.target) for _ in range(args.repeat)]
    print(
        f"\ncompile of a {size}^3 GEMM, blocks {bm}x{bn}x{bk}, median of {args.repeat} "
        "(first run separately):"
    )
    per_pass: dict[str, list[float]] = {}
    for k in kernels[1:] or kernels:
        for name, seconds in k.pass_timings:
            per_pass.setdefault(name, []).append(seconds)
    for name, values in per_pass.items():
        print(f"  {name:34s} {statistics.median(values) * 1000:8.2f} ms")
    rest = kernels[1:] or kernels
    print(
        f"  {'codegen (render, plan)':34s} "
        f"{statistics.median(k.codegen_seconds for k in rest) * 1000:8.2f} ms"
    )
    print(f"  {'total (median)':34s} {statistics.median(k.compile_seconds for k in rest) * 1000:8.2f} ms")
    print(f"  {'total (first compile)':34s} {kernels[0].compile_seconds * 1000:8.2f} ms")
    print(f"  cores used: {kernels[0].cores_used}, blocks: {kernels[0].plan['grid']['num_blocks']}")
    if args.no_run:
        return 0

    rng = np.random.default_rng(0)
    a = rng.standard_normal((size, size)).astype(ml_dtypes.bfloat16)
    b = rng.standard_normal((size, size)).astype(ml_dtypes.bfloat16)
    with tempfile.TemporaryDirectory() as cache:
        os.environ["TILELANG_TT_CACHE_DIR"] = cache
        os.environ["RUNTIME_MOCK_CACHE_DIR"] = os.path.join(cache, "kernels")
        cold = tilelang_tt.compile(func, out_idx=[-1], target=args.target)
        t0 = time.perf_counter()
        cold.build()
        t1 = time.perf_counter()
        c = cold(a, b)
        t2 = time.perf_counter()
        warm = tilelang_tt.compile(func, out_idx=[-1], target=args.target)
        t3 = time.perf_counter()
        warm.build()
        t4 = time.perf_counter()
        runs = []
        for _ in range(args.repeat):
            r0 = time.perf_counter()
            c = warm(a, b)
            runs.append(time.perf_counter() - r0)
        # A new shape of the same program (K doubled): its kernels are the same text, so only main.cpp builds.
        b2 = rng.standard_normal((2 * size, size)).astype(ml_dtypes.bfloat16)
        a2 = rng.standard_normal((size, 2 * size)).astype(ml_dtypes.bfloat16)
        n0 = time.perf_counter()
        new_shape = tilelang_tt.compile(
            _gemm(T, size, bm, bn, bk, k=2 * size), out_idx=[-1], target=args.target
        )
        n1 = time.perf_counter()
        new_shape.build()
        n2 = time.perf_counter()
        new_shape(a2, b2)
        n3 = time.perf_counter()
        new_runs = []
        for _ in range(args.repeat):
            r0 = time.perf_counter()
            new_shape(a2, b2)
            new_runs.append(time.perf_counter() - r0)
        ref_runs = []
        af, bf = a.astype(np.float32), b.astype(np.float32)
        runtime_mock.wait_for_scrubber()  # the last call's device memory is zeroed in the background
        for _ in range(args.repeat):
            r0 = time.perf_counter()
            ref = af @ bf
            ref_runs.append(time.perf_counter() - r0)
    err = float(np.abs(c.astype(np.float32) - ref).max() / np.abs(ref).max())
    print("\nhost program build + first run:")
    print(f"  {'host build, cold':34s} {t1 - t0:8.3f} s")
    print(f"  {'first run (kernel JIT, cold)':34s} {t2 - t1:8.3f} s")
    print(f"  {'host build, warm (cached)':34s} {t4 - t3:8.3f} s")
    new_run = statistics.median(new_runs)
    print(f"\na new shape of that program ({size}x{size}x{2 * size}, warm cache):")
    print(f"  {'compile':34s} {n1 - n0:8.3f} s")
    print(f"  {'host build':34s} {n2 - n1:8.3f} s")
    print(f"  {'first call - warm call (kernel JIT)':34s} {n3 - n2 - new_run:8.3f} s")
    print(f"  {'first call, total over a warm call':34s} {n3 - n0 - new_run:8.3f} s")
    print(f"\nexecution, median of {args.repeat}:")
    print(f"  {'mock device (' + args.target + ')':34s} {statistics.median(runs):8.3f} s")
    print(f"  {'numpy float32 matmul':34s} {statistics.median(ref_runs):8.3f} s")
    print(f"  max relative error vs numpy: {err:.2e}")
    return 0


def everything(args: argparse.Namespace) -> int:
    """--all: every table, in one process, each repetition count at least 7."""
    import resource

    import bench_runtime

    repeat = max(7, args.repeat)
    compile_table(repeat, args.target)
    print()
    main(["--size", str(args.size), "--block", *map(str, args.block), "--repeat", str(repeat)])
    print()
    families_table(repeat)
    with tempfile.TemporaryDirectory() as cache:
        os.environ["TILELANG_TT_CACHE_DIR"] = cache
        os.environ["RUNTIME_MOCK_CACHE_DIR"] = os.path.join(cache, "kernels")
        bench_runtime.compiled_gemms(repeat, large_repeat=3, small_repeat=21)
    print(f"\npeak RSS: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
