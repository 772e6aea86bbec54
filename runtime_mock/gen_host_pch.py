"""gen_host_pch OUT HEADER FLAGS_MODULE INCLUDE_DIR...: precompiles HEADER into OUT (its .gch) with the
flags FLAGS_MODULE (runtime_mock/host_flags.py) gives build_host_program, against the include roots."""

from __future__ import annotations

import importlib.util
import subprocess
import sys


def main(argv: list[str]) -> int:
    out, header, flags_module, *include_dirs = argv
    spec = importlib.util.spec_from_file_location("host_flags", flags_module)
    host_flags = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(host_flags)
    command = ["g++", *host_flags.compile_flags(host_flags.PRECOMPILED_STD)]
    command += [f"-I{d}" for d in include_dirs] + ["-x", "c++-header", header, "-o", out]
    return subprocess.run(command).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
