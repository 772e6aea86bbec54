// The standard headers the kernel API (metal_shim/include, runtime_mock/kernel_abi) includes, which the build
// precompiles with the kernels' flags (//runtime_mock:pch, kernel_build_flags.hpp) and the JIT force-includes
// first (RUNTIME_MOCK_KERNEL_PCH): they are most of what a data-movement kernel's compiler parses. Only the
// standard library: the kernel API's own headers read macros that differ from build to build (compile-time
// arguments, CB formats), which a precompiled header cannot.
#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
