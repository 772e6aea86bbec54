// x op scalar, the scalar given as fp32 bits (the SDK's api/compute/eltwise_unary/binop_with_scalar.h), applied
// in place to DST[idst] in fp32.
#pragma once

#include "api/compute/common.h"
#include <cstring>

#include "runtime_mock/kernel_abi/sfpu.h"

namespace ckernel {

ALWI void binop_with_scalar_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}

namespace detail {

template <typename F>
ALWI void scalar_op(uint32_t idst, uint32_t param1, const char* call, runtime_mock::kernel_abi::CallSite site, F f) {
    float s;
    std::memcpy(&s, &param1, 4);
    runtime_mock::kernel_abi::sfpu_apply(idst, call, site, [s, f](float x) { return f(x, s); });
}

}  // namespace detail

ALWI void add_unary_tile(uint32_t idst, uint32_t param1, runtime_mock::kernel_abi::CallSite site = {}) {
    detail::scalar_op(idst, param1, "add_unary_tile", site, [](float x, float s) { return x + s; });
}

ALWI void sub_unary_tile(uint32_t idst, uint32_t param1, runtime_mock::kernel_abi::CallSite site = {}) {
    detail::scalar_op(idst, param1, "sub_unary_tile", site, [](float x, float s) { return x - s; });
}

ALWI void mul_unary_tile(uint32_t idst, uint32_t param1, runtime_mock::kernel_abi::CallSite site = {}) {
    detail::scalar_op(idst, param1, "mul_unary_tile", site, [](float x, float s) { return x * s; });
}

ALWI void div_unary_tile(uint32_t idst, uint32_t param1, runtime_mock::kernel_abi::CallSite site = {}) {
    detail::scalar_op(idst, param1, "div_unary_tile", site, [](float x, float s) { return x / s; });
}

ALWI void rsub_unary_tile(uint32_t idst, uint32_t param1, runtime_mock::kernel_abi::CallSite site = {}) {
    detail::scalar_op(idst, param1, "rsub_unary_tile", site, [](float x, float s) { return s - x; });
}

}  // namespace ckernel
