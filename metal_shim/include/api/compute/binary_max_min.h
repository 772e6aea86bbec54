// Element-wise maximum and minimum of two DST tiles on the SFPU (the SDK's api/compute/binary_max_min.h):
// DST[odst] = max(DST[idst0], DST[idst1]) or min(...), in fp32. Any vector_mode but VectorMode::RC is refused;
// the int32 variants are not provided, as DST holds fp32 values here.
#pragma once

#include <cmath>

#include "api/compute/common.h"
#include "runtime_mock/kernel_abi/sfpu.h"

namespace ckernel {

ALWI void binary_max_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}

ALWI void binary_max_tile(uint32_t idst0, uint32_t idst1, uint32_t odst, int vector_mode = (int)VectorMode::RC,
                          runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::sfpu_require_full_tile(vector_mode == VectorMode::RC, vector_mode, "binary_max_tile",
                                                     site);
    runtime_mock::kernel_abi::sfpu_apply_binary(idst0, idst1, odst, "binary_max_tile", site,
                                                [](float a, float b) { return std::fmax(a, b); });
}

ALWI void binary_min_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}

ALWI void binary_min_tile(uint32_t idst0, uint32_t idst1, uint32_t odst, int vector_mode = (int)VectorMode::RC,
                          runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::sfpu_require_full_tile(vector_mode == VectorMode::RC, vector_mode, "binary_min_tile",
                                                     site);
    runtime_mock::kernel_abi::sfpu_apply_binary(idst0, idst1, odst, "binary_min_tile", site,
                                                [](float a, float b) { return std::fmin(a, b); });
}

}  // namespace ckernel
