// The SDK's top-level compute kernel API header: the unary SFPU functions the SDK defines here (sigmoid,
// log, tanh, abs, power, square, silu, exp2), applied in place in fp32, over api/compute/common.h. Since tt-metal
// 0.81 it no longer brings in the other operation headers (compute_kernel_api.h, the former path, does).
#pragma once

#include <cmath>
#include <cstring>
#include <limits>

#include "api/compute/common.h"
#include "runtime_mock/kernel_abi/sfpu.h"

namespace ckernel {

template <bool fast_and_approx = false>
ALWI void sigmoid_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}

template <int vec_mode = VectorMode::RC, bool fast_and_approx = false>
ALWI void sigmoid_tile(uint32_t idst, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::sfpu_apply(idst, "sigmoid_tile", site,
                                         [](float x) { return 1.0f / (1.0f + std::exp(-x)); });
}

template <bool fast_and_approx = false>
ALWI void log_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}

template <bool fast_and_approx = false>
ALWI void log_tile(uint32_t idst, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::sfpu_apply(idst, "log_tile", site, [](float x) { return std::log(x); });
}

template <bool fast_and_approx = false>
ALWI void tanh_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}

template <bool fast_and_approx = false>
ALWI void tanh_tile(uint32_t idst, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::sfpu_apply(idst, "tanh_tile", site, [](float x) { return std::tanh(x); });
}

ALWI void abs_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}

ALWI void abs_tile(uint32_t idst, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::sfpu_apply(idst, "abs_tile", site, [](float x) { return std::fabs(x); });
}

ALWI void power_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}

// x ** p with p the fp32 whose bits are param0: a negative x takes an integer p's sign and gives NaN for any
// other p (as powf); zero to a negative power is NaN, where the SDK's SFPU code leaves it (powf gives inf).
template <bool is_fp32_dest_acc_en = false>
ALWI void power_tile(uint32_t idst, uint32_t param0, runtime_mock::kernel_abi::CallSite site = {}) {
    float p;
    std::memcpy(&p, &param0, 4);
    runtime_mock::kernel_abi::sfpu_apply(idst, "power_tile", site, [p](float x) {
        return x == 0.0f && p < 0.0f ? std::numeric_limits<float>::quiet_NaN() : std::pow(x, p);
    });
}

ALWI void square_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}

ALWI void square_tile(uint32_t idst, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::sfpu_apply(idst, "square_tile", site, [](float x) { return x * x; });
}

ALWI void silu_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}

ALWI void silu_tile(uint32_t idst, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::sfpu_apply(idst, "silu_tile", site, [](float x) { return x / (1.0f + std::exp(-x)); });
}

ALWI void exp2_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}

ALWI void exp2_tile(uint32_t idst, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::sfpu_apply(idst, "exp2_tile", site, [](float x) { return std::exp2(x); });
}

}  // namespace ckernel
