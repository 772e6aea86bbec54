// Tile layout to row-major (the SDK's api/compute/untilize.h). untilize_block reads full_ct_dim
// tiles from the front of icb and writes them as 32 rows of full_ct_dim*32 elements at the start of
// ocb's reservation (full_ct_dim pages); like the SDK it manages DST itself.
#pragma once

#include "api/compute/common.h"
#include "runtime_mock/kernel_abi/layout_conversion.h"

namespace ckernel {

ALWI void untilize_init(uint32_t icb, uint32_t call_line = __builtin_LINE()) {
    (void)icb;
    (void)call_line;
}

template <uint32_t block_ct_dim = 1>
ALWI void untilize_block(uint32_t icb, uint32_t full_ct_dim, uint32_t ocb,
                         runtime_mock::kernel_abi::CallSite site = {}) {
    static_assert(block_ct_dim > 0, "block_ct_dim must be positive");
    runtime_mock::kernel_abi::note_progress(runtime_mock::kernel_abi::ctx());
    if (full_ct_dim % block_ct_dim != 0) {
        runtime_mock::kernel_abi::failf(runtime_mock::kernel_abi::ErrorKind::Protocol, "untilize_block", site,
                                        "full_ct_dim %u is not a multiple of block_ct_dim %u", full_ct_dim,
                                        block_ct_dim);
    }
    runtime_mock::kernel_abi::untilize_pages(icb, full_ct_dim, ocb, "untilize_block", site);
    runtime_mock::kernel_abi::record_compute("untilize_block", full_ct_dim, icb);
}

ALWI void untilize_uninit(uint32_t icb) {
    (void)icb;
}

}  // namespace ckernel
