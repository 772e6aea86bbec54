// One-time compute engine start-up (the SDK's compute_kernel_api/compute_kernel_hw_startup.h). The
// mock engines need no configuration; the call validates the CB indices.
#pragma once

#include "compute_kernel_api/common.h"

namespace ckernel {

ALWI void compute_kernel_hw_startup(uint32_t icb0, uint32_t icb1, uint32_t ocb,
                                    runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::circular_buffer(icb0, "compute_kernel_hw_startup", site);
    runtime_mock::kernel_abi::circular_buffer(icb1, "compute_kernel_hw_startup", site);
    runtime_mock::kernel_abi::circular_buffer(ocb, "compute_kernel_hw_startup", site);
}

ALWI void compute_kernel_hw_startup(uint32_t icb0, uint32_t ocb, runtime_mock::kernel_abi::CallSite site = {}) {
    compute_kernel_hw_startup(icb0, icb0, ocb, site);
}

}  // namespace ckernel
