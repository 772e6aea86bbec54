"""The TileLang-compatible DSL: ``import tilelang_tt.language as T``.

Everything of TVM's TVMScript ``tirx`` namespace is available (``T.prim_func``, ``T.Buffer``, ``T.serial``,
``T.float32``, ...), plus TileLang's tile surface:

    @T.prim_func
    def gemm(A: T.Tensor((M, K), "bfloat16"), B: T.Tensor((K, N), "bfloat16"),
             C: T.Tensor((M, N), "bfloat16")):
        with T.Kernel(T.ceildiv(N, bN), T.ceildiv(M, bM), threads=128) as (bx, by):
            A_s = T.alloc_shared((bM, bK), "bfloat16")
            B_s = T.alloc_shared((bK, bN), "bfloat16")
            C_f = T.alloc_fragment((bM, bN), "float")
            T.clear(C_f)
            for k in T.Pipelined(T.ceildiv(K, bK), num_stages=2):
                T.copy(A[by * bM, k * bK], A_s)
                T.copy(B[k * bK, bx * bN], B_s)
                T.gemm(A_s, B_s, C_f)
            T.copy(C_f, C[by * bM, bx * bN])

The names live in ``tvmscript_language.py``; this module hands each out on first use, so a program whose
kernels all come from the kernel cache (``kernel_cache.py``) runs without importing TVM.

Upstream's ``tilelang.language`` is a package, and programs import two of its submodules by name
(``from tilelang.language.fp8 import determine_fp8_type``, ``from tilelang.language.dtypes import dtype``);
they are the modules of ``language_modules/`` (``__path__`` below).
"""

from __future__ import annotations

import importlib
from pathlib import Path

__path__ = [str(Path(__file__).with_name("language_modules"))]


def _names():
    return importlib.import_module(".tvmscript_language", __package__)


def __getattr__(name: str):
    """``T.<name>``: the DSL's name (or TVMScript's, or an AttributeError saying why there is none)."""
    value = getattr(_names(), name)
    if not name.startswith("__"):
        globals()[name] = value  # the next use is a plain module attribute
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(dir(_names())))
