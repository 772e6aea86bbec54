"""TileLang's parallel compile (parallel_compile.py): ``factory.par_compile(configs)`` and
``tilelang.par_compile(funcs)`` compile in forked worker processes and give the kernels one process would."""

import ml_dtypes
import numpy as np
import pytest
import tilelang_tt
from programs import gemm
from tilelang_tt.errors import TTResourceError

CONFIGS = [{"bM": 32, "bN": 32}, {"bM": 64, "bN": 64}, (128, 128, 128, 128, 128)]  # a tuple: positional
# more L1 than a core has, also in the blocks made for the cores (ReblockGemmForCoresTT: 128 x 128 x 4096)
TOO_BIG = {"M": 1024, "N": 1024, "K": 4096, "bM": 1024, "bN": 1024, "bK": 4096}


@tilelang_tt.jit(out_idx=[-1])
def matmul(M=128, N=128, K=128, bM=64, bN=64, bK=32):  # noqa: N803
    return gemm(M=M, N=N, K=K, bM=bM, bN=bN, bK=bK)


def _inputs(k=128):
    rng = np.random.default_rng(5)
    return [rng.standard_normal(shape).astype(ml_dtypes.bfloat16) for shape in ((128, k), (k, 128))]


def test_workers_compile_the_kernels_one_process_would():
    kernels = matmul.par_compile(CONFIGS, num_workers=2)
    funcs = [matmul.get_tir(*c) if isinstance(c, tuple) else matmul.get_tir(**c) for c in CONFIGS]
    alone = [tilelang_tt.compile(func, out_idx=[-1]) for func in funcs]
    assert [k.artifacts for k in kernels] == [k.artifacts for k in alone]
    assert all(k.from_cache for k in kernels), (
        "the kernels should come back from the workers, not compile here"
    )
    assert matmul(**CONFIGS[1]) is kernels[1], "a later call with a config's arguments reuses its kernel"
    a, b = _inputs()
    want = a.astype(np.float32) @ b.astype(np.float32)
    for kernel in kernels:
        np.testing.assert_allclose(np.asarray(kernel(a, b), np.float32), want, rtol=2e-2, atol=0.5)
    assert kernels[0].func.attrs["global_symbol"] == "gemm_cs", "a worker's kernel rebuilds its PrimFunc"


def test_a_config_that_does_not_compile_raises_or_is_none():
    with pytest.raises(TTResourceError, match="circular buffers need"):
        matmul.par_compile([CONFIGS[0], TOO_BIG], num_workers=2)
    with pytest.warns(UserWarning, match=r"par_compile: kernel 1 did not compile: .*circular buffers need"):
        kernels = matmul.par_compile([CONFIGS[0], TOO_BIG], num_workers=2, ignore_error=True)
    assert kernels[1] is None and kernels[0] is not None


def test_tilelang_par_compile_takes_prim_funcs():
    funcs = [gemm(bM=32, bN=32), gemm(bM=64, bN=64)]
    kernels = tilelang_tt.par_compile(funcs, out_idx=[-1], num_workers=2)
    a, b = _inputs()
    want = a.astype(np.float32) @ b.astype(np.float32)
    for kernel in kernels:
        np.testing.assert_allclose(np.asarray(kernel(a, b), np.float32), want, rtol=2e-2, atol=0.5)


def test_get_kernel_source_compiles_for_the_arguments():
    source = matmul.get_kernel_source(bM=32, bN=32)
    assert "===== compute.cpp" in source and "matmul" in source, source[:200]
