// compute_kernel_api/transpose_wh.h: tt-metal's tile transpose before 0.81 renamed it api/compute/transpose.h
// (transpose_init, transpose_tile). It forwards there and keeps the former names, so kernels written for
// the older API still compile.
#pragma once

#include "api/compute/transpose.h"

namespace ckernel {

ALWI void transpose_wh_init(uint32_t icb, uint32_t ocb, uint32_t call_line = __builtin_LINE()) {
    (void)ocb;
    transpose_init(icb, call_line);
}

ALWI void transpose_wh_init_short(uint32_t icb, uint32_t call_line = __builtin_LINE()) {
    transpose_init(icb, call_line);
}

ALWI void transpose_wh_tile(uint32_t icb, uint32_t itile, uint32_t idst, runtime_mock::kernel_abi::CallSite site = {}) {
    transpose_tile(icb, itile, idst, site);
}

}  // namespace ckernel
