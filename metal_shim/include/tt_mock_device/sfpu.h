// The SFPU: element-wise functions applied in place to a DST tile, in fp32.
#pragma once

#include <cmath>
#include <cstdint>

#include "tt_mock_device/dst.h"

namespace tt_mock_device {

template <typename F>
inline void sfpu_apply(uint32_t idst, const char* call, CallSite site, F f) {
    float* tile = dst_math_tile(idst, call, site);
    for (uint32_t i = 0; i < kTileElements; i++)
        tile[i] = f(tile[i]);
    ctx()->compute.dst_written |= 1u << idst;
}

inline void sfpu_init() {
    ctx()->compute.unpack_transpose = 0;
}

}  // namespace tt_mock_device
