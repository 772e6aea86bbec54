// compute_kernel_api/tilize.h: where tt-metal kept this header until it moved to api/compute/tilize.h (the release this
// shim follows, SDK_RELEASE). It forwards there, as the SDK's own forwarding headers did while it moved them, so
// kernels written for the older API still compile.
#pragma once

#include "api/compute/tilize.h"

// Dropped by tt-metal 0.81.
namespace ckernel {

ALWI void tilize_uninit_with_dt(uint32_t old_icb, uint32_t new_icb, uint32_t ocb) {
    (void)old_icb;
    (void)new_icb;
    (void)ocb;
}

}  // namespace ckernel
