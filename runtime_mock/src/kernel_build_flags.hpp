// The code-generation flags of every JIT-built kernel (jit.cpp), and of the standard-library header the build
// precompiles for kernels (//runtime_mock:pch, through print_kernel_build_flags): one list, so the two never
// drift apart (g++ would silently ignore a precompiled header built with other flags).
#pragma once

namespace runtime_mock {

inline constexpr const char* kKernelBuildFlags[] = {
    "-std=c++17",
    // -O1: a kernel's own code is thin (its tile math runs in the runtime library, built -O3), and every
    // distinct program pays its build once per cache. Flash attention's compute kernel builds in 1.9 s of
    // CPU instead of 2.6 s at -O2 (4.0 s of a GEMM's at -O3); the compiled GEMM benchmark's calls of
    // //tools:bench_runtime run as fast within its run-to-run spread.
    "-O1",
    // ...with the loop vectoriser -O2 would add: a tile's unpack and pack (kernel_abi/tile_format.h,
    // compiled into the kernel) convert whole face rows at a time.
    "-ftree-vectorize",
    "-g1",  // line tables only: a fault or a stalled kernel is reported with its source line
    "-march=native",
    "-fPIC",
    "-fvisibility=hidden",
    // Probe every page of a large stack frame, so a kernel's stack overflow hits its thread's guard page
    // (a KernelFaultError) instead of jumping over it into another thread's memory.
    "-fstack-clash-protection",
    // Every load and store of the kernel's own code calls a check that it stays in its core's L1 window
    // (kernel_abi/memory_check.h): g++'s address instrumentation in its callback form, without ASan's
    // shadow memory, stack redzones or global registration.
    "-fsanitize=kernel-address",
    "--param=asan-instrumentation-with-call-threshold=0",
    "--param=asan-stack=0",
    "--param=asan-globals=0",
    "--param=asan-use-after-return=0",
};

}  // namespace runtime_mock
