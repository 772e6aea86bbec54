// out = the sum of the input tiles, kept in L1 as the SDK's matmul keeps its partial sums under
// packer_l1_acc: each tile is copied into DST and packed into the one-page float32 CB c_24, the first
// overwriting it, every later one added to it (pack_reconfig_l1_acc(1)); the page is freed and reserved
// again in between, so the pack lands on the same L1 page. The sum is then converted into c_16.
// Compile-time args: num_tiles.
#include <cstdint>

#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/pack.h"
#include "api/compute/tile_move_copy.h"

void kernel_main() {
    constexpr uint32_t num_tiles = get_compile_time_arg_val(0);
    constexpr auto cb_in = tt::CBIndex::c_0;
    constexpr auto cb_sum = tt::CBIndex::c_24;
    constexpr auto cb_out = tt::CBIndex::c_16;

    compute_kernel_hw_startup(cb_in, cb_out);
    for (uint32_t t = 0; t < num_tiles; t++) {
        cb_wait_front(cb_in, 1);
        tile_regs_acquire();
        copy_tile_to_dst_init_short(cb_in);
        copy_tile(cb_in, 0, 0);
        tile_regs_commit();
        cb_pop_front(cb_in, 1);

        if (t > 0) {  // free the page to reserve it again: the write pointer comes back to it
            cb_wait_front(cb_sum, 1);
            cb_pop_front(cb_sum, 1);
        }
        tile_regs_wait();
        pack_reconfig_l1_acc(t > 0 ? 1 : 0);
        cb_reserve_back(cb_sum, 1);
        pack_tile(0, cb_sum);
        cb_push_back(cb_sum, 1);
        tile_regs_release();
    }
    pack_reconfig_l1_acc(0);
    cb_wait_front(cb_sum, 1);
    tile_regs_acquire();
    copy_tile_to_dst_init_short(cb_sum);
    copy_tile(cb_sum, 0, 0);
    tile_regs_commit();
    cb_pop_front(cb_sum, 1);
    tile_regs_wait();
    cb_reserve_back(cb_out, 1);
    pack_tile(0, cb_out);
    cb_push_back(cb_out, 1);
    tile_regs_release();
}
