// The error function (the SDK's api/compute/eltwise_unary/erf_erfc.h), applied in place to DST[idst] in fp32;
// the SDK's approximation is computed exactly here.
#pragma once

#include <cmath>

#include "api/compute/common.h"
#include "runtime_mock/kernel_abi/sfpu.h"

namespace ckernel {

template <bool fast_and_approx = true>
ALWI void erf_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}

template <bool fast_and_approx = true>
ALWI void erf_tile(uint32_t idst, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::sfpu_apply(idst, "erf_tile", site, [](float x) { return std::erf(x); });
}

ALWI void erfc_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}

ALWI void erfc_tile(uint32_t idst, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::sfpu_apply(idst, "erfc_tile", site, [](float x) { return std::erfc(x); });
}

}  // namespace ckernel
