"""`./bazelw run //tools/sdk_check -- DIR [DIR ...] [--arch wormhole|blackhole]`: checks generated programs
against the released TT-Metalium runtime (the version in SDK_RELEASE), with no card.

Each DIR is a folder `tools/compile` (or `kernel.write_artifacts`) wrote: tt.plan.json beside reader.cpp,
compute.cpp, writer.cpp; a folder holding one such folder per function is taken whole. Each program is built
by the real runtime on a mock device of the arch it was compiled for (its plan's target, or --arch):
program, circular-buffer, L1, core-range and argument validation, and the real JIT build of every kernel
with the runtime's own per-RISC compile commands, replayed with the host g++ (check_program.py). Prints
one PASS/FAIL block per program, then "N passed, N failed"; the exit status is 1 when any failed.

BRISC and NCRISC kernels are checked in full. Compute kernels are checked where the host can compile them
without the SFPI toolchain's headers: TRISC2 (pack) on Wormhole for kernels that use no SFPU; TRISC0/1,
SFPU kernels and every Blackhole TRISC are reported "not checked".
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

DRIVER = Path(__file__).resolve().parent / "check_program.py"
STATUS_LINE = "== status"  # check_program.py's end of a program's output
TARGET_ARCH = {"wormhole": "wormhole", "blackhole": "blackhole"}


@dataclass
class Result:
    folder: Path
    arch: str
    status: int  # check_program's exit status
    output: str

    @property
    def passed(self) -> bool:
        return self.status == 0


def program_folders(folder: Path) -> list[Path]:
    """`folder` when it holds a plan, else its subfolders that do, in name order."""
    if (folder / "tt.plan.json").exists():
        return [folder]
    found = sorted(p.parent for p in folder.glob("*/tt.plan.json"))
    if not found:
        raise SystemExit(f"sdk_check: {folder} holds no tt.plan.json (nor do its subfolders)")
    return found


def plan_arch(folder: Path) -> str:
    target = json.loads((folder / "tt.plan.json").read_text())["target"]["name"]
    if target not in TARGET_ARCH:
        raise SystemExit(
            f"sdk_check: {folder} targets {target}, which the release's mock cluster does not model"
        )
    return TARGET_ARCH[target]


def check_all(folders: list[Path], arch: str, sdk_python: Path, timeout: float = 900) -> list[Result]:
    """Runs check_program.py on program folders of one arch (one runtime process, one device)."""
    run = subprocess.run(
        [str(sdk_python), str(DRIVER), *map(str, folders), "--arch", arch],
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    # "<output of program 0>== status N0\n<output of program 1>== status N1\n...": after the first, each
    # piece starts with the status of the program before it.
    pieces = run.stdout.split(STATUS_LINE)
    blocks = [pieces[0]] + [piece.split("\n", 1)[1] if "\n" in piece else "" for piece in pieces[1:]]
    results = []
    for folder, block, after in zip(folders, blocks, pieces[1:], strict=False):
        status = int(after.split("\n", 1)[0])
        results.append(Result(folder, arch, status, block.strip()))
    if len(results) < len(folders):  # the runtime itself failed: every program left gets its output
        output = (blocks[-1] + run.stderr).strip() or f"check_program.py exited with status {run.returncode}"
        results += [Result(f, arch, run.returncode or 1, output) for f in folders[len(results) :]]
    return results


def check(folder: Path, arch: str, sdk_python: Path) -> Result:
    """check_all for one program folder."""
    return check_all([folder], arch, sdk_python)[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dirs", nargs="+", type=Path)
    parser.add_argument(
        "--arch", choices=sorted(set(TARGET_ARCH.values())), help="default: each plan's target"
    )
    parser.add_argument("--sdk-python", type=Path, required=True, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    base = Path(os.environ.get("BUILD_WORKING_DIRECTORY", "."))
    folders = [
        f for given in args.dirs for f in program_folders(given if given.is_absolute() else base / given)
    ]
    by_arch: dict[str, list[Path]] = {}
    for folder in folders:
        by_arch.setdefault(args.arch or plan_arch(folder), []).append(folder)
    results = []
    for arch, arch_folders in by_arch.items():
        for result in check_all(arch_folders, arch, args.sdk_python.absolute()):
            print(f"{'PASS' if result.passed else 'FAIL'} {result.folder} ({result.arch})")
            print("\n".join("    " + line for line in result.output.splitlines()))
            results.append(result)
    passed = sum(r.passed for r in results)
    print(f"{passed} passed, {len(results) - passed} failed")
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
