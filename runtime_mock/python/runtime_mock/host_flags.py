"""How host programs compile: the flags build_host_program passes, and the header the build precompiles
with the same flags. Run as a script (//runtime_mock:print_host_build_flags, which needs neither the package
nor its extension), it prints the precompiled header's flags, one per line, for that build step.

A precompiled header is used only when it was built with exactly these flags; g++ checks that itself and
otherwise reads the header's text, so a stale or foreign ``.gch`` costs time, never correctness.
"""

from __future__ import annotations

from pathlib import Path

# The force-included header (its path in the tree); its .gch lies beside it when the build made one.
PRECOMPILED_HEADER = Path("runtime_mock/pch/host_program.hpp")

# The language standard the precompiled header is built for (build_host_program's default).
PRECOMPILED_STD = "c++20"


def compile_flags(std: str) -> list[str]:
    """The code-generation flags of a host program built as ``std`` (no sources, outputs or includes)."""
    # -Og: host code only sets up the device (the host API and (un)tilize run in _runtime_mock.so, built
    # optimised). A host program builds in 0.93 s of CPU at -Og, 1.14 s at -O1 and 1.77 s at -O0 (the
    # main.cpp of an element-wise program; the SDK programming examples' suite runs in two thirds of its
    # time); -O2 adds a fifth to -O1 (1.6 s against 1.3 s of CPU for a 1024^3 GEMM program).
    # -Wno-narrowing: like the SDK's programming examples, narrowing in braced runtime-arg lists is accepted.
    return [f"-std={std}", "-Og", "-fPIC", "-pthread", "-Wno-narrowing"]


if __name__ == "__main__":
    print("\n".join(compile_flags(PRECOMPILED_STD)))
