"""Builds an SDK-style TT-Metalium host program against the shim and runs it on the mock device.

Usage (paths are relative to the directory bazel was run from)::

    ./bazelw run //tools:run_sdk_program -- [--kernel-root DIR] [--arch ARCH] [-I DIR]... \\
        [-D NAME=VALUE]... [--profile [--fidelity F]] [--trace OUT.json] HOST.cpp... [-- ARGS...]

--kernel-root DIR sets $TT_METAL_KERNEL_PATH: CreateKernel looks for relative kernel paths in the
working directory, then there, then in $TT_METAL_HOME (like the SDK). -D NAME=VALUE defines a macro;
a VALUE that is not a number, an identifier or already a string literal is passed as a string literal,
so ``-D OVERRIDE_KERNEL_PREFIX="tt_metal/programming_examples/"`` works as typed in a shell. The
program's output is shown as it runs and the exit status is main's; an exception escaping main is
reported (a crashing kernel as KernelFaultError, with its core, RISC, file and line) and exits
with status 134, like the abort of a real executable.

--profile models the device time of every run the program makes (runtime_mock.profiling) and prints the
summary after the program's output: per core and RISC busy and waiting time, achieved TFLOPS and DRAM
GB/s against the arch's peak (at --fidelity, default HiFi4), the bottleneck. --trace OUT.json also writes
the runs' Chrome trace (open it in https://ui.perfetto.dev); it implies --profile.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import sys
from pathlib import Path

import runtime_mock

_VERBATIM = re.compile(r'^(".*"|[-+]?[0-9][0-9A-Za-z.\']*|[A-Za-z_][A-Za-z0-9_:]*)$')


def macro_value(value: str) -> str:
    """VALUE as the compiler should see it (see the module docstring)."""
    if _VERBATIM.match(value):
        return value
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'


def parse_args(argv: list[str]) -> tuple[argparse.Namespace, list[str]]:
    program_args: list[str] = []
    if "--" in argv:
        split = argv.index("--")
        argv, program_args = argv[:split], argv[split + 1 :]
    parser = argparse.ArgumentParser(prog="run_sdk_program", description=__doc__.split("\n")[0])
    parser.add_argument(
        "--kernel-root", type=Path, help="root for relative kernel paths ($TT_METAL_KERNEL_PATH)"
    )
    parser.add_argument("--arch", choices=["wormhole", "blackhole"], help="arch of the mock device")
    parser.add_argument("-I", dest="include_dirs", action="append", default=[], type=Path, help="include dir")
    parser.add_argument("-D", dest="defines", action="append", default=[], help="NAME=VALUE or NAME")
    parser.add_argument("--profile", action="store_true", help="print the timing model's summary")
    parser.add_argument(
        "--fidelity",
        choices=runtime_mock.profile.FIDELITIES,
        default="HiFi4",
        help="math fidelity of the peak",
    )
    parser.add_argument("--trace", type=Path, help="write the runs' Chrome trace here (implies --profile)")
    parser.add_argument("sources", nargs="+", type=Path, help="host program .cpp files")
    return parser.parse_args(argv), program_args


def main(argv: list[str]) -> int:
    os.chdir(os.environ.get("BUILD_WORKING_DIRECTORY", os.getcwd()))
    args, program_args = parse_args(argv)
    defines = {}
    for define in args.defines:
        name, _, value = define.partition("=")
        defines[name] = macro_value(value) if value else "1"
    if args.kernel_root is not None:
        os.environ["TT_METAL_KERNEL_PATH"] = str(args.kernel_root.resolve())
    if args.arch is not None:
        runtime_mock.set_default_arch(args.arch)
    try:
        so_path = runtime_mock.build_host_program(args.sources, args.include_dirs, defines)
    except (RuntimeError, FileNotFoundError) as error:
        print(f"run_sdk_program: {error}", file=sys.stderr)
        return 1
    profiled = args.profile or args.trace is not None
    with runtime_mock.profiling() if profiled else contextlib.nullcontext() as session:
        status = _run_main(so_path, program_args)
    if profiled:
        print(runtime_mock.profile.summary(session, args.fidelity))
        if args.trace is not None:
            runtime_mock.profile.write_chrome_trace(session, args.trace)
            print(f"run_sdk_program: trace of {len(session.runs)} runs written to {args.trace}")
    return status


def _run_main(so_path: Path, program_args: list[str]) -> int:
    try:
        return runtime_mock.HostProgram(so_path).main(program_args)
    except Exception as error:  # any exception escaping main ends the program
        print(
            f"run_sdk_program: main() ended with an uncaught exception ({type(error).__name__}):",
            file=sys.stderr,
        )
        print(error, file=sys.stderr)
        return 134


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
