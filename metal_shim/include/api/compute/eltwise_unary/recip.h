// 1 / x (the SDK's api/compute/eltwise_unary/recip.h), applied in place to DST[idst] in fp32.
#pragma once

#include "api/compute/common.h"
#include <cstring>

#include "runtime_mock/kernel_abi/sfpu.h"

namespace ckernel {

// The SDK's DST precision and approximation choices; the mock computes in fp32 either way.
enum class ReciprocalDestAcc { BF16, FP32 };
enum class ReciprocalApproxMode { Default, Precise, Approximate };

template <ReciprocalDestAcc dest_acc = ReciprocalDestAcc::BF16,
          ReciprocalApproxMode approximation = ReciprocalApproxMode::Default>
ALWI void recip_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}

template <ReciprocalDestAcc dest_acc = ReciprocalDestAcc::BF16,
          ReciprocalApproxMode approximation = ReciprocalApproxMode::Default>
ALWI void recip_tile(uint32_t idst, VectorMode vector_mode = VectorMode::RC,
                     runtime_mock::kernel_abi::CallSite site = {}) {
    (void)vector_mode;
    runtime_mock::kernel_abi::sfpu_apply(idst, "recip_tile", site, [](float x) { return 1.0f / x; });
}

}  // namespace ckernel
