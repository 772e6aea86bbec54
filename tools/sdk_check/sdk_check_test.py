"""The real-runtime check (sdk_check): every example program, compiled for Wormhole and for Blackhole, is
accepted by the released TT-Metalium runtime on a mock n150 / p150 (its validation and its JIT build, with
no compile failing on BRISC, NCRISC or TRISC2); seeded mistakes are each rejected by it with the runtime's
own message; and the lock file pins the release SDK_RELEASE names."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tools.sdk_check import sdk_check

SDK_PYTHON = Path(os.environ["SDK_PYTHON"]).absolute()
COMPILE = Path(os.environ["TT_COMPILE"]).resolve()
EXAMPLES = sorted(p for p in Path("examples").glob("*.py"))  # //examples:programs
ARCHS = ("wormhole", "blackhole")


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> dict[tuple[str, str], Path]:
    """Every example compiled for each arch: (example, arch) -> its output folder."""
    out = {}
    root = tmp_path_factory.mktemp("generated")
    for example in EXAMPLES:
        for arch in ARCHS:
            folder = root / arch / example.stem
            run = subprocess.run(
                [str(COMPILE), str(example.resolve()), "--target", arch, "--out", str(folder)],
                capture_output=True,
                text=True,
            )
            assert run.returncode == 0, f"compiling {example} for {arch}:\n{run.stdout}\n{run.stderr}"
            out[example.stem, arch] = folder
    return out


def riscs(output: str) -> dict[str, str]:
    """RISC -> what its kernel compiles gave, from check_program's summary lines."""
    return dict(re.findall(r"^\s+(BRISC|NCRISC|TRISC\d): (.+)$", output, re.M))


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("example", [e.stem for e in EXAMPLES])
def test_example_passes_the_release_runtime(generated, example, arch):
    for folder in sdk_check.program_folders(generated[example, arch]):
        result = sdk_check.check(folder, arch, SDK_PYTHON)
        assert result.passed, f"{folder.name} on {arch}:\n{result.output}"
        compiled = riscs(result.output)
        for risc in ("BRISC", "NCRISC"):
            assert compiled.get(risc) == "ok", f"{risc} of {folder.name} was not checked:\n{result.output}"
        assert "error" not in compiled.get("TRISC2", ""), result.output


def mistake_folder(generated, tmp_path: Path) -> Path:
    folder = tmp_path / "gemm"
    shutil.copytree(generated["gemm", "wormhole"], folder)
    return folder


def edit_plan(folder: Path, change) -> None:
    plan = json.loads((folder / "tt.plan.json").read_text())
    change(plan)
    (folder / "tt.plan.json").write_text(json.dumps(plan))


def edit_source(folder: Path, name: str, pattern: str, replacement: str) -> None:
    text = (folder / name).read_text()
    changed = re.sub(pattern, replacement, text, count=1)
    assert changed != text, f"{pattern!r} is not in {name}"
    (folder / name).write_text(changed)


def kernel(plan: dict, role: str) -> dict:
    return next(k for k in plan["kernels"] if k["role"] == role)


def grow_args(plan: dict) -> None:
    kernel(plan, "reader")["core_runtime_args"][0]["values"] += list(range(5000))


# (seeded mistake, how to make it, what the runtime says)
MISTAKES = {
    "cb_size_not_a_multiple_of_its_page": (
        lambda f: edit_plan(f, lambda p: p["circular_buffers"][0].update(total_bytes=3000)),
        "must be divisible by page size",
    ),
    "circular_buffers_beyond_l1": (
        lambda f: edit_plan(f, lambda p: p["circular_buffers"][0].update(total_bytes=2048 * 700)),
        "beyond max L1 size",
    ),
    "core_outside_the_grid": (
        lambda f: edit_plan(f, lambda p: p["core_ranges"].append({"x0": 8, "y0": 0, "x1": 8, "y1": 0})),
        "outside the worker grid",
    ),
    "too_many_runtime_args": (lambda f: edit_plan(f, grow_args), "are too large"),
    "kernel_call_missing_an_argument": (
        lambda f: edit_source(f, "reader.cpp", r"cb_reserve_back\((\w+), \w+\)", r"cb_reserve_back(\1)"),
        "too few arguments to function",
    ),
    "compile_time_arg_index_out_of_range": (
        lambda f: edit_source(f, "writer.cpp", r"TensorAccessorArgs<0>\(\)", "TensorAccessorArgs<7>()"),
        "Index out of range",
    ),
}


@pytest.mark.parametrize("name", sorted(MISTAKES))
def test_seeded_mistake_is_rejected_by_the_release_runtime(generated, tmp_path, name):
    make, message = MISTAKES[name]
    folder = mistake_folder(generated, tmp_path)
    make(folder)
    result = sdk_check.check(folder, "wormhole", SDK_PYTHON)
    assert not result.passed and message in result.output, f"{name}: expected '{message}':\n{result.output}"


def test_lock_file_pins_the_sdk_release():
    release = Path("SDK_RELEASE").read_text().strip()
    lock = Path("tools/sdk_check/requirements.txt").read_text()
    assert re.search(rf"^ttnn=={re.escape(release)} ", lock, re.M), (
        f"tools/sdk_check/requirements.txt does not pin ttnn=={release} (SDK_RELEASE)"
    )


if __name__ == "__main__":
    sys.exit(pytest.main([__file__]))
