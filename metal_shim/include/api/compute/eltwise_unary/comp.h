// Comparisons of a DST tile with zero or with a scalar (the SDK's api/compute/eltwise_unary/comp.h),
// in place in fp32: each element becomes 1.0 where the comparison holds and 0.0 where it does not.
// The unary_*_tile scalar is given as fp32 bits. The int32 and uint variants are not provided, as DST holds
// fp32 values here.
#pragma once

#include <cstring>

#include "api/compute/common.h"
#include "runtime_mock/kernel_abi/sfpu.h"

namespace ckernel {

namespace detail {

// DST[idst] = holds(x) ? 1.0 : 0.0 for every element x.
template <typename Predicate>
ALWI void compare_tile(uint32_t idst, const char* call, runtime_mock::kernel_abi::CallSite site, Predicate holds) {
    runtime_mock::kernel_abi::sfpu_apply(idst, call, site, [holds](float x) { return holds(x) ? 1.0f : 0.0f; });
}

// DST[idst] = holds(x, s) ? 1.0 : 0.0 for every element x, with s the fp32 whose bits are param0.
template <typename Predicate>
ALWI void compare_scalar_tile(uint32_t idst, uint32_t param0, const char* call, runtime_mock::kernel_abi::CallSite site,
                              Predicate holds) {
    float s;
    std::memcpy(&s, &param0, 4);
    compare_tile(idst, call, site, [s, holds](float x) { return holds(x, s); });
}

}  // namespace detail

ALWI void unary_ne_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}
ALWI void unary_ne_tile(uint32_t idst, uint32_t param0, runtime_mock::kernel_abi::CallSite site = {}) {
    detail::compare_scalar_tile(idst, param0, "unary_ne_tile", site, [](float x, float s) { return x != s; });
}

ALWI void unary_eq_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}
ALWI void unary_eq_tile(uint32_t idst, uint32_t param0, runtime_mock::kernel_abi::CallSite site = {}) {
    detail::compare_scalar_tile(idst, param0, "unary_eq_tile", site, [](float x, float s) { return x == s; });
}

ALWI void unary_gt_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}
ALWI void unary_gt_tile(uint32_t idst, uint32_t param0, runtime_mock::kernel_abi::CallSite site = {}) {
    detail::compare_scalar_tile(idst, param0, "unary_gt_tile", site, [](float x, float s) { return x > s; });
}

ALWI void unary_ge_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}
ALWI void unary_ge_tile(uint32_t idst, uint32_t param0, runtime_mock::kernel_abi::CallSite site = {}) {
    detail::compare_scalar_tile(idst, param0, "unary_ge_tile", site, [](float x, float s) { return x >= s; });
}

ALWI void unary_lt_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}
ALWI void unary_lt_tile(uint32_t idst, uint32_t param0, runtime_mock::kernel_abi::CallSite site = {}) {
    detail::compare_scalar_tile(idst, param0, "unary_lt_tile", site, [](float x, float s) { return x < s; });
}

ALWI void unary_le_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}
ALWI void unary_le_tile(uint32_t idst, uint32_t param0, runtime_mock::kernel_abi::CallSite site = {}) {
    detail::compare_scalar_tile(idst, param0, "unary_le_tile", site, [](float x, float s) { return x <= s; });
}

ALWI void gtz_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}
ALWI void gtz_tile(uint32_t idst, runtime_mock::kernel_abi::CallSite site = {}) {
    detail::compare_tile(idst, "gtz_tile", site, [](float x) { return x > 0.0f; });
}

ALWI void gez_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}
ALWI void gez_tile(uint32_t idst, runtime_mock::kernel_abi::CallSite site = {}) {
    detail::compare_tile(idst, "gez_tile", site, [](float x) { return x >= 0.0f; });
}

ALWI void ltz_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}
ALWI void ltz_tile(uint32_t idst, runtime_mock::kernel_abi::CallSite site = {}) {
    detail::compare_tile(idst, "ltz_tile", site, [](float x) { return x < 0.0f; });
}

ALWI void lez_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}
ALWI void lez_tile(uint32_t idst, runtime_mock::kernel_abi::CallSite site = {}) {
    detail::compare_tile(idst, "lez_tile", site, [](float x) { return x <= 0.0f; });
}

ALWI void eqz_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}
ALWI void eqz_tile(uint32_t idst, runtime_mock::kernel_abi::CallSite site = {}) {
    detail::compare_tile(idst, "eqz_tile", site, [](float x) { return x == 0.0f; });
}

ALWI void nez_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}
ALWI void nez_tile(uint32_t idst, runtime_mock::kernel_abi::CallSite site = {}) {
    detail::compare_tile(idst, "nez_tile", site, [](float x) { return x != 0.0f; });
}

}  // namespace ckernel
