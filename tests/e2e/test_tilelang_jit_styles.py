"""TileLang's module surface end to end on the mock device: the eager and the classic ``tilelang.jit``
style, ``kernel.get_profiler()`` (assert_allclose, do_bench, run_once) and PassConfigKey-configured
factories, all on one GEMM shape (each new shape costs a host and kernel build)."""

import numpy as np
import pytest
import tilelang_tt as tilelang
from tilelang_gemm_programs import matmul, matmul_classic, matmul_dynamic_mnk, ref_program

M, N, K = 128, 64, 96
BLOCKS = dict(block_M=64, block_N=64, block_K=32)


def _inputs(seed=0):
    rng = np.random.default_rng(seed)
    return rng.uniform(-1, 1, (M, K)).astype(np.float16), rng.uniform(-1, 1, (K, N)).astype(np.float16)


def _max_rel_err(got, ref):
    got, ref = got.astype(np.float32), ref.astype(np.float32)
    return float(np.abs(got - ref).max() / np.abs(ref).max())


def test_eager_call_infers_the_shape_constants_and_returns_the_output():
    a, b = _inputs()
    c = matmul(a, b, 64, 64, 32)
    assert c.shape == (M, N) and c.dtype == np.float16
    assert _max_rel_err(c, ref_program(a, b)) < 1e-2


def test_eager_compile_by_keyword_is_the_kernel_the_call_used():
    kernel = matmul.compile(M=M, N=N, K=K, **BLOCKS)
    a, b = _inputs(seed=1)
    matmul(a, b, **BLOCKS)
    assert matmul.compile(M=M, N=N, K=K, **BLOCKS) is kernel
    assert _max_rel_err(kernel(a, b), ref_program(a, b)) < 1e-2


def test_profiler_assert_allclose_passes_against_the_numpy_reference():
    kernel = matmul.compile(M=M, N=N, K=K, **BLOCKS)
    kernel.get_profiler().assert_allclose(ref_program, atol=1e-2, rtol=1e-2)


def test_profiler_assert_allclose_reports_a_wrong_reference():
    profiler = matmul.compile(M=M, N=N, K=K, **BLOCKS).get_profiler()
    with pytest.raises(
        AssertionError, match=r"matmul output C: \d+ of 8192 elements differ .* max abs error"
    ):
        profiler.assert_allclose(lambda A, B: ref_program(A, B) * 2)


def test_profiler_do_bench_times_the_kernel_and_a_reference_in_milliseconds():
    profiler = matmul.compile(M=M, N=N, K=K, **BLOCKS).get_profiler()
    assert profiler.do_bench(warmup=1, rep=1) > 0
    assert profiler.do_bench(ref_program, n_warmup=1, n_repeat=3) > 0


def test_profiler_run_once_returns_the_output_for_generated_inputs():
    out = matmul.compile(M=M, N=N, K=K, **BLOCKS).get_profiler(tilelang.TensorSupplyType.One).run_once()
    np.testing.assert_array_equal(out.astype(np.float32), np.full((M, N), K, np.float32))


def test_classic_factory_with_out_idx_and_pass_configs_runs():
    kernel = matmul_classic(M, N, K, 64, 64, 32)
    assert matmul_classic(M, N, K, block_M=64, block_N=64, block_K=32) is kernel
    kernel.get_profiler(tensor_supply_type=tilelang.TensorSupplyType.Normal).assert_allclose(
        ref_program, rtol=0.01, atol=0.01
    )


def test_dynamic_sizes_compile_once_per_shape_of_the_call():
    """TileLang's examples/dynamic_shape/example_dynamic.py: T.dynamic("m") sizes take each call's tensor
    shapes (a Tenstorrent kernel is compiled per distinct shape), here with trans_A."""
    rng = np.random.default_rng(4)
    a = rng.uniform(-1, 1, (K, M)).astype(np.float16)  # (K, M): trans_A
    b = rng.uniform(-1, 1, (K, N)).astype(np.float16)
    args = (64, 64, 32, True, False, "float16", "float16", "float32", 2, 128)
    c = matmul_dynamic_mnk(a, b, *args)
    assert c.shape == (M, N)
    assert _max_rel_err(c, ref_program(a.T, b)) < 1e-2
