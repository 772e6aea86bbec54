// 1 / x (the SDK's compute_kernel_api/eltwise_unary/recip.h), applied in place to DST[idst] in fp32.
#pragma once

#include "compute_kernel_api/common.h"
#include <cstring>

#include "tt_mock_device/sfpu.h"

namespace ckernel {

template <bool legacy_compat = true>
ALWI void recip_tile_init() {
    tt_mock_device::sfpu_init();
}

template <bool legacy_compat = true>
ALWI void recip_tile(uint32_t idst, int vector_mode = (int)VectorMode::RC, tt_mock_device::CallSite site = {}) {
    (void)vector_mode;
    tt_mock_device::sfpu_apply(idst, "recip_tile", site, [](float x) { return 1.0f / x; });
}

}  // namespace ckernel
