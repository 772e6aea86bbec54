// 1 / sqrt(x) (the SDK's api/compute/eltwise_unary/rsqrt.h), applied in place to DST[idst] in fp32.
#pragma once

#include "api/compute/common.h"
#include <cstring>

#include "runtime_mock/kernel_abi/sfpu.h"

namespace ckernel {

enum class RsqrtMode { Default, Fast };

ALWI void rsqrt_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}

template <RsqrtMode mode = RsqrtMode::Default>
ALWI void rsqrt_tile(uint32_t idst, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::sfpu_apply(idst, "rsqrt_tile", site, [](float x) { return 1.0f / std::sqrt(x); });
}

}  // namespace ckernel
