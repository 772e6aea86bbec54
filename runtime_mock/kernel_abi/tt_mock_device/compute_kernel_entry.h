// Force-included (-include) into every compute kernel. The SDK compiles a compute kernel three times
// (UNPACK, MATH, PACK); the mock device compiles it once with all three sections enabled and runs it on
// one fiber. Both entry forms are accepted: `void kernel_main()` and the legacy
// `namespace NAMESPACE { void MAIN { ... } }`. The runtime passes the ComputeConfig as
// -DTT_MOCK_FP32_DEST_ACC=, -DTT_MOCK_DST_FULL_SYNC=, -DTT_MOCK_MATH_FIDELITY=, -DTT_MOCK_APPROX=.
#pragma once

#include <cstdint>

#include "tt_mock_device/dprint.h"
#include "tt_mock_device/kernel_context.h"
#include "tt_mock_device/kernel_resume.h"

#define TRISC_UNPACK
#define TRISC_MATH
#define TRISC_PACK
#define NAMESPACE tt_mock_compute_kernel
#define MAIN compute_main()

constexpr bool DST_ACCUM_MODE = TT_MOCK_FP32_DEST_ACC;
#define DST_SYNC_MODE (TT_MOCK_DST_FULL_SYNC ? DstSync::SyncFull : DstSync::SyncHalf)
constexpr std::int32_t MATH_FIDELITY = TT_MOCK_MATH_FIDELITY;
constexpr bool APPROX = TT_MOCK_APPROX;

void kernel_main() __attribute__((weak));

namespace NAMESPACE {
void MAIN __attribute__((weak));
}

extern "C" __attribute__((visibility("default"))) void tt_mock_kernel_entry(tt_mock_device::KernelContext* context) {
    tt_mock_device::check_kernel_abi(context);
    tt_mock_device::current_context = context;
    if (kernel_main) {
        kernel_main();
    } else if (NAMESPACE::compute_main) {
        NAMESPACE::compute_main();
    } else {
        tt_mock_device::fail(tt_mock_device::ErrorKind::Protocol, "kernel_main",
                             "the compute kernel defines neither `void kernel_main()` nor "
                             "`namespace NAMESPACE { void MAIN { ... } }`",
                             tt_mock_device::CallSite());
    }
    tt_mock_device::flush_print_line();
}
