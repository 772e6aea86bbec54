// Transposing a tile within itself into DST (the SDK's compute_kernel_api/transpose_wh.h).
#pragma once

#include "compute_kernel_api/common.h"
#include "runtime_mock/kernel_abi/tile_math.h"

namespace ckernel {

ALWI void transpose_wh_init(uint32_t icb, uint32_t ocb, uint32_t call_line = __builtin_LINE()) {
    (void)icb;
    (void)ocb;
    (void)call_line;
    runtime_mock::kernel_abi::ctx()->compute.unpack_transpose = 0;
}

ALWI void transpose_wh_init_short(uint32_t icb, uint32_t call_line = __builtin_LINE()) {
    transpose_wh_init(icb, 0, call_line);
}

ALWI void transpose_wh_tile(uint32_t icb, uint32_t itile, uint32_t idst, runtime_mock::kernel_abi::CallSite site = {}) {
    using namespace runtime_mock::kernel_abi;
    float* dst = dst_math_tile(idst, "transpose_wh_tile", site);
    TileBuffer in;
    unpack_from_cb(icb, itile, in.v, "transpose_wh_tile", site);
    transpose_tile(dst, in.v);
    ctx()->compute.dst_written |= 1u << idst;
    record_compute("transpose_wh_tile", 1, icb);
}

}  // namespace ckernel
