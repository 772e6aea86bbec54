// Fill with a constant (the SDK's compute_kernel_api/eltwise_unary/fill.h), applied in place to DST[idst] in fp32.
#pragma once

#include "compute_kernel_api/common.h"
#include <cstring>

#include "tt_mock_device/sfpu.h"

namespace ckernel {

ALWI void fill_tile_init() {
    tt_mock_device::sfpu_init();
}

ALWI void fill_tile(uint32_t idst, float param0, tt_mock_device::CallSite site = {}) {
    tt_mock_device::sfpu_apply(idst, "fill_tile", site, [param0](float) { return param0; });
}

// Fill with a value given as fp32 bits.
ALWI void fill_tile_bitcast(uint32_t idst, uint32_t param0, tt_mock_device::CallSite site = {}) {
    float v;
    std::memcpy(&v, &param0, 4);
    fill_tile(idst, v, site);
}

}  // namespace ckernel
