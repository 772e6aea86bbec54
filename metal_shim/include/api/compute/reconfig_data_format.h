// Unpacker data-format reconfiguration (the SDK's api/compute/reconfig_data_format.h). The mock
// unpacker reads each CB's own format on every call, so these only validate the CB indices.
#pragma once

#include "api/compute/common.h"

namespace ckernel {

ALWI void reconfig_data_format(uint32_t srca_new, uint32_t srcb_new, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::circular_buffer(srca_new, "reconfig_data_format", site);
    runtime_mock::kernel_abi::circular_buffer(srcb_new, "reconfig_data_format", site);
}

ALWI void reconfig_data_format(uint32_t srca_old, uint32_t srca_new, uint32_t srcb_old, uint32_t srcb_new,
                               runtime_mock::kernel_abi::CallSite site = {}) {
    (void)srca_old;
    (void)srcb_old;
    reconfig_data_format(srca_new, srcb_new, site);
}

ALWI void reconfig_data_format_srca(uint32_t srca_new, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::circular_buffer(srca_new, "reconfig_data_format_srca", site);
}

ALWI void reconfig_data_format_srca(uint32_t srca_old, uint32_t srca_new,
                                    runtime_mock::kernel_abi::CallSite site = {}) {
    (void)srca_old;
    reconfig_data_format_srca(srca_new, site);
}

ALWI void reconfig_data_format_srcb(uint32_t srcb_new, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::circular_buffer(srcb_new, "reconfig_data_format_srcb", site);
}

ALWI void reconfig_data_format_srcb(uint32_t srcb_old, uint32_t srcb_new,
                                    runtime_mock::kernel_abi::CallSite site = {}) {
    (void)srcb_old;
    reconfig_data_format_srcb(srcb_new, site);
}

}  // namespace ckernel
