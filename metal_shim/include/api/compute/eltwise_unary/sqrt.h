// sqrt(x) (the SDK's api/compute/eltwise_unary/sqrt.h), applied in place to DST[idst] in fp32.
#pragma once

#include "api/compute/common.h"
#include <cstring>

#include "runtime_mock/kernel_abi/sfpu.h"

namespace ckernel {

ALWI void sqrt_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}

template <bool FAST_APPROX = false>
ALWI void sqrt_tile(uint32_t idst, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::sfpu_apply(idst, "sqrt_tile", site, [](float x) { return std::sqrt(x); });
}

}  // namespace ckernel
