// Classification of DST values (the SDK's api/compute/eltwise_unary/isinf_isnan.h), in place in fp32: each
// element becomes 1.0 where the test holds and 0.0 where it does not.
#pragma once

#include <cmath>

#include "api/compute/common.h"
#include "api/compute/eltwise_unary/comp.h"  // detail::compare_tile: a test of each element into 1.0 / 0.0

namespace ckernel {

ALWI void isinf_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}
ALWI void isinf_tile(uint32_t idst, runtime_mock::kernel_abi::CallSite site = {}) {
    detail::compare_tile(idst, "isinf_tile", site, [](float x) { return std::isinf(x); });
}

ALWI void isposinf_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}
ALWI void isposinf_tile(uint32_t idst, runtime_mock::kernel_abi::CallSite site = {}) {
    detail::compare_tile(idst, "isposinf_tile", site, [](float x) { return std::isinf(x) && x > 0; });
}

ALWI void isneginf_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}
ALWI void isneginf_tile(uint32_t idst, runtime_mock::kernel_abi::CallSite site = {}) {
    detail::compare_tile(idst, "isneginf_tile", site, [](float x) { return std::isinf(x) && x < 0; });
}

ALWI void isnan_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}
ALWI void isnan_tile(uint32_t idst, runtime_mock::kernel_abi::CallSite site = {}) {
    detail::compare_tile(idst, "isnan_tile", site, [](float x) { return std::isnan(x); });
}

ALWI void isfinite_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}
ALWI void isfinite_tile(uint32_t idst, runtime_mock::kernel_abi::CallSite site = {}) {
    detail::compare_tile(idst, "isfinite_tile", site, [](float x) { return std::isfinite(x); });
}

}  // namespace ckernel
