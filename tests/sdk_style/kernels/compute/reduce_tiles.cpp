// Reductions of groups of tiles: for each of num_groups groups, reduces its group_size tiles from c_0 into
// one tile of c_16, scaled by the scaler tile in c_2. The host defines REDUCE_OP (PoolType::SUM or MAX) and
// REDUCE_DIM (ReduceDim::REDUCE_ROW: results in column 0, or REDUCE_COL: results in row 0) choose the
// reduction, as reduce_tile's template defaults. Runtime args: num_groups, group_size.
#include <cstdint>

#include "compute_kernel_api/reduce.h"

void kernel_main() {
    const uint32_t num_groups = get_arg_val<uint32_t>(0);
    const uint32_t group_size = get_arg_val<uint32_t>(1);
    constexpr auto cb_in = tt::CBIndex::c_0;
    constexpr auto cb_scaler = tt::CBIndex::c_2;
    constexpr auto cb_out = tt::CBIndex::c_16;

    reduce_init(cb_in, cb_scaler, cb_out);
    cb_wait_front(cb_scaler, 1);
    for (uint32_t g = 0; g < num_groups; ++g) {
        // Math: DST[0] accumulates the group's tiles.
        tile_regs_acquire();
        for (uint32_t i = 0; i < group_size; ++i) {
            cb_wait_front(cb_in, 1);
            reduce_tile(cb_in, cb_scaler, 0, 0, 0);
            cb_pop_front(cb_in, 1);
        }
        tile_regs_commit();

        // Pack: DST[0] -> c_16.
        cb_reserve_back(cb_out, 1);
        tile_regs_wait();
        pack_tile(0, cb_out);
        tile_regs_release();
        cb_push_back(cb_out, 1);
    }
    reduce_uninit();
}
