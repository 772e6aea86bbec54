// Force-included (-include) into every compute kernel. The SDK compiles a compute kernel three times
// (UNPACK, MATH, PACK); the mock device compiles it once with all three sections enabled and runs it on
// one fiber. Both entry forms are accepted: `void kernel_main()` and the legacy
// `namespace NAMESPACE { void MAIN { ... } }`. The runtime passes the ComputeConfig as
// -DRUNTIME_MOCK_FP32_DEST_ACC=, -DRUNTIME_MOCK_DST_FULL_SYNC=, -DRUNTIME_MOCK_MATH_FIDELITY=, -DRUNTIME_MOCK_APPROX=.
#pragma once

#include <cstdint>

#include "runtime_mock/kernel_abi/dprint.h"
#include "runtime_mock/kernel_abi/kernel_context.h"
#include "runtime_mock/kernel_abi/kernel_resume.h"

#define TRISC_UNPACK
#define TRISC_MATH
#define TRISC_PACK
#define NAMESPACE runtime_mock_compute_kernel
#define MAIN compute_main()

constexpr bool DST_ACCUM_MODE = RUNTIME_MOCK_FP32_DEST_ACC;
#define DST_SYNC_MODE (RUNTIME_MOCK_DST_FULL_SYNC ? DstSync::SyncFull : DstSync::SyncHalf)
constexpr std::int32_t MATH_FIDELITY = RUNTIME_MOCK_MATH_FIDELITY;
constexpr bool APPROX = RUNTIME_MOCK_APPROX;

void kernel_main() __attribute__((weak));

namespace NAMESPACE {
void MAIN __attribute__((weak));
}

extern "C" __attribute__((visibility("default"))) void runtime_mock_kernel_entry(
    runtime_mock::kernel_abi::KernelContext* context) {
    runtime_mock::kernel_abi::check_kernel_abi(context);
    runtime_mock::kernel_abi::current_context = context;
    if (kernel_main) {
        kernel_main();
    } else if (NAMESPACE::compute_main) {
        NAMESPACE::compute_main();
    } else {
        runtime_mock::kernel_abi::fail(runtime_mock::kernel_abi::ErrorKind::Protocol, "kernel_main",
                                       "the compute kernel defines neither `void kernel_main()` nor "
                                       "`namespace NAMESPACE { void MAIN { ... } }`",
                                       runtime_mock::kernel_abi::CallSite());
    }
    runtime_mock::kernel_abi::flush_print_line();
}
