"""The real-runtime check (sdk_check): every example program, compiled for Wormhole and for Blackhole, is
accepted by the released TT-Metalium runtime on a mock n150 / p150 (its validation and its JIT build, with
no compile failing on BRISC, NCRISC or TRISC2); seeded mistakes are each rejected by it with the runtime's
own message and by the simulator with ours; and the lock file pins the release SDK_RELEASE names."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest
from tilelang_tt import host_sizes

import runtime_mock
from tools import compile as compile_cli
from tools.sdk_check import sdk_check

SDK_PYTHON = Path(os.environ["SDK_PYTHON"]).absolute()
EXAMPLES = sorted(p for p in Path("examples").glob("*.py"))  # //examples:programs
ARCHS = ("wormhole", "blackhole")


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> dict[tuple[str, str], Path]:
    """Every example compiled for each arch by tools/compile: (example, arch) -> its output folder.

    The command's main runs in this process: the 22 compiles share one import of the compiler (a process
    each spent 2 s of its 2.5 s importing it)."""
    out = {}
    root = tmp_path_factory.mktemp("generated")
    for example in EXAMPLES:
        for arch in ARCHS:
            folder = root / arch / example.stem
            stdout, stderr = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
                status = compile_cli.main([str(example.resolve()), "--target", arch, "--out", str(folder)])
            assert status == 0, f"compiling {example} for {arch}:\n{stdout.getvalue()}\n{stderr.getvalue()}"
            out[example.stem, arch] = folder
    return out


def riscs(output: str) -> dict[str, str]:
    """RISC -> what its kernel compiles gave, from check_program's summary lines."""
    return dict(re.findall(r"^\s+(BRISC|NCRISC|TRISC\d): (.+)$", output, re.M))


@pytest.fixture(scope="module")
def checked(generated) -> dict[tuple[str, str], list[sdk_check.Result]]:
    """(example, arch) -> the release runtime's result for each of its programs, one runtime per arch."""
    results: dict[tuple[str, str], list[sdk_check.Result]] = {}
    for arch in ARCHS:
        folders = {e.stem: sdk_check.program_folders(generated[e.stem, arch]) for e in EXAMPLES}
        flat = [f for fs in folders.values() for f in fs]
        by_folder = {r.folder: r for r in sdk_check.check_all(flat, arch, SDK_PYTHON)}
        for example, fs in folders.items():
            results[example, arch] = [by_folder[f] for f in fs]
    return results


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("example", [e.stem for e in EXAMPLES])
def test_example_passes_the_release_runtime(checked, example, arch):
    for result in checked[example, arch]:
        assert result.passed, f"{result.folder.name} on {arch}:\n{result.output}"
        compiled = riscs(result.output)
        for risc in ("BRISC", "NCRISC"):
            assert compiled.get(risc) == "ok", (
                f"{risc} of {result.folder.name} was not checked:\n{result.output}"
            )
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


def cb_size(total: int):
    """The first CB's total size set to `total` bytes, in the plan (for the release) and main.cpp (ours)."""

    def make(folder: Path) -> None:
        edit_plan(folder, lambda p: p["circular_buffers"][0].update(total_bytes=total))
        edit_source(
            folder,
            "main.cpp",
            r"CircularBufferConfig (c_\d+_config)\(\d+,",
            rf"CircularBufferConfig \1({total},",
        )

    return make


