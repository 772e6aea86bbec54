// compute_kernel_api/pack.h: where tt-metal kept this header until it moved to api/compute/pack.h (the release this
// shim follows, SDK_RELEASE). It forwards there, as the SDK's own forwarding headers did while it moved them, so
// kernels written for the older API still compile.
#pragma once

#include "api/compute/pack.h"

// Dropped by tt-metal 0.81 (pack_block there).
namespace ckernel {

ALWI void pack_tile_block(uint32_t ifrom_dst, uint32_t icb, uint32_t ntiles,
                          runtime_mock::kernel_abi::CallSite site = {}) {
    for (uint32_t i = 0; i < ntiles; i++)
        runtime_mock::kernel_abi::pack_dst(ifrom_dst + i, icb, false, 0, "pack_tile_block", site);
}

}  // namespace ckernel
