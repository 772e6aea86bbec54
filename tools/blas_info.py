"""Which BLAS numpy uses and the kernel it chose for this CPU, for benchmarks that compare against numpy
(they prepare the environment before numpy loads: numpy_environment.py)."""

from __future__ import annotations

import ctypes
import os
from pathlib import Path

import numpy as np


def blas_description() -> str:
    """numpy's BLAS library, its build configuration and the kernel it chose for this CPU (OpenBLAS)."""
    blas = np.__config__.CONFIG["Build Dependencies"]["blas"]
    text = f"{blas.get('name', '?')} {blas.get('version', '')}".strip()
    library = next(
        (
            line.split()[-1]
            for line in Path("/proc/self/maps").read_text().splitlines()
            if "openblas" in line.split()[-1]
        ),
        None,
    )
    if library is None:
        return text + " (not OpenBLAS: no kernel name)"
    lib = ctypes.CDLL(library)
    found = {}
    for what, names in {
        "config": ("scipy_openblas_get_config64_", "openblas_get_config64_", "openblas_get_config"),
        "core": ("scipy_openblas_get_corename64_", "openblas_get_corename64_", "openblas_get_corename"),
    }.items():
        for name in names:
            if hasattr(lib, name):
                function = getattr(lib, name)
                function.restype = ctypes.c_char_p
                found[what] = function().decode()
                break
    timeout = os.environ.get("OPENBLAS_THREAD_TIMEOUT", "default")
    return (
        f"{text}: {found.get('config', '?')}; kernel in use: {found.get('core', '?')}; "
        f"OPENBLAS_THREAD_TIMEOUT={timeout}"
    )
