// c_16 = f(c_0), tile by tile, f an SFPU operation given by the host defines SFPU_OP_INIT (e.g.
// `exp_tile_init();`) and SFPU_OP (e.g. `exp_tile(0);`). Runtime arg: num_tiles.
#include <cstdint>

#include "compute_kernel_api.h"
#include "compute_kernel_api/tile_move_copy.h"

void kernel_main() {
    const uint32_t num_tiles = get_arg_val<uint32_t>(0);
    constexpr auto cb_in = tt::CBIndex::c_0;
    constexpr auto cb_out = tt::CBIndex::c_16;

    init_sfpu(cb_in, cb_out);
    SFPU_OP_INIT
    for (uint32_t t = 0; t < num_tiles; ++t) {
        // Math: DST[0] = f(tile).
        cb_wait_front(cb_in, 1);
        tile_regs_acquire();
        copy_tile(cb_in, 0, 0);
        SFPU_OP
        tile_regs_commit();
        cb_pop_front(cb_in, 1);

        // Pack: DST[0] -> c_16.
        cb_reserve_back(cb_out, 1);
        tile_regs_wait();
        pack_tile(0, cb_out);
        tile_regs_release();
        cb_push_back(cb_out, 1);
    }
}
