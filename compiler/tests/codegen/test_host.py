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

INCLUDE_DIRS = config.find_include_dirs()
assert INCLUDE_DIRS is not None, "metal_shim/include or runtime_mock/include not found: run under Bazel"
# The shim's and the kernel ABI's include roots, as system headers (-Werror is for the generated code).
ISYSTEM = [flag for include in INCLUDE_DIRS.values() for flag in ("-isystem", include)]


@pytest.mark.parametrize(
    "program, options",
    [
        (dict(), dict()),
        (dict(), dict(partition_strategy="block")),
        (dict(), dict(target_device="blackhole")),
        (dict(M=275, N=273, K=271, dtype="float32"), dict()),  # padded tile views: pad and crop helpers
    ],
)
def test_main_compiles_with_werror(program, options):
    plan = build_plan(lower(gemm(**{"M": 128, "N": 192, **program}), "VerifyTTIR", **options))
    result = subprocess.run(
        [
            "g++",
            "-std=c++20",  # as the SDK builds host programs (0.81's API takes std::span)
            "-Wall",
            "-Werror",
            "-fsyntax-only",
            "-x",
            "c++",
            *ISYSTEM,
            "-",
        ],
        input=render_host(plan)[0],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr[:4000]


def test_padding_is_emitted_only_for_padded_tensors():
    aligned, _ = render_host(build_plan(lower(gemm(M=128, N=192), "VerifyTTIR")))
    ragged, sizes = render_host(build_plan(lower(gemm(M=100, N=192, K=128), "VerifyTTIR")))
    assert "pad_to_tile_view" not in aligned and "crop_tile_view" not in aligned
    # A (100x128) and C (100x192) are padded to 128 rows; B (128x192) is tilized as it is.
    assert (
        "pad_to_tile_view(a_host, a_slices, a_slice_rows, a_slice_cols, a_padded_rows, a_padded_cols)"
        in ragged
    )
    assert "b_tiles = convert_layout(b_span, b_shape, row_major, tiled);" in ragged  # no copy first
    values = {e["name"]: e["value"] for e in sizes}
    assert [
        values[f"a_{n}"] for n in ("slices", "slice_rows", "slice_cols", "padded_rows", "padded_cols")
    ] == [
        1,
        100,
        128,
        128,
        128,
    ]
    assert [values[f"c_{n}"] for n in ("slice_rows", "slice_cols", "padded_rows")] == [100, 192, 128]
    assert values["b_elements"] == 128 * 192


def test_main_is_the_same_text_for_every_shape():
    """Two shapes of one structure: one main.cpp, and sizes that describe each (the host object is reused)."""
    small, small_sizes = render_host(build_plan(lower(gemm(M=128, N=192), "VerifyTTIR")))
    large, large_sizes = render_host(build_plan(lower(gemm(M=512, N=320, K=256), "VerifyTTIR")))
    assert small == large
    assert [e["name"] for e in small_sizes] == [e["name"] for e in large_sizes]
    assert {e["name"]: e["value"] for e in large_sizes}["a_elements"] == 512 * 256
