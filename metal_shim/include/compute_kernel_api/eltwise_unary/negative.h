// -x (the SDK's compute_kernel_api/eltwise_unary/negative.h), applied in place to DST[idst] in fp32.
#pragma once

#include "compute_kernel_api/common.h"
#include <cstring>

#include "tt_mock_device/sfpu.h"

namespace ckernel {

ALWI void negative_tile_init() {
    tt_mock_device::sfpu_init();
}

ALWI void negative_tile(uint32_t idst, tt_mock_device::CallSite site = {}) {
    tt_mock_device::sfpu_apply(idst, "negative_tile", site, [](float x) { return -x; });
}

}  // namespace ckernel
