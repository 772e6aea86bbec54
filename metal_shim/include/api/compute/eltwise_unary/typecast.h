// Conversions between number formats in DST (the SDK's api/compute/eltwise_unary/typecast.h), in place. A DST
// slot holds a float32 value or, after an Int32 tile was unpacked or before one is packed, an integer's 32 bits
// (tile_format.h). The mock device models the conversions between Float32 and Int32; any other pair is refused
// when the kernel compiles.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "api/compute/common.h"
#include "runtime_mock/kernel_abi/sfpu.h"

namespace ckernel {

namespace detail {

template <uint32_t IN_DTYPE, uint32_t OUT_DTYPE>
constexpr bool modelled_typecast() {
    constexpr auto in = static_cast<DataFormat>(IN_DTYPE);
    constexpr auto out = static_cast<DataFormat>(OUT_DTYPE);
    return (in == DataFormat::Float32 && out == DataFormat::Int32) ||
           (in == DataFormat::Int32 && out == DataFormat::Float32);
}

// Float32 -> Int32 as the SFPU does it: toward zero, saturating at INT32_MIN / INT32_MAX (NaN gives INT32_MIN).
inline float float_to_int32_bits(float x) {
    int32_t value;
    if (std::isnan(x) || x <= -2147483648.0f)
        value = INT32_MIN;
    else if (x >= 2147483648.0f)
        value = INT32_MAX;
    else
        value = static_cast<int32_t>(x);
    float bits;
    std::memcpy(&bits, &value, 4);
    return bits;
}

// Int32 -> Float32, rounded to nearest even.
inline float int32_bits_to_float(float bits) {
    int32_t value;
    std::memcpy(&value, &bits, 4);
    return static_cast<float>(value);
}

}  // namespace detail

template <uint32_t IN_DTYPE, uint32_t OUT_DTYPE>
ALWI void typecast_tile_init() {
    static_assert(detail::modelled_typecast<IN_DTYPE, OUT_DTYPE>(),
                  "the mock device models typecast_tile between Float32 and Int32 only");
    runtime_mock::kernel_abi::sfpu_init();
}

template <uint32_t IN_DTYPE, uint32_t OUT_DTYPE>
ALWI void typecast_tile(uint32_t idst, runtime_mock::kernel_abi::CallSite site = {}) {
    static_assert(detail::modelled_typecast<IN_DTYPE, OUT_DTYPE>(),
                  "the mock device models typecast_tile between Float32 and Int32 only");
    if constexpr (static_cast<DataFormat>(OUT_DTYPE) == DataFormat::Int32)
        runtime_mock::kernel_abi::sfpu_apply(idst, "typecast_tile", site, detail::float_to_int32_bits);
    else
        runtime_mock::kernel_abi::sfpu_apply(idst, "typecast_tile", site, detail::int32_bits_to_float);
}

}  // namespace ckernel
