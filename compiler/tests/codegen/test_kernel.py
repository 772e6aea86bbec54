"""Kernel renderer: the three kernels compile with -Wall -Werror against metal_shim (so an unused
declaration fails too); rules render IR; the header and DSL-line comments are there for readers."""

import subprocess

import pytest
from programs import gemm, lower
from tilelang_tt import TTError, config
from tilelang_tt.codegen.kernel import expr, render_kernel
from tvm import tirx

INCLUDE_DIRS = config.find_include_dirs()
assert INCLUDE_DIRS is not None, "metal_shim/include or runtime_mock/include not found: run under Bazel"
# The shim's and the kernel ABI's include roots, as system headers (-Werror is for the generated code).
ISYSTEM = [flag for include in INCLUDE_DIRS.values() for flag in ("-isystem", include)]
# As the device JIT (and the SDK) builds kernels: -DKERNEL_BUILD gives them the global DataFormat.
FLAGS = ["g++", "-std=c++17", "-Wall", "-Werror", "-fsyntax-only", "-DKERNEL_BUILD", "-x", "c++"]


def _compile(source: str, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([*FLAGS, *ISYSTEM, *extra, "-"], input=source, capture_output=True, text=True)


@pytest.mark.parametrize(
    "program",
    [
        dict(),
        dict(M=128, N=128, bM=128, bN=128),
        dict(trans_b=True, dtype="float16"),
        dict(c_shared=False, dtype="float32"),
        dict(M=275, N=273, K=271, bK=64),  # edge tiles: zero-filled reads, skipped writes
    ],
)
@pytest.mark.parametrize("role", ["reader", "compute", "writer"])
def test_kernels_compile_with_werror(program, role):
    mod = lower(gemm(**program), "VerifyTTIR")
    source = render_kernel(mod[f"gemm_{role}"])
    result = _compile(source, "-DKERNEL_COMPILE_TIME_ARGS=2,2")
    assert result.returncode == 0, result.stderr[:4000]


def test_expressions_parenthesise_by_precedence():
    a, b, c = (tirx.Var(n, "int32") for n in "abc")
    assert expr((a + b) * c) == "(a + b) * c" and expr(a + b * c) == "a + b * c"


def test_not_equal_reads_naturally():
    k = tirx.Var("k", "int32")
    assert expr(tirx.Not(tirx.EQ(k, 0))) == "k != 0"


def test_header_lists_arguments_and_cbs():
    source = render_kernel(lower(gemm(), "VerifyTTIR")["gemm_reader"])
    assert "//   0: a_addr: base address of A" in source and "//   cb_in0 = c_0: A_s" in source


def test_blocks_point_at_dsl_lines():
    source = render_kernel(lower(gemm(), "VerifyTTIR")["gemm_compute"])
    assert (
        "// programs.py:" in source
        and "T.gemm(A_s, B_s, C_f, transpose_A=trans_a, transpose_B=trans_b)" in source
    )


def test_transpose_a_compute_compiles_with_werror():
    mod = lower(gemm(M=64, N=64, K=96, bM=64, bN=64, trans_a=True), "VerifyTTIR")
    result = _compile(render_kernel(mod["gemm_compute"]))
    assert result.returncode == 0, result.stderr[:4000]


def test_ir_without_a_rule_is_an_internal_error():
    with pytest.raises(TTError, match="no C\\+\\+ rule for Ramp"):
        expr(tirx.Ramp(tirx.IntImm("int32", 0), tirx.IntImm("int32", 1), 4))


def test_expressions_that_go_negative_keep_tir_semantics_in_cpp(tmp_path):
    """``T.max(0, (bx * 64 - 128) // 64)`` and friends: rendered for uint32_t kernel words, evaluated by
    g++ for bx = 0..7, they give what TIR means (signed, floor division), not a wrapped-around word."""
    bx = tirx.Var("bx", "int32")
    cases = [
        tirx.Max(tirx.const(0, "int32"), tirx.FloorDiv(bx * 64 - 128, tirx.const(64, "int32"))),
        tirx.FloorDiv(bx * 3 - 10, tirx.const(4, "int32")),
        tirx.FloorMod(bx * 3 - 10, tirx.const(4, "int32")),
        tirx.Min(bx - 5, tirx.const(2, "int32")),
    ]
    lines = [f'printf("%d\\n", static_cast<int>({expr(c)}));' for c in cases]
    source = "#include <cstdio>\n#include <cstdint>\nint main() {\n  for (uint32_t bx = 0; bx < 8; ++bx) {\n"
    source += "\n".join(f"    {line}" for line in lines) + "\n  }\n}\n"
    binary = tmp_path / "expressions"
    build = subprocess.run(
        ["g++", "-std=c++17", "-Wall", "-Werror", "-x", "c++", "-", "-o", str(binary)],
        input=source,
        capture_output=True,
        text=True,
    )
    assert build.returncode == 0, build.stderr[:4000]
    printed = [int(v) for v in subprocess.run([binary], capture_output=True, text=True).stdout.split()]
    expected = [
        value
        for b in range(8)
        for value in (max(0, (b * 64 - 128) // 64), (b * 3 - 10) // 4, (b * 3 - 10) % 4, min(b - 5, 2))
    ]
    assert printed == expected, f"C++ gave {printed}, TIR means {expected}"
