"""Host renderer: main.cpp compiles with -Wall -Werror against the shim.

What it does when run (argument lists, block lists, compute config, the tilelang_tt_run entry point) is
tested by running it: tests/e2e and //examples:gemm_test.
"""

import subprocess

import pytest
from programs import gemm, lower
from tilelang_tt import config
from tilelang_tt.codegen.host import render_host
from tilelang_tt.codegen.plan import build_plan

SHIM = config.find_shim_include()
assert SHIM is not None, "metal_shim/include not found: set TT_METAL_MOCK_SHIM_INCLUDE or run under Bazel"
RUNTIME_INCLUDE = SHIM.replace("metal_shim/include", "runtime_mock/include")


@pytest.mark.parametrize(
    "options", [dict(), dict(partition_strategy="block"), dict(target_device="blackhole")]
)
def test_main_compiles_with_werror(options):
    plan = build_plan(lower(gemm(M=128, N=192), "VerifyTTIR", **options))
    result = subprocess.run(
        [
            "g++",
            "-std=c++17",
            "-Wall",
            "-Werror",
            "-fsyntax-only",
            "-DFMT_HEADER_ONLY",
            "-x",
            "c++",
            "-isystem",
            SHIM,
            "-isystem",
            RUNTIME_INCLUDE,
            "-",
        ],
        input=render_host(plan),
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr[:4000]
