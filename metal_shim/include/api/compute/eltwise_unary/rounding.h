// Rounding (the SDK's api/compute/eltwise_unary/rounding.h), applied in place to DST[idst] in fp32; one init
// serves every call of the header. round_tile rounds to `decimals` places, halves to even.
#pragma once

#include <cmath>

#include "api/compute/common.h"
#include "runtime_mock/kernel_abi/sfpu.h"

namespace ckernel {

ALWI void rounding_op_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}

ALWI void ceil_tile(uint32_t idst, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::sfpu_apply(idst, "ceil_tile", site, [](float x) { return std::ceil(x); });
}

ALWI void floor_tile(uint32_t idst, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::sfpu_apply(idst, "floor_tile", site, [](float x) { return std::floor(x); });
}

ALWI void trunc_tile(uint32_t idst, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::sfpu_apply(idst, "trunc_tile", site, [](float x) { return std::trunc(x); });
}

// x scaled by 10^decimals, rounded to the nearest integer with halves to even (the default floating-point
// rounding mode, which std::nearbyint uses), scaled back; decimals 0 rounds to an integer exactly.
ALWI void round_tile(uint32_t idst, int32_t decimals, runtime_mock::kernel_abi::CallSite site = {}) {
    const float scale = std::pow(10.0f, static_cast<float>(decimals));
    runtime_mock::kernel_abi::sfpu_apply(idst, "round_tile", site, [decimals, scale](float x) {
        return decimals == 0 ? std::nearbyint(x) : std::nearbyint(x * scale) / scale;
    });
}

}  // namespace ckernel
