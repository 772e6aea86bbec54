"""Builds one generated program with the real TT-Metalium runtime of the pinned release on a mock cluster.

    check_program.py DIR [DIR ...] --arch wormhole|blackhole [--keep-cache]

Runs under the interpreter of @sdk_venv (Python 3.12 with the ttnn wheel; bazel/sdk_venv.bzl), never under
the project's. Each DIR holds tt.plan.json and the kernels it names. Its program is described from the plan as
the runtime's own ProgramDescriptor (circular buffers, kernels, compile-time and runtime arguments, core
ranges, compute configuration; tensors allocated in DRAM as the plan places them) and launched with
ttnn.generic_op on a device opened through TT_METAL_MOCK_CLUSTER_DESC_PATH (a Wormhole n150 or Blackhole p150
descriptor next to this file). With no card the runtime dispatches nothing, but it validates the program
(CB sizes and pages, L1 capacity, core ranges, runtime-argument counts) and runs its JIT build: its
generated files and its own per-RISC compile commands, which the stand-in compiler (riscv_gxx_standin.py)
replays with the host g++ in -m32 -fsyntax-only mode.

Output per program: "OK <program>" or "FAIL <program>: <the runtime's message>", one line per RISC with
what its compiles gave (ok, error, or "not checked" where the compile needs the SFPI toolchain's own
headers, sfpi.h and lltt.h, which cannot be had here), and "== status N": 0 the runtime accepted the
program and no compile failed; 1 it raised (TT_THROW / TT_FATAL) or a compile failed; 2 the plan asks for
something this driver cannot describe. The exit status is the largest of them.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
CLUSTERS = {"wormhole": HERE / "wormhole_n150.yaml", "blackhole": HERE / "blackhole_p150.yaml"}
# ttnn has no Float16 DataType: a same-size stand-in keeps page sizes and addresses, but the JIT then sees
# Float16_b for those CBs.
DTYPES = {"float16": "bfloat16"}
ELEMENT_BYTES = {"float32": 4, "uint32": 4, "int32": 4, "uint8": 1}
# Ends each program's block of output, with its exit status.
STATUS_LINE = "== status"


class PlanError(Exception):
    """The plan asks for something this driver does not describe to the runtime."""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dirs", type=Path, nargs="+")
    parser.add_argument("--arch", choices=sorted(CLUSTERS), required=True)
    parser.add_argument("--keep-cache", action="store_true", help="keep the runtime's build folder")
    args = parser.parse_args()

    cache = Path(tempfile.mkdtemp(prefix="sdk-check-"))
    os.environ.update(
        # The runtime crashes (SIGSEGV) without a home folder, as under `bazel test`.
        HOME=os.environ.get("HOME") or str(cache),
        TT_METAL_MOCK_CLUSTER_DESC_PATH=str(CLUSTERS[args.arch]),
        TT_METAL_CACHE=str(cache),
        # TRISC firmware and compute kernels include the SFPI toolchain's headers: those compiles are
        # recorded as not checked instead of failing the build.
        SDK_CHECK_SFPI_MISSING="skip",
    )
    os.environ.setdefault("TT_LOGGER_LEVEL", "Error")
    os.environ.setdefault("LOGURU_LEVEL", "ERROR")
    os.chdir(cache)  # the runtime writes generated/ into the working directory
    import ttnn  # noqa: PLC0415 — only after the environment above is set

    worst = 0
    device = None
    try:
        for number, folder in enumerate(args.dirs):
            # Opening the device JIT-builds its firmware (most of a program's check): one device serves
            # every program, and a new one follows a failure.
            device = device or ttnn.open_device(device_id=0)
            status = check(ttnn, device, folder.resolve(), args.arch, cache / f"compiler-{number}.jsonl")
            if status != 0:
                ttnn.close_device(device)
                device = None
            print(f"{STATUS_LINE} {status}", flush=True)
            worst = max(worst, status)
    finally:
        if device is not None:
            ttnn.close_device(device)
        if args.keep_cache:
            print(f"build folder kept: {cache}")
        else:
            shutil.rmtree(cache, ignore_errors=True)
    return worst


def check(ttnn, device, folder: Path, arch: str, log: Path) -> int:
    """Builds one program on the open device; prints its result and its compiles; returns its exit status."""
    plan = json.loads((folder / "tt.plan.json").read_text())
    os.environ["SDK_CHECK_COMPILER_LOG"] = str(log)  # read by the stand-in compiler, one process per compile
    status = 0
    try:
        descriptor, tensors = describe(ttnn, device, plan, folder)
        ttnn.generic_op(tensors, descriptor)
        ttnn.synchronize_device(device)
        print(f"OK {plan['program']} ({arch})")
    except PlanError as e:
        print(f"FAIL {plan['program']}: the plan cannot be described to the runtime: {e}")
        status = 2
    except RuntimeError as e:  # TT_THROW / TT_FATAL
        print(f"FAIL {plan['program']} ({arch}): {without_backtrace(str(e))}")
        status = 1
    for line in compile_summary(log):
        print(line)
    return status


def without_backtrace(message: str, lines: int = 30) -> str:
    kept = [line for line in message.splitlines() if line.strip() and not line.lstrip().startswith("--- ")]
    kept = [line for line in kept if line.strip() != "backtrace:"]
    return "\n".join(kept[:lines])


def compile_summary(log: Path) -> list[str]:
    """One line per RISC of the kernels' compiles (firmware builds left out): ok, error or not checked."""
    if not log.exists():
        return []
    results: dict[str, set[str]] = {}
    for line in log.read_text().splitlines():
        record = json.loads(line)
        if record["step"] == "compile" and "-DKERNEL_BUILD" in record["argv"]:
            results.setdefault(record["proc"], set()).add(record["status"])
    names = {"ok": "ok", "error": "error", "sfpi-missing": "not checked (needs the SFPI headers)"}
    return [
        f"  {proc}: {', '.join(names[s] for s in sorted(statuses))}"
        for proc, statuses in sorted(results.items())
    ]


