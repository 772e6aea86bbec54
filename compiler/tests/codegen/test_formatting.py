"""Generated C++ is in the repository's clang-format style as rendered: the pinned clang-format leaves the
artifacts of every kind of program unchanged, so a compile needs no clang-format process."""

import os

import pytest
import tilelang_tt
import tilelang_tt.language as T
from programs import gemm
from tilelang_tt.codegen.formatting import (
    COLUMN_LIMIT,
    STYLE_FILE,
    clang_format,
    format_sources,
    wrap_comment,
)

SOURCES = ("reader.cpp", "compute.cpp", "writer.cpp", "main.cpp")


def batched_gemm(batch=2, M=64, N=64, K=64, bM=32, bN=32, bK=32):
    @T.prim_func
    def bmm(
        A: T.Tensor((batch, M, K), "bfloat16"),
        B: T.Tensor((batch, K, N), "bfloat16"),
        C: T.Tensor((batch, M, N), "bfloat16"),
    ):
        with T.Kernel(T.ceildiv(N, bN), T.ceildiv(M, bM), batch, threads=128) as (bx, by, bz):
            A_s = T.alloc_shared((bM, bK), "bfloat16")
            B_s = T.alloc_shared((bK, bN), "bfloat16")
            C_f = T.alloc_fragment((bM, bN), "float")
            T.clear(C_f)
            for k in T.Pipelined(T.ceildiv(K, bK), num_stages=2):
                T.copy(A[bz, by * bM, k * bK], A_s)
                T.copy(B[bz, k * bK, bx * bN], B_s)
                T.gemm(A_s, B_s, C_f)
            T.copy(C_f, C[bz, by * bM, bx * bN])

    return bmm


