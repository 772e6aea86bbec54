// GELU: the tanh approximation when fast_and_approx, else the erf form (the SDK's
// api/compute/eltwise_unary/gelu.h), applied in place to DST[idst] in fp32.
#pragma once

#include "api/compute/common.h"
#include <cstring>

#include "runtime_mock/kernel_abi/sfpu.h"

namespace ckernel {

template <bool fast_and_approx = true>
ALWI void gelu_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}

template <bool fast_and_approx = true>
ALWI void gelu_tile(uint32_t idst, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::sfpu_apply(idst, "gelu_tile", site, [](float x) {
        if (fast_and_approx)
            return 0.5f * x * (1.0f + std::tanh(0.7978845608f * (x + 0.044715f * x * x * x)));
        return 0.5f * x * (1.0f + std::erf(x * 0.7071067812f));
    });
}

}  // namespace ckernel
