// print_kernel_build_flags: prints the kernels' code-generation flags (kernel_build_flags.hpp), one per line,
// for the build's precompiled kernel header (//runtime_mock:pch).
#include <cstdio>

#include "kernel_build_flags.hpp"

int main() {
    for (const char* flag : runtime_mock::kKernelBuildFlags)
        std::printf("%s\n", flag);
    return 0;
}
