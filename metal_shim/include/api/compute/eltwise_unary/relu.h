// max(x, 0) and its clamped variants (the SDK's api/compute/eltwise_unary/relu.h), applied in place to DST[idst]
// in fp32.
#pragma once

#include "api/compute/common.h"
#include <cstring>

#include "runtime_mock/kernel_abi/sfpu.h"

namespace ckernel {

ALWI void relu_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}

ALWI void relu_tile(uint32_t idst, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::sfpu_apply(idst, "relu_tile", site, [](float x) { return x > 0.0f ? x : 0.0f; });
}

ALWI void relu_max_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}

// min(max(x, 0), upper) with upper given as fp32 bits.
ALWI void relu_max_tile(uint32_t idst, uint32_t param0, runtime_mock::kernel_abi::CallSite site = {}) {
    float upper;
    std::memcpy(&upper, &param0, 4);
    runtime_mock::kernel_abi::sfpu_apply(idst, "relu_max_tile", site,
                                         [upper](float x) { return x > 0.0f ? (x < upper ? x : upper) : 0.0f; });
}

ALWI void relu_min_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}

// x if x > lower else 0, with lower given as fp32 bits.
ALWI void relu_min_tile(uint32_t idst, uint32_t param0, runtime_mock::kernel_abi::CallSite site = {}) {
    float lower;
    std::memcpy(&lower, &param0, 4);
    runtime_mock::kernel_abi::sfpu_apply(idst, "relu_min_tile", site,
                                         [lower](float x) { return x > lower ? x : 0.0f; });
}

ALWI void leaky_relu_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}

// x if x >= 0 else slope * x, with slope given as fp32 bits.
ALWI void leaky_relu_tile(uint32_t idst, uint32_t slope = 0, runtime_mock::kernel_abi::CallSite site = {}) {
    float s;
    std::memcpy(&s, &slope, 4);
    runtime_mock::kernel_abi::sfpu_apply(idst, "leaky_relu_tile", site, [s](float x) { return x >= 0.0f ? x : s * x; });
}

}  // namespace ckernel
