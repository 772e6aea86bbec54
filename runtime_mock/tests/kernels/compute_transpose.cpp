// out = transpose of each input tile (transpose_wh_tile), tile by tile. Compile-time args: num_tiles.
#include <cstdint>

#include "compute_kernel_api/transpose_wh.h"

void kernel_main() {
    constexpr uint32_t num_tiles = get_compile_time_arg_val(0);
    constexpr auto cb_in = tt::CBIndex::c_0;
    constexpr auto cb_out = tt::CBIndex::c_16;

    transpose_wh_init(cb_in, cb_out);
    for (uint32_t t = 0; t < num_tiles; t++) {
        cb_wait_front(cb_in, 1);
        tile_regs_acquire();
        transpose_wh_tile(cb_in, 0, 0);
        tile_regs_commit();
        cb_pop_front(cb_in, 1);

        tile_regs_wait();
        cb_reserve_back(cb_out, 1);
        pack_tile(0, cb_out);
        cb_push_back(cb_out, 1);
        tile_regs_release();
    }
}