def cbs_filling_l1(extra_pages: int):
    """The first CB grown to the most whole pages that fit below the end of L1 with the others, plus
    `extra_pages`: whether it fits depends on where the first CB starts (chip.l1_reserved_bytes, taken
    from the release), so the release and the simulator agree on it only if they place it alike."""

    def make(folder: Path) -> None:
        plan = json.loads((folder / "tt.plan.json").read_text())
        chip = runtime_mock.arch_facts(plan["target"]["arch"])["chip"]
        first, *others = plan["circular_buffers"]
        free = chip["l1_bytes"] - chip["l1_reserved_bytes"] - sum(cb["total_bytes"] for cb in others)
        cb_size((free // first["page_size"] + extra_pages) * first["page_size"])(folder)

    return make


def core_outside_the_grid(folder: Path) -> None:
    edit_plan(folder, lambda p: p["core_ranges"].append({"x0": 8, "y0": 0, "x1": 8, "y1": 0}))
    edit_source(
        folder,
        "main.cpp",
        r"(\n *)const CoreRangeSet cores\(core_ranges\);",
        r"\1core_ranges.push_back(CoreRange({8, 0}, {8, 0}));\1const CoreRangeSet cores(core_ranges);",
    )


def too_many_runtime_args(folder: Path) -> None:
    edit_plan(folder, grow_args)
    edit_source(
        folder,
        "main.cpp",
        r"(\n *)SetRuntimeArgs\(program, reader_kernel,",
        r"\1reader_args.resize(reader_args.size() + 5000);\1SetRuntimeArgs(program, reader_kernel,",
    )


# name -> (how to seed it into a generated program's plan, main.cpp and kernels; what the release's runtime
# says; what the simulator says)
MISTAKES = {
    "cb_size_not_a_multiple_of_its_page": (
        cb_size(3000),
        "must be divisible by page size",
        "must be divisible by page size",
    ),
    # One page more than fits (the twin: test_cbs_that_just_fit_l1_pass_both).
    "circular_buffers_beyond_l1": (cbs_filling_l1(extra_pages=1), "beyond max L1 size", "does not fit in L1"),
    "core_outside_the_grid": (
        core_outside_the_grid,
        "outside the worker grid",
        "outside the 8x8 compute grid",
    ),
    "too_many_runtime_args": (too_many_runtime_args, "are too large", "exceed the limit of 341"),
    "kernel_call_missing_an_argument": (
        lambda f: edit_source(f, "reader.cpp", r"cb_reserve_back\((\w+), \w+\)", r"cb_reserve_back(\1)"),
        "too few arguments to function",
        "too few arguments to function",
    ),
    "compile_time_arg_index_out_of_range": (
        lambda f: edit_source(f, "writer.cpp", r"TensorAccessorArgs<0>\(\)", "TensorAccessorArgs<7>()"),
        "Index out of range",
        "compile-time argument index out of range",
    ),
}


def simulate(folder: Path, arch: str) -> None:
    """Builds the folder's main.cpp and runs it with its kernels on the simulated device, as a compiled
    kernel's call does (zero inputs); raises the simulator's error."""
    plan = json.loads((folder / "tt.plan.json").read_text())
    # Zeros of each tensor's element size (the host program reads bf16 as its 16 bits).
    dtypes = {"bfloat16": np.uint16, "float16": np.float16, "float32": np.float32}
    tensors = [
        np.zeros(t["shape"], dtype=dtypes[t["dtype"]])
        for t in sorted(plan["tensors"], key=lambda t: t["param_index"])
    ]
    program = runtime_mock.HostProgram(runtime_mock.build_host_program([folder / "main.cpp"]))
    program.run(folder, tensors, arch, host_sizes.values(plan))


def test_the_unmodified_program_runs_on_the_simulator(generated, tmp_path):
    """The twin of the seeded mistakes (the release's side: test_example_passes_the_release_runtime)."""
    simulate(mistake_folder(generated, tmp_path), "wormhole")


# Twins of mistakes, which both sides accept: name -> how to make it.
CORRECT = {"cbs_filling_l1": cbs_filling_l1(extra_pages=0)}


@pytest.fixture(scope="module")
def seeded(generated, tmp_path_factory) -> dict[str, sdk_check.Result]:
    """Each mistake, and each correct twin, seeded into its own copy of gemm, all checked by one runtime
    process."""
    makers = {name: make for name, (make, _, _) in MISTAKES.items()} | CORRECT
    folders = {}
    for name, make in makers.items():
        folders[name] = mistake_folder(generated, tmp_path_factory.mktemp(name))
        make(folders[name])
    results = sdk_check.check_all(list(folders.values()), "wormhole", SDK_PYTHON)
    return dict(zip(folders, results, strict=True))


@pytest.mark.parametrize("name", sorted(MISTAKES))
def test_seeded_mistake_is_rejected_by_the_release_runtime_and_the_simulator(seeded, name):
    _, release_says, simulator_says = MISTAKES[name]
    result = seeded[name]
    assert not result.passed and release_says in result.output, (
        f"{name}: expected the release's runtime to say '{release_says}':\n{result.output}"
    )
    with pytest.raises(RuntimeError, match=re.escape(simulator_says)):  # DeviceError and build errors
        simulate(result.folder, "wormhole")


def test_cbs_that_just_fit_l1_pass_both(seeded):
    """The largest first CB that fits, in whole pages, fits on both sides: with one page more,
    circular_buffers_beyond_l1, neither accepts it."""
    result = seeded["cbs_filling_l1"]
    assert result.passed, f"the release's runtime rejects CBs that fit in L1:\n{result.output}"
    simulate(result.folder, "wormhole")


def test_lock_file_pins_the_sdk_release():
    release = Path("SDK_RELEASE").read_text().strip()
    lock = Path("tools/sdk_check/requirements.txt").read_text()
    assert re.search(rf"^ttnn=={re.escape(release)} ", lock, re.M), (
        f"tools/sdk_check/requirements.txt does not pin ttnn=={release} (SDK_RELEASE)"
    )


if __name__ == "__main__":
    sys.exit(pytest.main([__file__]))
