// 1 / x (the SDK's api/compute/eltwise_unary/recip.h), applied in place to DST[idst] in fp32.
#pragma once

#include "api/compute/common.h"
#include <cstring>

#include "runtime_mock/kernel_abi/sfpu.h"

namespace ckernel {

template <bool legacy_compat = true>
ALWI void recip_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}

template <bool legacy_compat = true>
ALWI void recip_tile(uint32_t idst, int vector_mode = (int)VectorMode::RC,
                     runtime_mock::kernel_abi::CallSite site = {}) {
    (void)vector_mode;
    runtime_mock::kernel_abi::sfpu_apply(idst, "recip_tile", site, [](float x) { return 1.0f / x; });
}

}  // namespace ckernel
