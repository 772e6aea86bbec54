// compute_kernel_api/tile_move_copy.h: where tt-metal kept this header until it moved to api/compute/tile_move_copy.h
// (the release this shim follows, SDK_RELEASE). It forwards there, as the SDK's own forwarding headers did while it
// moved them, so kernels written for the older API still compile.
#pragma once

#include "api/compute/tile_move_copy.h"

// Dropped by tt-metal 0.81.
namespace ckernel {

ALWI void copy_block_matmul_partials(uint32_t in_cb_id, uint32_t start_in_tile_index, uint32_t start_dst_tile_index,
                                     uint32_t ntiles, runtime_mock::kernel_abi::CallSite site = {}) {
    for (uint32_t i = 0; i < ntiles; i++)
        copy_tile(in_cb_id, start_in_tile_index + i, start_dst_tile_index + i, site);
}

}  // namespace ckernel
