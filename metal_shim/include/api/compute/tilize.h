// Row-major to tile layout (the SDK's api/compute/tilize.h). tilize_block reads `block` pages of
// row-major data (32 rows of block*32 elements) from the front of icb and writes `block` tiles to ocb
// pages output_tile_index.. of the reservation; like the SDK it manages DST itself.
#pragma once

#include "api/compute/common.h"
#include "runtime_mock/kernel_abi/layout_conversion.h"

namespace ckernel {

ALWI void tilize_init(uint32_t icb, uint32_t block, uint32_t ocb, uint32_t call_line = __builtin_LINE()) {
    (void)icb;
    (void)block;
    (void)ocb;
    (void)call_line;
}

ALWI void tilize_init_short_with_dt(uint32_t old_icb, uint32_t new_icb, uint32_t block, uint32_t ocb) {
    (void)old_icb;
    tilize_init(new_icb, block, ocb);
}

ALWI void tilize_block(uint32_t icb, uint32_t block, uint32_t ocb, uint32_t input_tile_index = 0,
                       uint32_t output_tile_index = 0, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::note_progress(runtime_mock::kernel_abi::ctx());
    runtime_mock::kernel_abi::tilize_pages(icb, block, ocb, input_tile_index, output_tile_index, "tilize_block", site);
    runtime_mock::kernel_abi::record_compute("tilize_block", block, icb);
}

ALWI void tilize_uninit(uint32_t icb, uint32_t ocb) {
    (void)icb;
    (void)ocb;
}

}  // namespace ckernel
