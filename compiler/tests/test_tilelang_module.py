"""The ``tilelang`` module surface without a device: jit/compile arguments, classic factories,
PassConfigKey, cdiv/next_power_of_2."""

import pytest
import tilelang_tt as tilelang
import tilelang_tt.language as T
from programs import gemm


def test_cdiv_and_next_power_of_2_follow_tilelang():
    assert [tilelang.cdiv(a, 64) for a in (1, 64, 65, 275)] == [1, 1, 2, 5]
    assert [tilelang.math.next_power_of_2(x) for x in (0, 1, 5, 64, 65)] == [2, 1, 8, 64, 128]
    assert tilelang.next_power_of_2 is tilelang.math.next_power_of_2


def test_pass_config_keys_are_tilelang_names_and_strings():
    key = tilelang.PassConfigKey
    assert key.TL_DISABLE_TMA_LOWER == "tl.disable_tma_lower"
    assert key.TL_DISABLE_WARP_SPECIALIZED == "tl.disable_warp_specialized"
    assert key.TL_DISABLE_THREAD_STORAGE_SYNC.value == "tl.disable_thread_storage_sync"
    assert key("tl.enable_fast_math") is key.TL_ENABLE_FAST_MATH


def test_pass_configs_are_accepted_by_key_or_string():
    configs = {tilelang.PassConfigKey.TL_ENABLE_FAST_MATH: True, "tl.disable_tma_lower": True}
    kernel = tilelang.compile(gemm(), out_idx=[-1], pass_configs=configs)
    assert kernel.build_hash == tilelang.compile(gemm(), out_idx=[-1]).build_hash  # no effect on TT


def test_unknown_pass_config_key_names_it_and_suggests():
    with pytest.raises(
        tilelang.TTCompileError, match=r"unknown key 'tl.disable_tma_lowr'.*'tl.disable_tma_lower'"
    ):
        tilelang.compile(gemm(), pass_configs={"tl.disable_tma_lowr": True})


def test_approximate_exp_takes_a_bool():
    with pytest.raises(
        tilelang.TTCompileError, match=r"'tl.tt.approximate_exp'\] is True or False, got 'yes'"
    ):
        tilelang.compile(gemm(), pass_configs={"tl.tt.approximate_exp": "yes"})


@pytest.mark.parametrize("target", [None, "auto", "cuda", "cuda -arch=sm_90", {"kind": "hip"}])
def test_gpu_and_auto_targets_mean_the_default_device(target):
    assert tilelang.compile(gemm(), target=target).options.target == "wormhole"


def test_tenstorrent_targets_select_the_device():
    assert tilelang.compile(gemm(), target="blackhole").options.target == "blackhole"


def test_unknown_execution_backend_is_an_error():
    with pytest.raises(tilelang.TTCompileError, match="unknown execution_backend 'nvcc'.*tvm_ffi"):
        tilelang.compile(gemm(), execution_backend="nvcc")


def test_gpu_only_compile_arguments_are_accepted():
    kernel = tilelang.compile(
        gemm(),
        out_idx=-1,
        execution_backend="cython",
        target_host="llvm",
        verbose=True,
        compile_flags=["-O3"],
    )
    assert kernel.out_idx == [2]


def _matmul(M, N, K, block_M=64, block_N=64, block_K=32):
    return gemm(M=M, N=N, K=K, bM=block_M, bN=block_N, bK=block_K)


def test_factory_compiles_once_per_argument_tuple_whatever_the_spelling():
    factory = tilelang.jit(out_idx=[-1])(_matmul)
    kernel = factory(128, 64, 64)
    assert factory(M=128, N=64, K=64) is kernel and factory.compile(128, 64, 64, 64) is kernel
    assert factory(128, 64, 64, block_K=64) is not kernel
    assert kernel.out_idx == [2] and kernel.plan["grid"]["num_blocks"] == 2


def test_factory_get_tir_returns_the_primfunc():
    factory = tilelang.jit(_matmul)
    assert factory.get_tir(64, 64, 64).script() == _matmul(64, 64, 64).script()


def test_bare_jit_and_jit_on_a_primfunc():
    assert tilelang.jit(_matmul)(64, 64, 64).out_idx == []
    assert isinstance(tilelang.jit(out_idx=[-1])(gemm()), tilelang.JITKernel)


def test_jit_settings_reach_the_kernels():
    factory = tilelang.jit(_matmul, target="blackhole", partition="column_major")
    assert factory(64, 64, 64).options.target == "blackhole"
    assert factory(64, 64, 64).options.partition == "column_major"


def test_factory_arguments_must_bind_and_hash():
    factory = tilelang.jit(_matmul)
    with pytest.raises(TypeError, match=r"_matmul\(\): missing a required argument: 'K'"):
        factory(64, 64)
    with pytest.raises(TypeError, match="argument block_M of _matmul is a ndarray, which cannot key"):
        import numpy as np

        factory(64, 64, 64, block_M=np.zeros(2))


def test_factory_that_returns_no_primfunc_points_at_its_def():
    @tilelang.jit
    def not_a_factory(n):
        return n

    with pytest.raises(
        tilelang.TTCompileError, match="not_a_factory\\(\\) returned int, not a T.prim_func"
    ) as err:
        not_a_factory(3)
    assert (
        err.value.filename == __file__
        and err.value.lineno == not_a_factory.__wrapped__.__code__.co_firstlineno + 1
    )


def test_t_namespace_has_const_and_empty():
    assert T.const is tilelang.eager_trace.const and T.empty is tilelang.eager_trace.empty


