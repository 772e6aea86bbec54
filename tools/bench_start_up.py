"""How long a newcomer waits: ``python examples/gemm.py`` cold and warm, and ``import tilelang_tt``.

    ./bazelw run //tools:bench_start_up -- [--repeat 7]

Runs, each as a fresh process with the build's interpreter and the package on its path, in a scratch
cache directory:
- cold: every cache empty (the compile, the host program's build, the device's kernel builds);
- warm: the same command again, every cache built: the median and the range of ``--repeat`` runs. The
  kernel comes from the kernel cache, so TVM is not imported (the run says whether it was);
- ``import tilelang_tt, tilelang_tt.language`` alone, and with TVM's import (the first DSL name), for scale.
Wall times of whole processes, as ``time python examples/gemm.py`` reports them.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

EXAMPLE = Path(__file__).absolute().parent.parent / "examples" / "gemm.py"
# The example, then whether it imported TVM.
PROBE = "\n".join(
    [
        "import runpy, sys",
        "try:",
        "    runpy.run_path(sys.argv[1], run_name='__main__')",
        "except SystemExit as e:",
        "    code = e.code",
        "print('tvm imported:', 'tvm' in sys.modules)",
        "sys.exit(code)",
    ]
)


def _wall(argv: list[str], env: dict[str, str]) -> tuple[float, str]:
    start = time.perf_counter()
    result = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({result.returncode}):\n{result.stdout}{result.stderr}")
    return seconds, result.stdout.strip()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=7, help="warm runs (default 7)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="tilelang_tt_start_up_") as cache:
        env = {**os.environ, "TILELANG_TT_CACHE_DIR": cache, "RUNTIME_MOCK_CACHE_DIR": f"{cache}/kernels"}
        print(f"python {sys.version.split()[0]} ({sys.executable})")
        cold, output = _wall([sys.executable, "-c", PROBE, str(EXAMPLE)], env)
        print(f"cold  python examples/gemm.py  {cold:6.2f} s   ({output.splitlines()[-1]})")
        warm = []
        for _ in range(args.repeat):
            seconds, output = _wall([sys.executable, str(EXAMPLE)], env)
            warm.append(seconds)
        _, probe = _wall([sys.executable, "-c", PROBE, str(EXAMPLE)], env)
        print(
            f"warm  python examples/gemm.py  {statistics.median(warm):6.2f} s median of {len(warm)} "
            f"(min {min(warm):.2f}, max {max(warm):.2f})   ({probe.splitlines()[-1]})"
        )
        print(f"      its output: {output.splitlines()[-1]}")
        for label, code in (
            ("import tilelang_tt, tilelang_tt.language", "import tilelang_tt, tilelang_tt.language"),
            ("the same, and TVM (T.prim_func)", "import tilelang_tt.language as T; T.prim_func"),
        ):
            times = [_wall([sys.executable, "-c", code], env)[0] for _ in range(3)]
            print(f"      {label:42s} {statistics.median(times):6.2f} s median of 3 (whole process)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
