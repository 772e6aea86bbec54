// Fill with a constant (the SDK's api/compute/eltwise_unary/fill.h), applied in place to DST[idst] in fp32.
#pragma once

#include "api/compute/common.h"
#include <cstring>

#include "runtime_mock/kernel_abi/sfpu.h"

namespace ckernel {

ALWI void fill_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}

ALWI void fill_tile(uint32_t idst, float param0, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::sfpu_apply(idst, "fill_tile", site, [param0](float) { return param0; });
}

// Fill with a value given as fp32 bits.
ALWI void fill_tile_bitcast(uint32_t idst, uint32_t param0, runtime_mock::kernel_abi::CallSite site = {}) {
    float v;
    std::memcpy(&v, &param0, 4);
    fill_tile(idst, v, site);
}

}  // namespace ckernel
