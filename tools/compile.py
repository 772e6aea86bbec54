"""`bazel run //tools:compile -- FILE.py [--func NAME [--args ARGS]] [--target T] [--partition P]
[--math-fidelity F] [--out DIR] [--run [--schedules N]] [--profile [--trace FILE]] [--dump-ir DIR]`:
compile the kernels of a TileLang-TT program.

The kernels of a file are its module-level objects of three kinds: PrimFuncs (``@T.prim_func``), compiled
kernels (``kernel = tilelang.compile(...)`` or ``matmul(1024, 1024, ...)``: a JITKernel, recompiled here
with its own out_idx and target unless --target/--partition/--math-fidelity say otherwise), and
``@tilelang.jit`` factories, classic or eager. A factory is built with its default arguments, or with
``--func NAME --args ARGS``, where ARGS is a call's argument list of Python literals (an ``@autotune``d
factory is compiled as its arguments give, not tuned):

    compile.py gemm.py --func matmul --args "256, 256, 128, 64, 64, 32"
    compile.py gemm.py --func matmul --args "M=256, N=256, K=128, block_M=64, block_N=64, block_K=32"

(an eager factory takes its T.const values by keyword; its tensor parameters are left out). Without
--func, factories whose parameters have no defaults are skipped with a note, and named when nothing else
is left to compile.

FILE may also be a ``.tvmscript`` file that tools/upstream_export.py wrote from a program of upstream
TileLang (``tilelang_tt.upstream_import``); its one PrimFunc goes by the file's name.

Writes reader.cpp, compute.cpp, writer.cpp, main.cpp and tt.plan.json per function (into DIR/<func>/
when the file has several; a function of several T.Kernel blocks writes one DIR/<program>/ per block),
prints per-pass times, the artifacts written and the cores used. ``--run``
also executes each program on the mock device with random inputs and, when the file defines
``ref_program`` (TileLang's convention), checks the outputs against it; parameters of ``ref_program`` past
the kernel's inputs take the factory's arguments of the same name. Relative paths are taken from
the directory bazel was run from ($BUILD_WORKING_DIRECTORY). Errors print as file:line:col with the DSL
line and a caret; the exit status is non-zero.

``--schedules N`` (with ``--run``) repeats the check under N seeded kernel interleavings (seeds 0 to N-1,
``runtime_mock.schedules``) on the same inputs and names the first seed that fails, so a failure that
depends on the interleaving becomes a command to replay.

``--profile`` runs each program once more under the device timing model (random inputs) and prints its
modelled time, the busy and wait breakdown of every core's RISCs, TFLOPS and DRAM GB/s against the
target's peak and the bottleneck; it writes a Chrome trace-event file Perfetto's UI opens
(``--trace FILE``, default DIR/trace.json).
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import os
import sys
import types


def _path(p: str) -> str:
    base = os.environ.get("BUILD_WORKING_DIRECTORY", os.getcwd())
    return p if os.path.isabs(p) else os.path.normpath(os.path.join(base, p))


def _load(path: str):
    """The program file as a module; a ``.tvmscript`` file exported from upstream TileLang
    (tools/upstream_export.py) as a module holding its PrimFunc under the file's name. The kernel cache is
    off while a program loads: the CLI compiles every module-level kernel itself."""
    from tilelang_tt import config

    os.environ[config.KERNEL_CACHE_VARIABLE] = "0"
    name = os.path.splitext(os.path.basename(path))[0]
    if path.endswith(".tvmscript"):
        from tilelang_tt import upstream_import

        module = types.ModuleType(name)
        setattr(module, name, upstream_import.parse_file(path))
        return module
    spec = importlib.util.spec_from_file_location(f"tilelang_tt_cli_{name}", path)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, os.path.dirname(path))
    spec.loader.exec_module(module)
    return module


def _call_args(text: str) -> tuple[list, dict]:
    """--args "1, 2, block_M=64" → ([1, 2], {"block_M": 64}); each argument must be a Python literal."""
    source = f"f({text})"
    try:
        call = ast.parse(source, mode="eval").body
    except SyntaxError as err:
        raise ValueError(f"--args {text!r} is not an argument list: {err.msg}") from None

    def literal(node):
        try:
            return ast.literal_eval(node)
        except ValueError:
            raise ValueError(
                f"--args: {ast.get_source_segment(source, node)} is not a Python literal "
                f"(numbers, strings, tuples, lists, True/False/None)"
            ) from None

    return [literal(a) for a in call.args], {k.arg: literal(k.value) for k in call.keywords}


def _kernels(module) -> dict:
    """The module-level PrimFuncs, JITKernels and tilelang.jit factories of ``module``, once each (an
    ``@autotune``d factory as its factory: the CLI compiles the config its arguments give)."""
    from tilelang_tt.autotuner import TunedFactory
    from tilelang_tt.factory import KernelFactory
    from tilelang_tt.jit import CompiledKernel
    from tvm import tirx

    found, seen = {}, set()
    for name, value in vars(module).items():
        value = value.factory if isinstance(value, TunedFactory) else value
        if isinstance(value, tirx.PrimFunc | CompiledKernel | KernelFactory) and id(value) not in seen:
            found[name] = value
            seen.add(id(value))
    return found


def _compile(item, call_args, options: dict):
    """A compiled kernel for one module-level object, with the CLI's ``options`` (target, partition,
    math_fidelity, packer_l1_acc, dump_ir)."""
    import tilelang_tt
    from tilelang_tt.factory import KernelFactory
    from tilelang_tt.jit import CompiledKernel

    if isinstance(item, KernelFactory):  # its decorator's settings, overridden by the options given
        args, kwargs = call_args
        given = {k: v for k, v in options.items() if v is not None}
        return item.compile_fn(item.get_tir(*args, **kwargs), **given)
    if isinstance(item, CompiledKernel):
        options = {
            "target": options.get("target") or item.options.target,
            "partition": options.get("partition") or item.options.partition,
            "enable_double_buffer": item.options.enable_double_buffer,
            "enable_prefetch": item.options.enable_prefetch,
            "math_fidelity": options.get("math_fidelity") or item.options.math_fidelity,
            "packer_l1_acc": options.get("packer_l1_acc") or item.options.packer_l1_acc,
            "dump_ir": options.get("dump_ir"),
        }
        return tilelang_tt.compile(item.func, out_idx=list(item.options.out_idx) or None, **options)
    return tilelang_tt.compile(item, **options)


def _needs_arguments(item) -> str | None:
    """For a factory that cannot be built from its defaults: the parameters that need values."""
    import inspect

    from tilelang_tt.eager import EagerKernelFactory
    from tilelang_tt.factory import KernelFactory

    if not isinstance(item, KernelFactory):
        return None
    skip = set(item.tensor_params) if isinstance(item, EagerKernelFactory) else set()
    missing = [
        n
        for n, p in item.signature.parameters.items()
        if p.default is inspect.Parameter.empty and n not in skip
    ]
    if isinstance(item, EagerKernelFactory) and not missing:
        missing = item.const_names()  # sizes only tensors or --args give
    return ", ".join(missing) or None


def _reference(module, item, call_args, kernel):
    """The module's ``ref_program``, with the parameters it takes beyond the kernel's inputs bound by name
    to the factory's arguments (upstream's ``ref_program(Q, K, V, is_causal)`` beside
    ``flashattn(..., is_causal, ...)``); None when the module has none."""
    import functools
    import inspect

    from tilelang_tt.factory import KernelFactory

    ref_program = getattr(module, "ref_program", None)
    if ref_program is None or not isinstance(item, KernelFactory):
        return ref_program
    named = item.given(*call_args, with_defaults=True)
    inputs = len(kernel.params) - len(kernel.out_idx or [])
    extra = list(inspect.signature(ref_program).parameters)[inputs:]
    given = {name: named[name] for name in extra if name in named}
    return functools.partial(ref_program, **given) if given else ref_program


def _check_schedules(kernel, ref_program, schedules: int) -> str:
    """The --run check under seeds 0..schedules-1 (runtime_mock.schedules), each on the same inputs: the
    first failing seed, with the command to replay it, or the last result when all passed."""
    import numpy as np
    import tilelang_tt

    import runtime_mock

    results = []

    def check() -> None:
        result = tilelang_tt.check_against_reference(kernel, ref_program, np.random.default_rng(0))
        if result.passed is False:
            raise AssertionError(str(result))
        results.append(result)

    failure = runtime_mock.first_failing_schedule(check, schedules)
    if failure is not None:
        seed, error = failure
        return f"FAIL under schedule seed {seed} (replay with RUNTIME_MOCK_SCHEDULE_SEED={seed}): {error}"
    return f"{results[-1]}, under each of {schedules} seeded schedules"


def _describe(label: str, program) -> None:
    """Print a compiled program's target, partition, cores and per-pass compile times."""
    partition = program.plan["work_partition"]["tile_order"]  # what "auto" chose
    if program.options.partition == "auto":
        partition += " (auto)"
    print(
        f"{label}: {program.options.target}, partition {partition}, "
        f"{program.cores_used} cores, {program.plan['grid']['num_blocks']} blocks"
    )
    print(f"  {'pass':34s} {'ms':>8s}")
    for pass_name, seconds in program.pass_timings:
        print(f"  {pass_name:34s} {seconds * 1000:8.2f}")
    print(f"  {'codegen':34s} {program.codegen_seconds * 1000:8.2f}")
    print(f"  {'total':34s} {program.compile_seconds * 1000:8.2f}")


