// c_16 = c_0 + c_1, tile by tile, for CBs globally allocated on sharded buffers that the host filled, with
// no kernel pushing their pages: the inputs are read and popped without cb_wait_front and the output
// packed without cb_reserve_back, as the SDK's vecadd_sharding example does (silicon allows it; the mock
// warns). Runtime arg: num_tiles.
#include <cstdint>

#include "compute_kernel_api/eltwise_binary.h"

void kernel_main() {
    const uint32_t num_tiles = get_arg_val<uint32_t>(0);
    constexpr auto cb_a = tt::CBIndex::c_0;
    constexpr auto cb_b = tt::CBIndex::c_1;
    constexpr auto cb_out = tt::CBIndex::c_16;

    binary_op_init_common(cb_a, cb_b, cb_out);
    add_tiles_init(cb_a, cb_b);
    for (uint32_t t = 0; t < num_tiles; ++t) {
        tile_regs_acquire();
        add_tiles(cb_a, cb_b, 0, 0, 0);
        tile_regs_commit();
        cb_pop_front(cb_a, 1);
        cb_pop_front(cb_b, 1);
        tile_regs_wait();
        pack_tile(0, cb_out);
        tile_regs_release();
        cb_push_back(cb_out, 1);
    }
}
