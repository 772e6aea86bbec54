// log(1 + x) (the SDK's api/compute/eltwise_unary/log1p.h), applied in place to DST[idst] in fp32, accurate
// for small x where log(1 + x) would lose it.
#pragma once

#include <cmath>

#include "api/compute/common.h"
#include "runtime_mock/kernel_abi/sfpu.h"

namespace ckernel {

template <bool fast_and_approx = false, bool is_fp32_dest_acc_en = false>
ALWI void log1p_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}

template <bool fast_and_approx = false, bool is_fp32_dest_acc_en = false>
ALWI void log1p_tile(uint32_t idst, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::sfpu_apply(idst, "log1p_tile", site, [](float x) { return std::log1p(x); });
}

}  // namespace ckernel
