"""One user of the compiler's build cache, run as its own process by test_cache.py.

Compiles the test GEMM (64x64x64) into the cache that TILELANG_TT_CACHE_DIR names, runs it on the mock
device and exits 0 when it matches numpy, 1 when it does not. With ``--read-only DIR`` it first checks that
it cannot write in DIR (see cache_testing for the exit statuses).
"""

from __future__ import annotations

import sys

import numpy as np
import tilelang_tt
from cache_testing import ERROR, RIGHT, WRITABLE, WRONG, writable
from programs import gemm
from tilelang_tt.arguments import NUMPY_DTYPES


def main(argv: list[str]) -> int:
    if argv[:1] == ["--read-only"] and writable(argv[1]):
        return WRITABLE
    rng = np.random.default_rng(7)
    a, b = (rng.standard_normal((64, 64)).astype(NUMPY_DTYPES["bfloat16"]) for _ in range(2))
    try:
        c = tilelang_tt.compile(gemm(M=64, N=64, K=64), out_idx=[-1])(a, b)
    except tilelang_tt.TTError as err:
        print(f"{type(err).__name__}: {err}", file=sys.stderr)
        return ERROR
    expected = a.astype(np.float32) @ b.astype(np.float32)
    return RIGHT if np.allclose(c.astype(np.float32), expected, atol=0.1, rtol=0.02) else WRONG


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
