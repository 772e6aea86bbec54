// Element-wise selection between two DST tiles by a condition tile (the SDK's
// api/compute/eltwise_unary/where.h): DST[odst] = DST[idst0] != 0 ? DST[idst1] : DST[idst2], in fp32.
// data_format names the tiles' format, as in the SDK; DST holds fp32 values here, so only the float formats
// (Float32, Float16_b, Float16) are accepted.
#pragma once

#include "api/compute/common.h"
#include "runtime_mock/kernel_abi/data_format.h"
#include "runtime_mock/kernel_abi/sfpu.h"

namespace ckernel {

ALWI void where_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}

template <DataFormat data_format>
ALWI void where_tile(uint32_t idst0, uint32_t idst1, uint32_t idst2, uint32_t odst,
                     runtime_mock::kernel_abi::CallSite site = {}) {
    static_assert(data_format == DataFormat::Float32 || data_format == DataFormat::Float16_b ||
                      data_format == DataFormat::Float16,
                  "where_tile: the mock device's DST holds fp32 values; use DataFormat::Float32, Float16_b or "
                  "Float16 (integer where is not simulated)");
    runtime_mock::kernel_abi::sfpu_apply_ternary(
        idst0, idst1, idst2, odst, "where_tile", site,
        [](float condition, float if_true, float if_false) { return condition != 0.0f ? if_true : if_false; });
}

}  // namespace ckernel
