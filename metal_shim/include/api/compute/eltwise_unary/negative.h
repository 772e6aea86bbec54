// -x (the SDK's api/compute/eltwise_unary/negative.h), applied in place to DST[idst] in fp32.
#pragma once

#include "api/compute/common.h"
#include <cstring>

#include "runtime_mock/kernel_abi/sfpu.h"

namespace ckernel {

ALWI void negative_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}

ALWI void negative_tile(uint32_t idst, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::sfpu_apply(idst, "negative_tile", site, [](float x) { return -x; });
}

}  // namespace ckernel
