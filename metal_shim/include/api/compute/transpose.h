// Transposing a tile within itself into DST (the SDK's api/compute/transpose.h; transpose_wh.h before
// tt-metal 0.81).
#pragma once

#include "api/compute/common.h"
#include "runtime_mock/kernel_abi/tile_math.h"

namespace ckernel {

ALWI void transpose_init(uint32_t icb, uint32_t call_line = __builtin_LINE()) {
    (void)icb;
    (void)call_line;
    runtime_mock::kernel_abi::ctx()->compute.unpack_transpose = 0;
}

ALWI void transpose_tile(uint32_t icb, uint32_t itile, uint32_t idst, runtime_mock::kernel_abi::CallSite site = {}) {
    using namespace runtime_mock::kernel_abi;
    float* dst = dst_math_tile(idst, "transpose_tile", site);
    TileBuffer in;
    unpack_from_cb(icb, itile, in.v, "transpose_tile", site);
    runtime_mock::kernel_abi::transpose_tile(dst, in.v);
    ctx()->compute.dst_written |= 1u << idst;
    record_compute("transpose_tile", 1, icb);
}

}  // namespace ckernel
