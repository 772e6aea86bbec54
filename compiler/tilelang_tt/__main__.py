"""``python -m tilelang_tt --version``: the installed version and the TT-Metalium SDK commit its shim follows.

Compiling a program from the command line is ``python my_program.py`` (an example runs and checks itself,
see examples/gemm.py) or, in the repository, ``./bazelw run //tools:compile -- FILE.py --run``.
"""

from __future__ import annotations

import argparse

from .version import describe


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tilelang_tt", description=__doc__.split("\n\n")[0])
    parser.add_argument("--version", action="version", version=describe())
    parser.parse_args(argv)
    parser.print_help()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
