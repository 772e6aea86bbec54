"""run_sdk_program: macro values, exit status, program arguments, kernel root."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tools import run_sdk_program

ROOT = Path(__file__).absolute().parent.parent
SDK_STYLE = ROOT / "tests" / "sdk_style"
FAULTING_KERNEL = ROOT / "runtime_mock" / "tests" / "kernels" / "faulting.cpp"
FAULTING_HOST = ROOT / "runtime_mock" / "python" / "tests" / "kernels" / "faulting_host.cpp"


@pytest.mark.parametrize(
    "value, expected",
    [
        ("4", "4"),
        ("0x10", "0x10"),
        ("RISCV_0", "RISCV_0"),
        ('"already/quoted/"', '"already/quoted/"'),
        ("tt_metal/programming_examples/", '"tt_metal/programming_examples/"'),
        ('say "hi"', '"say \\"hi\\""'),
    ],
)
def test_macro_value_quotes_what_is_not_a_token(value, expected):
    assert run_sdk_program.macro_value(value) == expected


def test_runs_main_with_its_arguments_and_returns_its_status(capfd):
    status = run_sdk_program.main([str(SDK_STYLE / "legacy_api.cpp"), "--", str(SDK_STYLE / "kernels")])
    assert status == 0
    assert "legacy_api: pass" in capfd.readouterr().out


def test_kernel_root_resolves_relative_kernel_paths(capfd):
    status = run_sdk_program.main(
        ["--kernel-root", str(SDK_STYLE), str(SDK_STYLE / "legacy_api.cpp"), "--", "kernels"]
    )
    assert status == 0, capfd.readouterr().err


def test_uncaught_exception_exits_like_an_abort(capfd):
    assert run_sdk_program.main([str(SDK_STYLE / "legacy_api.cpp")]) == 134
    assert "usage" in capfd.readouterr().err


def test_kernel_fault_is_reported_and_exits_nonzero(capfd):
    status = run_sdk_program.main([str(FAULTING_HOST), "--", str(FAULTING_KERNEL), "NULL"])
    assert status == 134
    err = capfd.readouterr().err
    assert "(KernelFaultError)" in err, err
    assert "core (0,0) RISCV_1 (NCRISC)" in err and "faulting.cpp" in err, err
    assert "SIGSEGV (invalid memory access) at address 0x0" in err, err


def test_compile_error_exits_with_1(tmp_path, capfd):
    broken = tmp_path / "broken.cpp"
    broken.write_text("int main() { return undefined_name; }\n")
    assert run_sdk_program.main([str(broken)]) == 1
    assert "undefined_name" in capfd.readouterr().err


def test_profile_prints_the_summary_and_writes_a_trace(tmp_path, capfd):
    trace = tmp_path / "trace.json"
    status = run_sdk_program.main(
        ["--trace", str(trace), str(SDK_STYLE / "legacy_api.cpp"), "--", str(SDK_STYLE / "kernels")]
    )
    out = capfd.readouterr().out
    assert status == 0, out
    assert "legacy_api: pass" in out
    assert "run 0: wormhole_b0 @ 1 GHz" in out and "bottleneck:" in out and "TFLOPS" in out, out
    assert f"trace of 2 runs written to {trace}" in out  # legacy_api runs two programs
    events = json.loads(trace.read_text())["traceEvents"]
    tracks = {e["args"]["name"] for e in events if e["name"] == "thread_name"}
    assert {"BRISC", "NCRISC", "TRISC", "NOC0", "NOC1"} <= tracks, tracks
    assert any(e["ph"] == "X" and e["name"] == "add_tiles" for e in events)


def test_without_profile_no_summary(capfd):
    status = run_sdk_program.main([str(SDK_STYLE / "legacy_api.cpp"), "--", str(SDK_STYLE / "kernels")])
    assert status == 0
    assert "bottleneck:" not in capfd.readouterr().out
