// out = SFPU_TILE(x) tile by tile; SFPU_INIT() and SFPU_TILE(i) are host defines (e.g. exp_tile_init()
// and exp_tile(i)). Compile-time args: num_tiles. CB c_0 and c_16 may be of any format the host gives them
// (typecast_tile reads one and writes another).
#include <cstdint>

#include "api/compute/eltwise_unary/typecast.h"
#include "compute_kernel_api.h"

void kernel_main() {
    constexpr uint32_t num_tiles = get_compile_time_arg_val(0);
    constexpr auto cb_in = tt::CBIndex::c_0;
    constexpr auto cb_out = tt::CBIndex::c_16;

    init_sfpu(cb_in, cb_out);
    SFPU_INIT();
    for (uint32_t t = 0; t < num_tiles; t++) {
        tile_regs_acquire();
        cb_wait_front(cb_in, 1);
        copy_tile(cb_in, 0, 0);
        SFPU_TILE(0);
        tile_regs_commit();

        tile_regs_wait();
        cb_reserve_back(cb_out, 1);
        pack_tile(0, cb_out);
        cb_pop_front(cb_in, 1);
        tile_regs_release();
        cb_push_back(cb_out, 1);
    }
}
