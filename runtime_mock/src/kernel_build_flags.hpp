// The code-generation flags of every JIT-built kernel (jit.cpp), and of the standard-library header the build
// precompiles for kernels (//runtime_mock:pch, through print_kernel_build_flags): one list, so the two never
// drift apart (g++ would silently ignore a precompiled header built with other flags).
#pragma once

namespace runtime_mock {

inline constexpr const char* kKernelBuildFlags[] = {
    "-std=c++17",
    // -O2, not -O3: a compute kernel builds in 1.5 s instead of 4.0 s of CPU (its tile math runs in the
    // runtime library, built -O3), and every distinct program pays that build once per cache.
    "-O2",
    "-g1",  // line tables only: a fault or a stalled kernel is reported with its source line
    "-march=native",
    "-fPIC",
    "-fvisibility=hidden",
    // Probe every page of a large stack frame, so a kernel's stack overflow hits its thread's guard page
    // (a KernelFaultError) instead of jumping over it into another thread's memory.
    "-fstack-clash-protection",
};

}  // namespace runtime_mock
