"""The Python API without a device: compile, artifacts, sources, write, timings, cache key."""

import json

import pytest
import tilelang_tt
from programs import gemm
from tilelang_tt.codegen import ARTIFACT_NAMES


@pytest.fixture(scope="module")
def kernel():
    return tilelang_tt.compile(gemm(), out_idx=[-1])


def test_artifacts(kernel):
    assert tuple(kernel.artifacts) == ARTIFACT_NAMES


def test_get_kernel_source_shows_the_three_kernels(kernel):
    src = kernel.get_kernel_source()
    assert "===== reader.cpp" in src and "matmul_block" in src and "noc_async_write_tile" in src


def test_write_artifacts(kernel, tmp_path):
    kernel.write_artifacts(tmp_path)
    assert json.loads((tmp_path / "tt.plan.json").read_text())["program"] == "gemm_cs"


def test_per_pass_timings(kernel):
    assert [n for n, _ in kernel.pass_timings][:2] == ["InlineRegionIndicesTT", "ResolveTensorViewsTT"]


def test_cache_key_depends_on_options(kernel):
    other = tilelang_tt.compile(gemm(), out_idx=[-1], partition="column_major")
    assert other.build_hash != kernel.build_hash


def test_jit_decorates_a_factory():
    factory = tilelang_tt.jit(out_idx=[-1])(lambda m: gemm(M=m))
    assert factory(64).plan["grid"]["y"] == 1 and factory(64) is factory(64)


def test_out_idx_counts_from_the_end(kernel):
    assert kernel.out_idx == [2]


def test_non_primfunc_is_rejected():
    with pytest.raises(tilelang_tt.TTCompileError, match="takes a T.prim_func"):
        tilelang_tt.compile(lambda: None)


def test_grayskull_compiles_but_does_not_run():
    k = tilelang_tt.compile(gemm(), target="grayskull")
    with pytest.raises(tilelang_tt.TTRuntimeError, match="mock device simulates wormhole and blackhole"):
        k()


def test_host_build_is_shared_when_only_kernels_differ(kernel):
    other = tilelang_tt.compile(gemm(), out_idx=[-1], enable_prefetch=False)
    assert other.host_hash == kernel.host_hash and other.build_hash != kernel.build_hash


def test_the_host_object_is_keyed_by_the_shim_headers(kernel, tmp_path, monkeypatch):
    """Shims that differ in one header give different host objects; identical ones share it."""

    def shim(name, text):
        header = tmp_path / name / "tt-metalium" / "host_api.hpp"
        header.parent.mkdir(parents=True)
        header.write_text(text)
        return str(tmp_path / name)

    keys = {}
    for name, text in (("a", "// one version\n"), ("b", "// another version\n"), ("c", "// one version\n")):
        monkeypatch.setenv("RUNTIME_MOCK_SHIM_INCLUDE", shim(name, text))
        keys[name] = kernel.host_hash
    assert keys["a"] != keys["b"], "a changed shim header must not reuse the host object built before it"
    assert keys["a"] == keys["c"], "the same headers must share the host object"
