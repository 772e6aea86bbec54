"""Export the programs of a file written for upstream TileLang as TVMScript, for TileLang-TT to compile.

    <python with upstream tilelang>/bin/python tools/upstream_export.py PROGRAM.py [--out DIR]
    ./bazelw run //tools:compile -- DIR/<name>.tvmscript --run      # compile and run it on the mock device

Run with the interpreter of a virtualenv that has upstream ``tilelang`` (``pip install tilelang==0.1.15
torch==2.13.0``; it cannot share ours, README "Upstream TileLang"). The program file is imported as it
is, with its own ``import tilelang``; each module-level ``T.prim_func`` is written to
``DIR/<variable name>.tvmscript`` with ``func.script()``, upstream's own printer. Nothing of TileLang-TT is
imported here: the other side of the bridge is ``tilelang_tt.upstream_import``.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("program", type=Path)
    parser.add_argument("--out", type=Path, default=Path("."), help="directory for the .tvmscript files")
    args = parser.parse_args(argv)
    spec = importlib.util.spec_from_file_location(args.program.stem, args.program)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(args.program.parent))
    spec.loader.exec_module(module)
    from tvm import tirx as prim_funcs  # upstream's bundled TVM, importable once tilelang is

    args.out.mkdir(parents=True, exist_ok=True)
    written = 0
    for name, value in vars(module).items():
        if isinstance(value, prim_funcs.PrimFunc):
            target = args.out / f"{name}.tvmscript"
            target.write_text(value.script())
            print(f"{target}")
            written += 1
    if not written:
        print(f"{args.program} has no module-level T.prim_func", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
