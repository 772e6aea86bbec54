"""tools/compile.py: artifacts, summary table, --run check, errors with file:line:col and caret."""

import os
import subprocess
import sys
import textwrap

import pytest
from tilelang_tt.pipeline import pass_names

CLI = os.path.join(os.path.dirname(__file__), "..", "..", "tools", "compile.py")
EXAMPLE = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "gemm.py")


def _cli(*args, cwd=None):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    return subprocess.run([sys.executable, CLI, *args], capture_output=True, text=True, cwd=cwd, env=env)


def test_compiles_the_example(tmp_path):
    result = _cli(os.path.abspath(EXAMPLE), "--out", str(tmp_path / "out"), "--dump-ir", str(tmp_path / "ir"))
    assert result.returncode == 0, result.stderr
    assert sorted(os.listdir(tmp_path / "out")) == [
        "compute.cpp",
        "main.cpp",
        "reader.cpp",
        "tt.plan.json",
        "writer.cpp",
    ]
    assert "LowerSharedToCB" in result.stdout and "cores" in result.stdout
    assert len(os.listdir(tmp_path / "ir")) == len(pass_names())


def test_run_checks_ref_program(tmp_path):
    result = _cli(os.path.abspath(EXAMPLE), "--out", str(tmp_path / "out"), "--run")
    assert result.returncode == 0 and "check: PASS" in result.stdout, result.stdout + result.stderr


def test_compiles_and_runs_a_program_exported_from_upstream_tilelang(tmp_path):
    exported = os.path.join(os.path.dirname(__file__), "..", "upstream", "gemm.tvmscript")
    result = _cli(os.path.abspath(exported), "--out", str(tmp_path / "out"), "--run")
    assert result.returncode == 0, result.stderr
    assert "check: ran in" in result.stdout, result.stdout
    assert (tmp_path / "out" / "compute.cpp").exists()


def test_run_checks_under_seeded_schedules(tmp_path):
    result = _cli(os.path.abspath(EXAMPLE), "--out", str(tmp_path / "out"), "--run", "--schedules", "3")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "check: PASS" in result.stdout and "under each of 3 seeded schedules" in result.stdout, (
        result.stdout
    )
    alone = _cli(os.path.abspath(EXAMPLE), "--out", str(tmp_path / "out"), "--schedules", "3")
    assert alone.returncode == 2 and "pass --run too" in alone.stderr, alone.stderr


def test_a_function_of_two_kernels_writes_a_folder_per_program(tmp_path):
    program = tmp_path / "two_kernels.py"
    program.write_text(
        textwrap.dedent("""
        import tilelang_tt.language as T

        @T.prim_func
        def twice(A: T.Tensor((64, 64), "float32"), C: T.Tensor((64, 64), "float32")):
            W = T.alloc_global((64, 64), "float32")
            with T.Kernel(2, 2) as (bx, by):
                a = T.alloc_fragment((32, 32), "float32")
                T.copy(A[by * 32, bx * 32], a)
                for i, j in T.Parallel(32, 32):
                    a[i, j] = a[i, j] * 2.0
                T.copy(a, W[by * 32, bx * 32])
            with T.Kernel(2, 2) as (bx, by):
                w = T.alloc_fragment((32, 32), "float32")
                T.copy(W[by * 32, bx * 32], w)
                for i, j in T.Parallel(32, 32):
                    w[i, j] = w[i, j] + 1.0
                T.copy(w, C[by * 32, bx * 32])

        def ref_program(A):
            return A * 2 + 1
    """)
    )
    result = _cli(str(program), "--out", str(tmp_path / "out"), "--run")
    assert result.returncode == 0 and "check: PASS" in result.stdout, result.stdout + result.stderr
    # a folder per program, and the host program running both on one device
    assert sorted(os.listdir(tmp_path / "out")) == ["main.cpp", "twice_kernel1", "twice_kernel2"]
    assert "twice: twice_kernel2: wormhole" in result.stdout, result.stdout


def test_paths_are_relative_to_the_working_directory(tmp_path):
    env_dir = os.path.dirname(os.path.abspath(EXAMPLE))
    os.environ["BUILD_WORKING_DIRECTORY"] = env_dir
    try:
        result = _cli("gemm.py", "--out", str(tmp_path / "rel"))
    finally:
        del os.environ["BUILD_WORKING_DIRECTORY"]
    assert result.returncode == 0 and os.path.exists(tmp_path / "rel" / "main.cpp"), result.stderr


def test_errors_point_at_the_dsl_line(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text(
        textwrap.dedent("""
        import tilelang_tt.language as T

        @T.prim_func
        def bad(A: T.Tensor((96, 96), "bfloat16"), C: T.Tensor((96, 96), "bfloat16")):
            with T.Kernel(2, 2) as (bx, by):
                A_s = T.alloc_shared((48, 48), "bfloat16")
                T.copy(A[by * 48, bx * 48], A_s)
                T.copy(A_s, C[by * 48, bx * 48])
    """)
    )
    result = _cli(str(bad), "--out", str(tmp_path / "out"))
    assert result.returncode == 1
    first, line, caret = result.stderr.splitlines()[:3]
    assert first.startswith(f"{bad}:8:") and "not a multiple" in first
    assert line.strip() == "T.copy(A[by * 48, bx * 48], A_s)" and caret.strip() == "^"


@pytest.mark.parametrize("flag", ["--func nope", "--partition spiral"])
def test_bad_options_exit_non_zero(flag, tmp_path):
    assert _cli(os.path.abspath(EXAMPLE), *flag.split(), "--out", str(tmp_path)).returncode != 0


def test_parser_errors_print_the_dsl_line_without_a_traceback(tmp_path):
    bad = tmp_path / "misspelled.py"
    bad.write_text(
        textwrap.dedent("""
        import tilelang_tt.language as T

        @T.prim_func
        def bad(A: T.Tensor((64, 64), "bfloat16"), C: T.Tensor((64, 64), "bfloat16")):
            with T.Kernel(1, 1) as (bx, by):
                A_s = T.alloc_shared((64, 64), "bfloat16")
                T.copy(A[0, 0], A_s)
                T.copy(A_s, C[0, 0], coalesced_widht=4)
    """)
    )
    result = _cli(str(bad), "--out", str(tmp_path / "out"))
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    first, line, caret = result.stderr.splitlines()[:3]
    assert first.startswith(f"{bad}:9:") and "coalesced_widht" in first and "tvm" not in first, first
    assert line.strip() == "T.copy(A_s, C[0, 0], coalesced_widht=4)" and caret.strip() == "^"
