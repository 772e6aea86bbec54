// The SDK's top-level compute kernel API header: every compute header plus the unary SFPU functions
// the SDK defines here (sigmoid, log, tanh, abs, square, silu, exp2), applied in place in fp32.
#pragma once

#include <cmath>

#include "compute_kernel_api/bcast.h"
#include "compute_kernel_api/common.h"
#include "compute_kernel_api/compute_kernel_hw_startup.h"
#include "compute_kernel_api/eltwise_binary.h"
#include "compute_kernel_api/eltwise_binary_sfpu.h"
#include "compute_kernel_api/eltwise_unary/binop_with_scalar.h"
#include "compute_kernel_api/eltwise_unary/eltwise_unary.h"
#include "compute_kernel_api/eltwise_unary/exp.h"
#include "compute_kernel_api/eltwise_unary/fill.h"
#include "compute_kernel_api/eltwise_unary/gelu.h"
#include "compute_kernel_api/eltwise_unary/negative.h"
#include "compute_kernel_api/eltwise_unary/recip.h"
#include "compute_kernel_api/eltwise_unary/relu.h"
#include "compute_kernel_api/eltwise_unary/rsqrt.h"
#include "compute_kernel_api/eltwise_unary/sqrt.h"
#include "compute_kernel_api/matmul.h"
#include "compute_kernel_api/reconfig_data_format.h"
#include "compute_kernel_api/reduce.h"
#include "compute_kernel_api/tile_move_copy.h"
#include "compute_kernel_api/tilize.h"
#include "compute_kernel_api/transpose_wh.h"
#include "compute_kernel_api/untilize.h"
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
