// e^x (the SDK's api/compute/eltwise_unary/exp.h), applied in place to DST[idst] in fp32.
#pragma once

#include "api/compute/common.h"
#include <cstring>

#include "runtime_mock/kernel_abi/sfpu.h"

namespace ckernel {

// Whether the SDK's fast approximation clamps inputs below about -88.5; the mock computes exactly either way.
enum class InputClamping : uint8_t {
    ClampToNegative = 1,
    None = 0,
};

template <bool approx = false, uint32_t scale = 0x3F800000,
          InputClamping input_clamping = InputClamping::ClampToNegative>
ALWI void exp_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}

// With scale_en, x is first multiplied by `scale` (bfloat16 bits).
template <bool approx = false, bool scale_en = false, InputClamping input_clamping = InputClamping::ClampToNegative,
          int iterations = 8>
ALWI void exp_tile(uint32_t idst, VectorMode vector_mode = VectorMode::RC, uint16_t scale = 0x3F80,
                   runtime_mock::kernel_abi::CallSite site = {}) {
    (void)vector_mode;
    const float s = scale_en ? runtime_mock::kernel_abi::bf16_to_float(scale) : 1.0f;
    runtime_mock::kernel_abi::sfpu_apply(idst, "exp_tile", site, [s](float x) { return std::exp(x * s); });
}

}  // namespace ckernel