def data_type(ttnn, name: str):
    return getattr(ttnn, DTYPES.get(name, name))


def core_range_set(ttnn, ranges: list[dict]):
    return ttnn.CoreRangeSet(
        [ttnn.CoreRange(ttnn.CoreCoord(r["x0"], r["y0"]), ttnn.CoreCoord(r["x1"], r["y1"])) for r in ranges]
    )


def allocate(ttnn, device, tensor: dict):
    """The plan's tensor as a DRAM-interleaved ttnn tensor with the plan's page size."""
    if tensor["memory"] != "DRAM" or tensor["layout"] != "interleaved":
        raise PlanError(
            f"tensor {tensor['name']} is {tensor['memory']} {tensor['layout']}; only DRAM interleaved"
        )
    dtype = tensor["dtype"]
    if tensor["page_layout"] == "tile":
        shape, layout = [tensor["tiles"][0] * 32, tensor["tiles"][1] * 32], ttnn.TILE_LAYOUT
    elif tensor["page_layout"] == "table":  # a table (index or scalar): one page of 32-bit words
        shape, layout, dtype = [1, tensor["view"][1]], ttnn.ROW_MAJOR_LAYOUT, "uint32"
    else:  # a row-major page per row of the 2-D view
        row = tensor["page_size"] // ELEMENT_BYTES.get(tensor["dtype"], 2)
        shape, layout = [tensor["pages"], row], ttnn.ROW_MAJOR_LAYOUT
    return ttnn.empty(
        shape,
        dtype=data_type(ttnn, dtype),
        layout=layout,
        device=device,
        memory_config=ttnn.DRAM_MEMORY_CONFIG,
    )


def describe(ttnn, device, plan: dict, folder: Path):
    """The runtime's ProgramDescriptor of the plan, and the tensors generic_op takes (outputs last)."""
    tensors = {t["name"]: allocate(ttnn, device, t) for t in plan["tensors"]}
    cores = core_range_set(ttnn, plan["core_ranges"])
    cbs = [
        ttnn.CBDescriptor(
            total_size=cb["total_bytes"],
            core_ranges=cores,
            format_descriptors=[
                ttnn.CBFormatDescriptor(
                    buffer_index=cb["cb"], data_format=data_type(ttnn, cb["dtype"]), page_size=cb["page_size"]
                )
            ],
        )
        for cb in plan["circular_buffers"]
    ]
    kernels = [kernel_descriptor(ttnn, kernel, tensors, cores, folder) for kernel in plan["kernels"]]
    ordered = sorted(plan["tensors"], key=lambda t: (t["access"] == "write", t["param_index"]))
    return ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=cbs), [
        tensors[t["name"]] for t in ordered
    ]


def kernel_descriptor(ttnn, kernel: dict, tensors: dict, cores, folder: Path):
    if kernel.get("multicast"):
        raise PlanError(f"the {kernel['role']} multicasts: its semaphores are not in the plan")
    compile_time = []
    for arg in sorted(kernel["compile_time_args"], key=lambda a: a["offset"]):
        if arg["kind"] != "tensor_accessor":
            raise PlanError(f"compile-time argument kind {arg['kind']!r}")
        # The release's own accessor words (two per interleaved buffer); kernels chain
        # next_compile_time_args_offset(), so the plan's one-word offsets only give the order.
        compile_time += list(ttnn.TensorAccessorArgs(tensors[arg["tensor"]]).get_compile_time_args())
    runtime = []
    for per_core in kernel["core_runtime_args"]:
        values = []
        for value in per_core["values"]:
            if isinstance(value, str) and value.startswith("addr:"):
                values.append(tensors[value.removeprefix("addr:")].buffer_address())
            elif isinstance(value, int):
                values.append(value & 0xFFFFFFFF)
            else:
                raise PlanError(f"runtime argument {value!r}")
        runtime.append((ttnn.CoreCoord(*per_core["core"]), values))
    if kernel["processor"] == "TRISC":
        config = kernel.get("compute_config", {})
        kernel_config = ttnn.ComputeConfigDescriptor(
            math_fidelity=getattr(ttnn.MathFidelity, config.get("math_fidelity", "HiFi4")),
            math_approx_mode=config.get("math_approx_mode", False),
            fp32_dest_acc_en=config.get("fp32_dest_acc_en", False),
            dst_full_sync_en=config.get("dst_full_sync_en", False),
        )
    else:
        kernel_config = ttnn.DataMovementConfigDescriptor(
            processor=getattr(ttnn.DataMovementProcessor, kernel["processor"]),
            noc=getattr(ttnn.NOC, kernel["noc"] or kernel["processor"] + "_default"),
        )
    return ttnn.KernelDescriptor(
        kernel_source=str(folder / kernel["file"]),
        source_type=ttnn.KernelDescriptor.SourceType.FILE_PATH,
        core_ranges=cores,
        compile_time_args=compile_time,
        runtime_args=runtime,
        config=kernel_config,
    )


if __name__ == "__main__":
    sys.exit(main())