def _profile(kernel, trace: str | None, out_dir: str, several: bool) -> int:
    """Print the modelled timing of one call and write its trace; 1 when the kernel cannot run."""
    from tilelang_tt.errors import TTError

    try:
        profile = kernel.profile()
    except TTError as err:
        print(err, file=sys.stderr)
        return 1
    path = os.path.join(out_dir, "trace.json") if trace is None or several else _path(trace)
    profile.write_trace(path)
    print(f"  modelled: {profile.device_ms:.4f} ms, {profile.tflops:.2f} TFLOPS of {profile.peak_tflops:.1f}")
    print("  " + profile.summary().replace("\n", "\n  "))
    print(f"  trace: {path} (open in https://ui.perfetto.dev)")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="compile", description=__doc__.split("\n\n")[0])
    parser.add_argument("file")
    parser.add_argument("--func", help="compile only this PrimFunc, kernel or tilelang.jit factory")
    parser.add_argument(
        "--args", help='arguments of the --func factory, as in a call: "256, 256, block_M=64"'
    )
    parser.add_argument(
        "--target", help="grayskull | wormhole | blackhole (default: a kernel's own target, else wormhole)"
    )
    parser.add_argument(
        "--partition", help="auto | row_major | column_major | z_order | block | balanced (default: auto)"
    )
    parser.add_argument(
        "--math-fidelity", help="LoFi | HiFi2 | HiFi3 | HiFi4 (default: a kernel's own, else HiFi4)"
    )
    parser.add_argument(
        "--packer-l1-acc",
        action="store_true",
        default=None,
        help="GEMM partial sums accumulate in L1 by the packer (the SDK's packer_l1_acc)",
    )
    parser.add_argument("--out", default="tt_out", help="output directory (default: tt_out)")
    parser.add_argument("--run", action="store_true", help="run on the mock device and check ref_program")
    parser.add_argument(
        "--schedules",
        type=int,
        metavar="N",
        help="with --run: check under N seeded kernel interleavings (seeds 0..N-1), naming the first failing",
    )
    parser.add_argument("--dump-ir", help="write the IR after every pass into this directory")
    parser.add_argument("--profile", action="store_true", help="model the device time of one call")
    parser.add_argument("--trace", help="Chrome trace of the profiled call (default: OUT/trace.json)")
    args = parser.parse_args(argv)

    import tilelang_tt
    from tilelang_tt.errors import TTError

    path = _path(args.file)
    try:
        call_args = _call_args(args.args) if args.args is not None else ([], {})
    except ValueError as err:
        print(f"compile: {err}", file=sys.stderr)
        return 2
    if args.schedules is not None and (not args.run or args.schedules < 1):
        print("compile: --schedules N (N >= 1) repeats the --run check; pass --run too", file=sys.stderr)
        return 2
    if args.args is not None and not args.func:
        print("compile: --args gives the arguments of the factory named by --func", file=sys.stderr)
        return 2
    try:
        module = _load(path)
    except TTError as err:
        print(err, file=sys.stderr)
        return 1
    funcs = _kernels(module)
    if args.func:
        if args.func not in funcs:
            print(
                f"{args.file}: no PrimFunc, kernel or tilelang.jit factory named {args.func!r} "
                f"(found: {', '.join(funcs) or 'none'})",
                file=sys.stderr,
            )
            return 1
        funcs = {args.func: funcs[args.func]}
    skipped = {n: m for n, f in funcs.items() if args.args is None and (m := _needs_arguments(f))}
    for name, missing in skipped.items():
        del funcs[name]
        print(
            f"{args.file}: skipping factory {name}: {missing} need values; "
            f"compile it with --func {name} --args '...'",
            file=sys.stderr,
        )
    if not funcs:
        if not skipped:
            print(
                f"{args.file}: defines no module-level T.prim_func, kernel or tilelang.jit factory",
                file=sys.stderr,
            )
        return 1
    out_root = _path(args.out)
    import numpy as np

    rng = np.random.default_rng(0)
    status = 0
    for name, func in funcs.items():
        out_dir = out_root if len(funcs) == 1 else os.path.join(out_root, name)
        dump = (
            None
            if not args.dump_ir
            else (_path(args.dump_ir) if len(funcs) == 1 else os.path.join(_path(args.dump_ir), name))
        )
        options = {
            "target": args.target,
            "partition": args.partition,
            "math_fidelity": args.math_fidelity,
            "packer_l1_acc": args.packer_l1_acc,
            "dump_ir": dump,
        }
        try:
            kernel = _compile(func, call_args, options)
            written = kernel.write_artifacts(out_dir)
            ref_program = _reference(module, func, call_args, kernel)
            if not args.run:
                result = "not run (pass --run)"
            elif args.schedules:
                result = _check_schedules(kernel, ref_program, args.schedules)
            else:
                result = str(tilelang_tt.check_against_reference(kernel, ref_program, rng))
        except (TTError, TypeError) as err:
            print(err, file=sys.stderr)
            status = 1
            continue
        for program in kernel.programs:  # one per T.Kernel block of the function
            _describe(name if len(kernel.programs) == 1 else f"{name}: {program.name}", program)
        base = os.environ.get("BUILD_WORKING_DIRECTORY", os.getcwd())
        shown = [os.path.relpath(w, base) if w.startswith(base + os.sep) else w for w in written]
        print("  artifacts: " + ", ".join(shown))
        print(f"  check: {result}")
        if result.startswith("FAIL"):
            status = 1
        if args.profile:
            status |= _profile(kernel, args.trace, out_dir, len(funcs) > 1)
    return status


if __name__ == "__main__":
    sys.exit(main())
