"""Host renderer: main.cpp compiles with -Wall -Werror against the shim; lists come from the plan."""

import subprocess

import pytest
from programs import gemm, lower
from tilelang_tt import config
from tilelang_tt.codegen.host import render_host
from tilelang_tt.codegen.plan import build_plan

SHIM = config.find_shim_include()
RUNTIME_INCLUDE = None if SHIM is None else SHIM.replace("metal_shim/include", "runtime_mock/include")


@pytest.mark.skipif(SHIM is None, reason="metal_shim headers not found")
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


def test_runtime_args_follow_the_schema():
    source = render_host(build_plan(lower(gemm(), "VerifyTTIR")))
    assert (
        "reader_args{static_cast<uint32_t>(a_buffer->address()), static_cast<uint32_t>(b_buffer->address()), "
        "w.start, w.count}"
    ) in source.replace("\n", "")


def test_block_partition_passes_block_lists():
    source = render_host(build_plan(lower(gemm(M=128, N=128), "VerifyTTIR", partition_strategy="block")))
    assert "writer_args.insert(writer_args.end(), w.blocks.begin(), w.blocks.end());" in source


def test_fp32_accumulation_reaches_compute_config():
    assert ".fp32_dest_acc_en = true" in render_host(build_plan(lower(gemm(), "VerifyTTIR")))


def test_defines_the_device_contract_entry_point():
    source = render_host(build_plan(lower(gemm(), "VerifyTTIR")))
    assert (
        'extern "C" void tilelang_tt_run(const char* kernel_dir, void* const* tensors, int num_tensors)'
        in source
    )
