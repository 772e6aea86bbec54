// Row sums: for each of num_rows tile rows, reduces its Wt tiles from c_0 along W into one tile of
// c_16 (sums in column 0), scaled by the scaler tile in c_2. Runtime args: num_rows, Wt.
#include <cstdint>

#include "compute_kernel_api/reduce.h"

void kernel_main() {
    const uint32_t num_rows = get_arg_val<uint32_t>(0);
    const uint32_t Wt = get_arg_val<uint32_t>(1);
    constexpr auto cb_in = tt::CBIndex::c_0;
    constexpr auto cb_scaler = tt::CBIndex::c_2;
    constexpr auto cb_out = tt::CBIndex::c_16;

    reduce_init<PoolType::SUM, ReduceDim::REDUCE_ROW>(cb_in, cb_scaler, cb_out);
    cb_wait_front(cb_scaler, 1);
    for (uint32_t row = 0; row < num_rows; ++row) {
        // Math: DST[0] accumulates the row's tiles.
        tile_regs_acquire();
        for (uint32_t wt = 0; wt < Wt; ++wt) {
            cb_wait_front(cb_in, 1);
            reduce_tile<PoolType::SUM, ReduceDim::REDUCE_ROW>(cb_in, cb_scaler, 0, 0, 0);
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
