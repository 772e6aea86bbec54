"""TileLang-TT: compile TileLang-style tile programs to Tenstorrent TT-Metalium C++.

    import tilelang_tt
    import tilelang_tt.language as T

    kernel = tilelang_tt.compile(my_prim_func, out_idx=[-1], target="wormhole")
    C = kernel(A, B)

TileLang programs run after changing only their imports (``import tilelang_tt as tilelang``).
Nothing here imports TVM until a program is parsed or compiled: a script whose kernels all come from
the kernel cache runs without it (``kernel_cache.py``).
``check_against_reference(kernel, ref_program)`` runs a kernel on random inputs and compares it with the
program's reference; ``__version__`` is the package's version (``python -m tilelang_tt --version``).
"""

import logging

from . import gpu_modules, language, math, profiler, tvm_without_torch
from .autotuner import autotune
from .config import disable_cache, enable_cache, is_cache_enabled
from .errors import TTCompileError, TTError, TTResourceError, TTRuntimeError
from .jit import JITKernel, compile, jit, par_compile
from .math import cdiv, next_power_of_2
from .options import CompileOptions
from .pass_config import PassConfigKey
from .profiler import Profiler
from .reference_check import CheckResult, check_against_reference
from .target import TARGETS, TTTarget, get_target
from .tensor_supply import TensorSupplyType
from .version import __version__

# Nothing above imports TVM (tests/python/test_start_up.py checks), so the hook sees its first import.
tvm_without_torch.install()


def set_log_level(level: int | str) -> None:
    """TileLang's ``tilelang.set_log_level("WARNING")``: the level of this package's logger (a name such as
    "INFO", or a number of the ``logging`` module)."""
    logging.getLogger(__name__).setLevel(level.upper() if isinstance(level, str) else level)


__all__ = [
    "__version__",
    "language",
    "compile",
    "par_compile",
    "jit",
    "autotune",
    "JITKernel",
    "CompileOptions",
    "TTError",
    "TTCompileError",
    "TTResourceError",
    "TTRuntimeError",
    "build_tt_pipeline",
    "run_pipeline",
    "StagedKernel",
    "validate_module_for_tt",
    "emit_tt_artifacts",
    "TARGETS",
    "TTTarget",
    "get_target",
    "PassConfigKey",
    "TensorSupplyType",
    "cdiv",
    "next_power_of_2",
    "math",
    "profiler",
    "Profiler",
    "CheckResult",
    "check_against_reference",
    "disable_cache",
    "enable_cache",
    "is_cache_enabled",
    "annotate_tt_layout",
    "set_log_level",
]

# Names whose modules import TVM, imported on first use.
_LAZY = {
    "build_tt_pipeline": "pipeline",
    "emit_tt_artifacts": "pipeline",
    "run_pipeline": "pipeline",
    "validate_module_for_tt": "pipeline",
    "StagedKernel": "staged_kernel",
    "annotate_tt_layout": "tt_layout_hints",
}


# Submodules TileLang programs reach as attributes (``tilelang.layout.make_swizzled_layout(...)``,
# ``tilelang.dtypes.float16``); the GPU-only ones (gpu_modules.py) too.
_LAZY_SUBMODULES = ("layout", "carver", "transform", "tileop", "dtypes", *gpu_modules.GPU_MODULES)
gpu_modules.install()


def __getattr__(name: str):
    if name == "tvm":  # ``from tilelang import tvm``, as TileLang's tests write it: the TVM we run on
        import tvm

        return tvm
    if name == "DataType":  # upstream re-exports TVM's
        from tvm import DataType

        return DataType
    import importlib

    if name in _LAZY_SUBMODULES:
        return importlib.import_module(f".{name}", __name__)
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