def _example(name):
    import importlib.util

    path = os.path.join(os.path.dirname(STYLE_FILE), "examples", f"{name}.py")
    spec = importlib.util.spec_from_file_location(f"{name}_example", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def softmax():
    return _example("softmax").softmax_kernel.get_tir(M=256, N=512)


def convolution():
    """A 3x3 convolution with padding: the reader's im2col gather and the compute kernel's tilize."""
    factory = _example("convolution").convolution
    return factory.get_tir(
        N=1, C=32, H=8, W=8, F=64, K=3, S=1, D=1, P=1,
        block_M=64, block_N=64, block_K=32, num_stages=2, threads=128,
    )  # fmt: skip


PROGRAMS = {
    "gemm": lambda: tilelang_tt.compile(gemm(M=1024, N=1024, K=1024, bM=32, bN=32), out_idx=[-1]),
    "gemm_block_partition": lambda: tilelang_tt.compile(gemm(), out_idx=[-1], partition="block"),
    "gemm_multicast": lambda: tilelang_tt.compile(gemm(M=1024, N=1024, K=1024, bM=128, bN=128), out_idx=[-1]),
    "edge_gemm": lambda: tilelang_tt.compile(gemm(M=100, N=72, K=40, bM=64, bN=64), out_idx=[-1]),
    "batched_gemm": lambda: tilelang_tt.compile(batched_gemm(), out_idx=[-1]),
    "softmax": lambda: tilelang_tt.compile(softmax(), out_idx=[-1]),
    "convolution": lambda: tilelang_tt.compile(convolution(), out_idx=[-1]),
}


def test_a_staged_kernels_host_program_is_in_the_style_as_rendered():
    """The host program running a staged kernel's programs on one device: no line over the limit, and
    clang-format leaves it unchanged."""
    from tilelang_tt.codegen.host import render_sequence_host

    kernel = tilelang_tt.compile(split_k_in_two_programs(), out_idx=[2])
    plans = [p.plan for p in kernel.programs]
    rendered, _ = render_sequence_host(kernel.name, "split_k.py", kernel.sequence_host.params, plans)
    long = [line for line in rendered.splitlines() if len(line) > COLUMN_LIMIT]
    assert not long, f"lines over {COLUMN_LIMIT} columns send it to clang-format: {long}"
    assert clang_format({"main.cpp": rendered})["main.cpp"] == rendered, "not in the clang-format style"


def split_k_in_two_programs(M=64, N=96, K=256, split=4):
    """Partial products of K slices into a workspace, then their sum: two programs sharing a buffer."""

    @T.prim_func
    def split_k(A: T.Tensor((M, K), "float16"), B: T.Tensor((K, N), "float16"), C: T.Tensor((M, N), "float")):
        partial = T.alloc_global((split, M, N), "float")
        with T.Kernel(N // 32, M // 32, split) as (bx, by, bz):
            A_s = T.alloc_shared((32, 32), "float16")
            B_s = T.alloc_shared((32, 32), "float16")
            C_f = T.alloc_fragment((32, 32), "float")
            T.clear(C_f)
            for k in T.Pipelined(K // split // 32, num_stages=2):
                T.copy(A[by * 32, bz * (K // split) + k * 32], A_s)
                T.copy(B[bz * (K // split) + k * 32, bx * 32], B_s)
                T.gemm(A_s, B_s, C_f)
            T.copy(C_f, partial[bz, by * 32, bx * 32])
        with T.Kernel(N // 32, M // 32) as (bx, by):
            total = T.alloc_fragment((32, 32), "float")
            part = T.alloc_fragment((32, 32), "float")
            T.clear(total)
            for s in T.serial(split):
                T.copy(partial[s, by * 32, bx * 32], part)
                for i, j in T.Parallel(32, 32):
                    total[i, j] += part[i, j]
            T.copy(total, C[by * 32, bx * 32])

    return split_k


@pytest.mark.parametrize("program", sorted(PROGRAMS))
def test_artifacts_are_in_the_style_as_rendered(program, monkeypatch):
    """The renderers' own layout is the style: no rendered source reaches format_sources' clang-format
    fallback (no line over the limit), and clang-format leaves the artifacts unchanged."""
    import tilelang_tt.codegen as codegen

    rendered = {}

    def keep(sources):
        rendered.update(sources)
        return format_sources(sources)

    monkeypatch.setattr(codegen, "format_sources", keep)
    kernel = PROGRAMS[program]()
    assert set(SOURCES) <= set(rendered), f"{program}: codegen rendered {sorted(rendered)}"
    long = {
        name: [line for line in rendered[name].splitlines() if len(line) > COLUMN_LIMIT] for name in SOURCES
    }
    assert not any(long.values()), (
        f"{program}: lines over {COLUMN_LIMIT} columns send it to clang-format: {long}"
    )
    sources = {name: kernel.artifacts[name] for name in SOURCES}
    formatted = clang_format(sources)
    for name in SOURCES:
        assert formatted[name] == sources[name], (
            f"{program}/{name} is not in the repository's clang-format style"
        )


def test_style_is_the_repository_clang_format():
    assert os.path.isfile(STYLE_FILE), (
        f"{STYLE_FILE} is missing: the package must ship the repo's .clang-format"
    )
    assert COLUMN_LIMIT == 120


def test_long_comments_wrap_at_the_column_limit_like_clang_format():
    text = "word " * 40 + "end"
    source = "\n".join(["void f() {", *wrap_comment(text, "    "), "}", ""])
    assert max(len(line) for line in source.splitlines()) <= COLUMN_LIMIT
    assert clang_format({"c.cpp": source})["c.cpp"] == source


def test_only_sources_with_an_overlong_line_go_through_clang_format():
    long_call = "int f() {\n    return g(" + ", ".join(["argument"] * 14) + ");\n}\n"
    out = format_sources({"short.cpp": "int  f( ){return 1;}\n", "long.cpp": long_call})
    assert out["short.cpp"] == "int  f( ){return 1;}\n"
    assert out["long.cpp"] != long_call and max(len(line) for line in out["long.cpp"].splitlines()) <= 120
