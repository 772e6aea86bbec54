// One-time compute engine start-up (the SDK's api/compute/compute_kernel_hw_startup.h), which tt-metal
// 0.81 requires at the start of every compute kernel, before the operations' inits. The mock engines need
// no configuration; the call validates the CB indices. src_order: src_order.h (Reverse for matmul).
#pragma once

#include "api/compute/common_globals.h"
#include "api/compute/src_order.h"
#include "runtime_mock/kernel_abi/circular_buffer.h"

namespace ckernel {

template <SrcOrder src_order = SrcOrder::Regular>
ALWI void compute_kernel_hw_startup(uint32_t icb0, uint32_t icb1, uint32_t ocb,
                                    runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::circular_buffer(icb0, "compute_kernel_hw_startup", site);
    runtime_mock::kernel_abi::circular_buffer(icb1, "compute_kernel_hw_startup", site);
    runtime_mock::kernel_abi::circular_buffer(ocb, "compute_kernel_hw_startup", site);
}

ALWI void compute_kernel_hw_startup(uint32_t icb0, uint32_t ocb, runtime_mock::kernel_abi::CallSite site = {}) {
    compute_kernel_hw_startup<SrcOrder::Regular>(icb0, icb0, ocb, site);
}

}  // namespace ckernel
