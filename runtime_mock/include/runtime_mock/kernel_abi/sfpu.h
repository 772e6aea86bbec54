// The SFPU: element-wise functions of DST tiles, in fp32. Unary functions work in place on one DST tile;
// binary and ternary ones read two or three DST tiles and write a third (which may be one of the inputs).
#pragma once

#include <cmath>
#include <cstdint>

#include "runtime_mock/kernel_abi/dst.h"

namespace runtime_mock::kernel_abi {

template <typename F>
inline void sfpu_apply(uint32_t idst, const char* call, CallSite site, F f) {
    float* tile = dst_math_tile(idst, call, site);
    for (uint32_t i = 0; i < kTileElements; i++)
        tile[i] = f(tile[i]);
    ctx()->compute.dst_written |= 1u << idst;
    record_compute(call, 1, kNoCb);
}

// DST[odst][i] = f(DST[idst0][i], DST[idst1][i]) for every element i.
template <typename F>
inline void sfpu_apply_binary(uint32_t idst0, uint32_t idst1, uint32_t odst, const char* call, CallSite site, F f) {
    const float* a = dst_math_tile(idst0, call, site);
    const float* b = dst_math_tile(idst1, call, site);
    float* out = dst_math_tile(odst, call, site);
    for (uint32_t i = 0; i < kTileElements; i++)
        out[i] = f(a[i], b[i]);
    ctx()->compute.dst_written |= 1u << odst;
    record_compute(call, 1, kNoCb);
}

// DST[odst][i] = f(DST[idst0][i], DST[idst1][i], DST[idst2][i]) for every element i.
template <typename F>
inline void sfpu_apply_ternary(uint32_t idst0, uint32_t idst1, uint32_t idst2, uint32_t odst, const char* call,
                               CallSite site, F f) {
    const float* a = dst_math_tile(idst0, call, site);
    const float* b = dst_math_tile(idst1, call, site);
    const float* c = dst_math_tile(idst2, call, site);
    float* out = dst_math_tile(odst, call, site);
    for (uint32_t i = 0; i < kTileElements; i++)
        out[i] = f(a[i], b[i], c[i]);
    ctx()->compute.dst_written |= 1u << odst;
    record_compute(call, 1, kNoCb);
}

// The SFPU functions simulate the whole tile only (the SDK's VectorMode::RC); `full_tile` says whether the
// kernel asked for it, and any other vector mode is refused rather than computed on the wrong faces.
inline void sfpu_require_full_tile(bool full_tile, int vector_mode, const char* call, CallSite site) {
    if (!full_tile) {
        failf(ErrorKind::Protocol, call, site,
              "vector_mode %d is not simulated; the mock device applies SFPU functions to the whole tile "
              "(VectorMode::RC)",
              vector_mode);
    }
}

inline void sfpu_init() {
    ctx()->compute.unpack_transpose = 0;
}

}  // namespace runtime_mock::kernel_abi
