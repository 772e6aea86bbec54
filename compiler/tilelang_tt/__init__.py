"""TileLang-TT: compile TileLang-style tile programs to Tenstorrent TT-Metalium C++.

    import tilelang_tt
    import tilelang_tt.language as T

    kernel = tilelang_tt.compile(my_prim_func, out_idx=[-1], target="wormhole")
    C = kernel(A, B)

TileLang programs run after changing only their imports (``import tilelang_tt as tilelang``).
``check_against_reference(kernel, ref_program)`` runs a kernel on random inputs and compares it with the
program's reference; ``__version__`` is the package's version (``python -m tilelang_tt --version``).
"""

from . import language, math, profiler
from .errors import TTCompileError, TTError, TTResourceError, TTRuntimeError
from .jit import JITKernel, compile, jit
from .math import cdiv, next_power_of_2
from .options import CompileOptions
from .pass_config import PassConfigKey
from .pipeline import build_tt_pipeline, emit_tt_artifacts, run_pipeline, validate_module_for_tt
from .reference_check import CheckResult, check_against_reference
from .staged_kernel import StagedKernel
from .target import TARGETS, TTTarget, get_target
from .tensor_supply import TensorSupplyType
from .version import __version__

__all__ = [
    "__version__",
    "language",
    "compile",
    "jit",
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
    "CheckResult",
    "check_against_reference",
]
