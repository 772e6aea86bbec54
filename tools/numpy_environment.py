"""The environment a benchmark sets before numpy loads OpenBLAS, which reads it once.

- OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE are removed: some machines here set them, and they pin OpenBLAS to a
  slower kernel than the one it picks for the CPU.
- OPENBLAS_THREAD_TIMEOUT is 4 (unless already set): after a call OpenBLAS's worker threads otherwise spin for
  about 2^28 cycles (~0.1 s) before they sleep. In a benchmark that alternates numpy with the mock device,
  they spin on the CPUs the device's lanes are placed on and slow its next call by up to half (1024³ GEMM:
  19.9 ms against 13.6 ms), while numpy's own time does not change (5.5 ms either way, measured).

Call prepare() before ``import numpy``.
"""

from __future__ import annotations

import os

THREAD_TIMEOUT = "4"  # OpenBLAS's minimum: threads sleep after 2^4 cycles of waiting


def prepare() -> None:
    for name in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"):
        os.environ.pop(name, None)
    os.environ.setdefault("OPENBLAS_THREAD_TIMEOUT", THREAD_TIMEOUT)
