"""One user of the device's build cache, run as its own process by test_cache.py.

Builds the copy_host host program into the cache that RUNTIME_MOCK_CACHE_DIR names, runs it (its DRAM copy
kernel is JIT-built into the same cache) and exits 0 when the copy is exact, 1 when it is not. With
``--read-only DIR`` it first checks that it cannot write in DIR (see cache_testing for the exit statuses).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from cache_testing import ERROR, RIGHT, WRITABLE, WRONG, writable

import runtime_mock

KERNELS = Path(__file__).absolute().parent / "kernels"


def main(argv: list[str]) -> int:
    if argv[:1] == ["--read-only"] and writable(argv[1]):
        return WRITABLE
    source = np.random.default_rng(5).integers(0, 2**16, size=4096, dtype=np.uint16)
    result = np.zeros_like(source)
    try:
        so = runtime_mock.build_host_program([KERNELS / "copy_host.cpp"], defines={"COPY_ELEMENTS": "4096"})
        runtime_mock.HostProgram(so).run(KERNELS, [source, result])
    except runtime_mock.DeviceError as err:
        print(f"{type(err).__name__}: {err}", file=sys.stderr)
        return ERROR
    return RIGHT if np.array_equal(result, source) else WRONG


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
