// Trigonometric and hyperbolic functions (the SDK's api/compute/eltwise_unary/trigonometry.h), applied in place
// to DST[idst] in fp32. The SDK's polynomial approximations are computed exactly here; outside a function's
// domain (asin of 2, acosh of 0) the result is NaN, as the SDK's.
#pragma once

#include <cmath>

#include "api/compute/common.h"
#include "runtime_mock/kernel_abi/sfpu.h"

namespace ckernel {

template <bool is_fp32_dest_acc_en = false>
ALWI void sin_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}

template <bool is_fp32_dest_acc_en = false>
ALWI void sin_tile(uint32_t idst, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::sfpu_apply(idst, "sin_tile", site, [](float x) { return std::sin(x); });
}

template <bool is_fp32_dest_acc_en = false>
ALWI void cos_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}

template <bool is_fp32_dest_acc_en = false>
ALWI void cos_tile(uint32_t idst, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::sfpu_apply(idst, "cos_tile", site, [](float x) { return std::cos(x); });
}

template <bool is_fp32_dest_acc_en = false>
ALWI void tan_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}

template <bool is_fp32_dest_acc_en = false>
ALWI void tan_tile(uint32_t idst, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::sfpu_apply(idst, "tan_tile", site, [](float x) { return std::tan(x); });
}

template <bool is_fp32_dest_acc_en = false>
ALWI void asin_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}

template <bool is_fp32_dest_acc_en = false>
ALWI void asin_tile(uint32_t idst, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::sfpu_apply(idst, "asin_tile", site, [](float x) { return std::asin(x); });
}

template <bool is_fp32_dest_acc_en = false>
ALWI void acos_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}

template <bool is_fp32_dest_acc_en = false>
ALWI void acos_tile(uint32_t idst, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::sfpu_apply(idst, "acos_tile", site, [](float x) { return std::acos(x); });
}

template <bool is_fp32_dest_acc_en = false>
ALWI void atan_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}

template <bool is_fp32_dest_acc_en = false>
ALWI void atan_tile(uint32_t idst, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::sfpu_apply(idst, "atan_tile", site, [](float x) { return std::atan(x); });
}

template <bool is_fp32_dest_acc_en = false>
ALWI void sinh_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}

template <bool is_fp32_dest_acc_en = false>
ALWI void sinh_tile(uint32_t idst, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::sfpu_apply(idst, "sinh_tile", site, [](float x) { return std::sinh(x); });
}

template <bool is_fp32_dest_acc_en = false>
ALWI void cosh_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}

template <bool is_fp32_dest_acc_en = false>
ALWI void cosh_tile(uint32_t idst, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::sfpu_apply(idst, "cosh_tile", site, [](float x) { return std::cosh(x); });
}

template <bool is_fp32_dest_acc_en = false>
ALWI void asinh_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}

template <bool is_fp32_dest_acc_en = false>
ALWI void asinh_tile(uint32_t idst, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::sfpu_apply(idst, "asinh_tile", site, [](float x) { return std::asinh(x); });
}

template <bool is_fp32_dest_acc_en = false>
ALWI void acosh_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}

template <bool is_fp32_dest_acc_en = false>
ALWI void acosh_tile(uint32_t idst, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::sfpu_apply(idst, "acosh_tile", site, [](float x) { return std::acosh(x); });
}

template <bool is_fp32_dest_acc_en = false>
ALWI void atanh_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}

template <bool is_fp32_dest_acc_en = false>
ALWI void atanh_tile(uint32_t idst, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::sfpu_apply(idst, "atanh_tile", site, [](float x) { return std::atanh(x); });
}

}  // namespace ckernel
