"""tools/compile.py on files whose kernels are tilelang.jit factories (classic and eager, --func/--args) or
module-level compiled kernels (JITKernel), not only PrimFuncs."""

import os
import subprocess
import sys
import textwrap

CLI = os.path.join(os.path.dirname(__file__), "..", "..", "tools", "compile.py")
PROGRAMS = os.path.join(
    os.path.dirname(__file__), "..", "..", "compiler", "tests", "tilelang_gemm_programs.py"
)
ARTIFACTS = ["compute.cpp", "main.cpp", "reader.cpp", "tt.plan.json", "writer.cpp"]


def _cli(*args):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    return subprocess.run([sys.executable, CLI, *args], capture_output=True, text=True, env=env)


def _program(tmp_path, body: str):
    path = tmp_path / "program.py"
    path.write_text(
        f"from tilelang_gemm_programs import matmul, matmul_classic, ref_program\n{textwrap.dedent(body)}"
    )
    return str(path)


def test_factories_without_defaults_are_skipped_and_named():
    result = _cli(os.path.abspath(PROGRAMS), "--out", "unused")
    assert result.returncode == 1, result.stdout
    assert "skipping factory matmul: block_M, block_N, block_K need values" in result.stderr
    assert "--func matmul_classic --args" in result.stderr


def test_eager_factory_with_args_compiles_runs_and_checks_ref_program(tmp_path):
    result = _cli(
        os.path.abspath(PROGRAMS),
        "--func", "matmul",
        "--args", "M=128, N=64, K=96, block_M=64, block_N=64, block_K=32",
        "--out", str(tmp_path),
        "--run",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert sorted(os.listdir(tmp_path)) == ARTIFACTS
    assert "matmul: wormhole" in result.stdout and "check: PASS" in result.stdout, result.stdout


def test_classic_factory_with_positional_args_and_a_target(tmp_path):
    result = _cli(
        os.path.abspath(PROGRAMS),
        "--func", "matmul_classic",
        "--args", "128, 64, 96, 64, 64, 32",
        "--target", "blackhole",
        "--out", str(tmp_path),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    # 64x64 blocks are too small for multicast to pay: "auto" takes row-major runs of blocks
    assert "matmul_classic: blackhole, partition row_major (auto), 2 cores" in result.stdout


def test_module_level_kernels_and_factories_with_defaults(tmp_path):
    program = _program(
        tmp_path,
        """
        import tilelang_tt as tilelang

        kernel = matmul_classic(128, 64, 96, 64, 64, 32)
        same_kernel = kernel
        compiled = tilelang.compile(matmul.get_tir(M=64, N=64, K=64, block_M=32, block_N=32, block_K=32))

        @tilelang.jit(out_idx=[-1])
        def defaults(M=64, N=64, K=64):
            return matmul_classic.get_tir(M, N, K, 32, 32, 32)
        """,
    )
    result = _cli(program, "--out", str(tmp_path / "out"), "--partition", "column_major")
    assert result.returncode == 0, result.stderr
    assert sorted(os.listdir(tmp_path / "out")) == ["compiled", "defaults", "kernel"]
    assert "kernel: wormhole, partition column_major" in result.stdout


def test_bad_args_are_reported_without_a_traceback(tmp_path):
    cases = {
        "block_M=x": "--args: x is not a Python literal",
        "block_M=64,,": "is not an argument list",
        "block_M=64, block_N=64, block_K=32": "T.const M has no value: pass M=<int>",
        "M=64, N=64, K=64, block_M=64, block_N=64, block_K=32, nope=1": "unexpected keyword argument(s) nope",
    }
    for args, message in cases.items():
        result = _cli(os.path.abspath(PROGRAMS), "--func", "matmul", "--args", args, "--out", str(tmp_path))
        assert result.returncode != 0 and message in result.stderr, (args, result.stderr)
        assert "Traceback" not in result.stderr, result.stderr


def test_args_need_func(tmp_path):
    result = _cli(os.path.abspath(PROGRAMS), "--args", "1", "--out", str(tmp_path))
    assert (
        result.returncode == 2
        and "--args gives the arguments of the factory named by --func" in result.stderr
    )
