// e^x (the SDK's api/compute/eltwise_unary/exp.h), applied in place to DST[idst] in fp32: exactly, or with
// approx as the card's fast approximation computes it.
#pragma once

#include "api/compute/common.h"
#include <algorithm>
#include <cstring>

#include "runtime_mock/kernel_abi/sfpu.h"

namespace ckernel {

// Whether the SDK's fast approximation clamps inputs below about -88.5 (where its line leaves the float
// range); the mock clamps either way.
enum class InputClamping : uint8_t {
    ClampToNegative = 1,
    None = 0,
};

namespace detail {

// The SDK 0.81's fast approximation of e^x (exp_tile<true>; ckernel_sfpu_exp.h): Schraudolph's method — the
// line 256/ln2 · x + 32500.818, rounded to a 16-bit integer, read as the top 16 bits of a float shifted one
// place right (exponent and 8 mantissa bits): 2^(x/ln2 + 126.96) / 2^127 with a linear mantissa, within
// 3.2% of e^x. Inputs are clamped at -88.5 first; the integer saturates at 0 and 65535.
inline float exp_fast_approximation(float x) {
    constexpr float kSlope = 256.0f * 1.4426950408889634f;
    constexpr float kOffset = 32500.818359375f;
    const float line = kSlope * std::max(x, -88.5f) + kOffset;
    const float rounded = std::nearbyint(std::min(std::max(line, 0.0f), 65535.0f));  // ties to even
    const uint32_t bits = uint32_t(rounded) << 15;
    float value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

}  // namespace detail

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
    if constexpr (approx) {
        runtime_mock::kernel_abi::sfpu_apply(idst, "exp_tile<true>", site,
                                             [s](float x) { return detail::exp_fast_approximation(x * s); });
    } else {
        runtime_mock::kernel_abi::sfpu_apply(idst, "exp_tile", site, [s](float x) { return std::exp(x * s); });
    }
}

}  // namespace ckernel
