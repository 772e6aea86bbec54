// Timing-model test: `sections` DST sections of `tiles` tiles each, filled by the SFPU and packed into
// circular buffer c_16 (no consumer: it holds every page). Runtime args: sections, tiles.
#include <cstdint>

#include "compute_kernel_api/eltwise_unary/fill.h"
#include "compute_kernel_api/pack.h"

void kernel_main() {
    const uint32_t sections = get_arg_val<uint32_t>(0);
    const uint32_t tiles = get_arg_val<uint32_t>(1);
    for (uint32_t section = 0; section < sections; ++section) {
        tile_regs_acquire();
        for (uint32_t t = 0; t < tiles; ++t) {
            fill_tile(t, 1.0f);
        }
        tile_regs_commit();
        tile_regs_wait();
        cb_reserve_back(16, tiles);
        for (uint32_t t = 0; t < tiles; ++t) {
            pack_tile(t, 16);
        }
        cb_push_back(16, tiles);
        tile_regs_release();
    }
}