def test_carver_driver_answers_for_the_default_target():
    from tilelang_tt.carver.arch import driver
    from tilelang_tt.target import get_target

    wormhole = get_target("wormhole")
    assert driver.get_num_sms() == wormhole.num_cores == 64, "a persistent kernel's workers: Tensix cores"
    assert driver.get_device_name() == "wormhole"
    assert driver.get_shared_memory_per_block() == wormhole.l1_cb_budget
    assert driver.get_max_dynamic_shared_size_bytes(format="kb") == wormhole.l1_cb_budget // 1024
    with pytest.raises(ValueError, match="format must be one of bytes, kb, mb, not 'KiB'"):
        driver.get_shared_memory_per_block(format="KiB")


def test_carver_gpu_names_import_and_using_one_is_a_located_error():
    from tilelang_tt.carver.arch import CUDA
    from tilelang_tt.carver.roller.rasterization import NoRasterization
    from tilelang_tt.carver.template import MatmulTemplate

    assert NoRasterization is not None, "TileLang's autotuned GEMM compares hints' plans with it"
    with open(__file__) as source:
        line = next(i for i, text in enumerate(source, 1) if text.strip() == 'CUDA("cuda")')
    with pytest.raises(
        tilelang.TTCompileError, match=r"tilelang.carver.arch.CUDA schedules for GPUs"
    ) as caught:
        CUDA("cuda")
    assert (caught.value.filename, caught.value.lineno) == (__file__, line), str(caught.value)
    with pytest.raises(tilelang.TTCompileError, match=r"carver.template.MatmulTemplate .*tilelang.autotune"):
        MatmulTemplate(M=256, N=256, K=256)
    with pytest.raises(ImportError, match="cannot import name 'Volta'"):
        from tilelang_tt.carver.arch import Volta  # noqa: F401


def test_gpu_only_modules_import_and_using_a_name_is_a_located_error():
    """tilelang.cuda, .rocm, .contrib, .engine and .tools (and any module path under them) import; calling a
    name from one, or reading an attribute of it, is a TTCompileError at that line naming the module."""
    import tilelang_tt.cuda.intrinsics.layout.utils  # noqa: F401
    from tilelang_tt.contrib import nvcc
    from tilelang_tt.cuda.intrinsics import get_swizzle_layout

    with open(__file__) as source:
        lines = {text.strip(): i for i, text in enumerate(source, 1)}
    with pytest.raises(tilelang.TTCompileError, match=r"tilelang.contrib.nvcc is not available") as caught:
        nvcc.compile_cuda("__global__ void k() {}")
    assert (caught.value.filename, caught.value.lineno) == (
        __file__,
        lines['nvcc.compile_cuda("__global__ void k() {}")'],
    )
    with pytest.raises(tilelang.TTCompileError, match=r"tilelang.cuda holds CUDA intrinsics"):
        get_swizzle_layout(16, 16)
    with pytest.raises(
        tilelang.TTCompileError, match=r"tilelang.tools.plot_layout .*roofline Analyzer"
    ) as caught:
        tilelang.tools.plot_layout(None, name="layout")
    assert caught.value.lineno == lines['tilelang.tools.plot_layout(None, name="layout")']


def test_language_submodules_programs_import_by_name():
    """Upstream's tilelang.language is a package: its dtypes module (also tilelang.dtypes) gives the dtype
    class, the dtype objects and a torch map; its fp8 helpers pick a GPU float8 dtype, a located error here.
    The top level re-exports TVM's DataType and the Profiler class, as upstream's does."""
    torch = pytest.importorskip("torch")
    from tilelang_tt import DataType, Profiler
    from tilelang_tt.language.dtypes import _TORCH_DTYPE_TO_STR, bfloat16, dtype
    from tilelang_tt.language.fp8 import determine_fp8_type

    assert dtype(_TORCH_DTYPE_TO_STR[torch.bfloat16]) == bfloat16 == T.bfloat16 == tilelang.dtypes.bfloat16
    assert DataType("float16").bits == 16 and Profiler is tilelang.profiler.Profiler
    with open(__file__) as source:
        lines = {text.strip(): i for i, text in enumerate(source, 1)}
    with pytest.raises(
        tilelang.TTCompileError, match=r"determine_fp8_type is not supported .*float"
    ) as caught:
        determine_fp8_type("e4m3")
    assert (caught.value.filename, caught.value.lineno) == (__file__, lines['determine_fp8_type("e4m3")'])


def test_tileop_gemm_warp_policy_is_the_languages():
    from tilelang_tt.tileop.base import GemmWarpPolicy

    assert GemmWarpPolicy is T.GemmWarpPolicy


def test_set_log_level_sets_the_packages_logger():
    import logging

    logger = logging.getLogger("tilelang_tt")
    before = logger.level
    try:
        tilelang.set_log_level("warning")
        assert logger.level == logging.WARNING
        tilelang.set_log_level(logging.DEBUG)
        assert logger.level == logging.DEBUG
    finally:
        logger.setLevel(before)


def test_a_one_dimensional_tensor_annotation_without_a_tuple():
    """DeepSeek's top-k selector writes ``T.Tensor[(batch), dtype]``: ``(batch)`` is ``batch``, one size."""

    @T.prim_func
    def main(A: T.Tensor[(64), T.float32], B: T.Tensor(64, "float32")):
        with T.Kernel(1) as bx:
            a = T.alloc_fragment((64,), "float32")
            T.copy(A[0:64], a)
            T.copy(a, B[0:64])

    assert [[int(s) for s in p.ty.shape] for p in main.params] == [[64], [64]]
