// Reduces groups of `group` input tiles into one output tile each (REDUCE_OP / REDUCE_DIM from the
// host defines). Compile-time args: number of groups, tiles per group.
#include <cstdint>

#include "compute_kernel_api/reduce.h"

void kernel_main() {
    constexpr uint32_t groups = get_compile_time_arg_val(0);
    constexpr uint32_t group = get_compile_time_arg_val(1);
    constexpr auto cb_in = tt::CBIndex::c_0;
    constexpr auto cb_scaler = tt::CBIndex::c_2;
    constexpr auto cb_out = tt::CBIndex::c_16;

    reduce_init(cb_in, cb_scaler, cb_out);
    cb_wait_front(cb_scaler, 1);
    for (uint32_t g = 0; g < groups; g++) {
        tile_regs_acquire();
        for (uint32_t t = 0; t < group; t++) {
            cb_wait_front(cb_in, 1);
            reduce_tile(cb_in, cb_scaler, 0, 0, 0);
            cb_pop_front(cb_in, 1);
        }
        tile_regs_commit();
        tile_regs_wait();
        cb_reserve_back(cb_out, 1);
        pack_tile(0, cb_out);
        cb_push_back(cb_out, 1);
        tile_regs_release();
    }
    reduce_uninit();
}
