// 1 / sqrt(x) (the SDK's compute_kernel_api/eltwise_unary/rsqrt.h), applied in place to DST[idst] in fp32.
#pragma once

#include "compute_kernel_api/common.h"
#include <cstring>

#include "tt_mock_device/sfpu.h"

namespace ckernel {

template <bool legacy_compat = false>
ALWI void rsqrt_tile_init() {
    tt_mock_device::sfpu_init();
}

template <bool legacy_compat = false, bool FAST_APPROX = false>
ALWI void rsqrt_tile(uint32_t idst, tt_mock_device::CallSite site = {}) {
    tt_mock_device::sfpu_apply(idst, "rsqrt_tile", site, [](float x) { return 1.0f / std::sqrt(x); });
}

}  // namespace ckernel
