"""`bazel run //tools:compile -- FILE.py [--func NAME] [--target T] [--partition P] [--out DIR] [--run]
[--dump-ir DIR]`: compile the module-level PrimFuncs of a TileLang-TT program.

Writes reader.cpp, compute.cpp, writer.cpp, main.cpp and tt.plan.json per function (into DIR/<func>/
when the file has several), prints per-pass times, the artifacts written and the cores used. ``--run``
also executes each program on the mock device with random inputs and, when the file defines
``ref_program`` (TileLang's convention), checks the outputs against it. Relative paths are taken from
the directory bazel was run from ($BUILD_WORKING_DIRECTORY). Errors print as file:line:col with the DSL
line and a caret; the exit status is non-zero.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import time


def _path(p: str) -> str:
    base = os.environ.get("BUILD_WORKING_DIRECTORY", os.getcwd())
    return p if os.path.isabs(p) else os.path.normpath(os.path.join(base, p))


def _load(path: str):
    name = os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(f"tilelang_tt_cli_{name}", path)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, os.path.dirname(path))
    spec.loader.exec_module(module)
    return module


def _check(kernel, module, rng) -> str:
    import numpy as np
    from tilelang_tt.jit import NUMPY_DTYPES

    arrays = [
        rng.standard_normal(p["shape"]).astype(np.float32).astype(NUMPY_DTYPES[p["dtype"]])
        if p["access"] != "write"
        else np.zeros(p["shape"], NUMPY_DTYPES[p["dtype"]])
        for p in kernel.params
    ]
    start = time.perf_counter()
    kernel(*arrays)
    elapsed = time.perf_counter() - start
    ref_program = getattr(module, "ref_program", None)
    if ref_program is None:
        return f"ran in {elapsed:.2f}s (no ref_program to check against)"
    inputs = [a for a, p in zip(arrays, kernel.params, strict=False) if p["access"] != "write"]
    outputs = [a for a, p in zip(arrays, kernel.params, strict=False) if p["access"] == "write"]
    refs = ref_program(*inputs)
    refs = list(refs) if isinstance(refs, tuple | list) else [refs]
    worst = []
    for got, ref in zip(outputs, refs, strict=False):
        got, ref = np.asarray(got, dtype=np.float32), np.asarray(ref, dtype=np.float32)
        rel = float(np.abs(got - ref).max() / max(float(np.abs(ref).max()), 1e-30))
        pcc = float(np.corrcoef(got.ravel(), ref.ravel())[0, 1])
        worst.append((rel, pcc))
    rel, pcc = max(w[0] for w in worst), min(w[1] for w in worst)
    ok = rel < 1e-2 and pcc >= 0.999
    return f"{'PASS' if ok else 'FAIL'}: max rel err {rel:.2e}, PCC {pcc:.6f}, ran in {elapsed:.2f}s"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="compile", description=__doc__.split("\n\n")[0])
    parser.add_argument("file")
    parser.add_argument("--func", help="compile only this PrimFunc")
    parser.add_argument("--target", default="wormhole", help="grayskull | wormhole | blackhole")
    parser.add_argument("--partition", default="row_major", help="row_major | column_major | block")
    parser.add_argument("--out", default="tt_out", help="output directory (default: tt_out)")
    parser.add_argument("--run", action="store_true", help="run on the mock device and check ref_program")
    parser.add_argument("--dump-ir", help="write the IR after every pass into this directory")
    args = parser.parse_args(argv)

    import tilelang_tt
    import tvm
    from tilelang_tt.errors import TTError

    path = _path(args.file)
    try:
        module = _load(path)
    except TTError as err:
        print(err, file=sys.stderr)
        return 1
    funcs = {n: f for n, f in vars(module).items() if isinstance(f, tvm.tirx.PrimFunc)}
    if args.func:
        if args.func not in funcs:
            print(
                f"{args.file}: no PrimFunc named {args.func!r} (found: {', '.join(funcs) or 'none'})",
                file=sys.stderr,
            )
            return 1
        funcs = {args.func: funcs[args.func]}
    if not funcs:
        print(f"{args.file}: defines no module-level T.prim_func", file=sys.stderr)
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
        try:
            kernel = tilelang_tt.compile(func, target=args.target, partition=args.partition, dump_ir=dump)
            written = kernel.write_artifacts(out_dir)
            result = _check(kernel, module, rng) if args.run else "not run (pass --run)"
        except TTError as err:
            print(err, file=sys.stderr)
            status = 1
            continue
        print(
            f"{name}: {args.target}, partition {args.partition}, {kernel.cores_used} cores, "
            f"{kernel.plan['grid']['num_blocks']} blocks"
        )
        print(f"  {'pass':34s} {'ms':>8s}")
        for pass_name, seconds in kernel.pass_timings:
            print(f"  {pass_name:34s} {seconds * 1000:8.2f}")
        print(f"  {'codegen':34s} {kernel.codegen_seconds * 1000:8.2f}")
        print(f"  {'total':34s} {kernel.compile_seconds * 1000:8.2f}")
        base = os.environ.get("BUILD_WORKING_DIRECTORY", os.getcwd())
        shown = [os.path.relpath(w, base) if w.startswith(base + os.sep) else w for w in written]
        print("  artifacts: " + ", ".join(shown))
        print(f"  check: {result}")
        if result.startswith("FAIL"):
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
