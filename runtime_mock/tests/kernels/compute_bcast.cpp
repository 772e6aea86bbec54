// For every tile pair (a, b): nine output tiles, a op broadcast(b) for op in add, sub, mul (outer) and
// broadcast in rows, cols, scalar (inner), through the bcast.h entry points a kernel would use.
// Compile-time args: num_tiles.
#include <cstdint>

#include "compute_kernel_api/bcast.h"

void kernel_main() {
    constexpr uint32_t num_tiles = get_compile_time_arg_val(0);
    constexpr auto cb_a = tt::CBIndex::c_0;
    constexpr auto cb_b = tt::CBIndex::c_1;
    constexpr auto cb_out = tt::CBIndex::c_16;

    init_bcast<EltwiseBinaryType::ELWADD, BroadcastType::ROW>(cb_a, cb_b, cb_out);
    for (uint32_t t = 0; t < num_tiles; t++) {
        cb_wait_front(cb_a, 1);
        cb_wait_front(cb_b, 1);
        for (uint32_t op = 0; op < 3; op++) {
            tile_regs_acquire();
            if (op == 0) {
                add_bcast_rows_init_short(cb_a, cb_b);
                add_tiles_bcast_rows(cb_a, cb_b, 0, 0, 0);
                add_bcast_cols_init_short(cb_a, cb_b);
                add_tiles_bcast_cols(cb_a, cb_b, 0, 0, 1);
                add_bcast_scalar_init_short(cb_a, cb_b);
                add_tiles_bcast_scalar(cb_a, cb_b, 0, 0, 2);
            } else if (op == 1) {
                sub_bcast_rows_init_short(cb_a, cb_b);
                sub_tiles_bcast<BroadcastType::ROW>(cb_a, cb_b, 0, 0, 0);
                sub_bcast_cols_init_short(cb_a, cb_b);
                sub_tiles_bcast_cols(cb_a, cb_b, 0, 0, 1);
                sub_tiles_bcast_scalar_init_short(cb_a, cb_b);
                sub_tiles_bcast_scalar(cb_a, cb_b, 0, 0, 2);
            } else {
                mul_bcast_rows_init_short(cb_a, cb_b);
                mul_tiles_bcast_rows(cb_a, cb_b, 0, 0, 0);
                mul_bcast_cols_init_short(cb_a, cb_b);
                mul_tiles_bcast_cols(cb_a, cb_b, 0, 0, 1);
                mul_tiles_bcast_scalar_init_short(cb_a, cb_b);
                mul_tiles_bcast<BroadcastType::SCALAR>(cb_a, cb_b, 0, 0, 2);
            }
            tile_regs_commit();

            tile_regs_wait();
            cb_reserve_back(cb_out, 3);
            for (uint32_t i = 0; i < 3; i++)
                pack_tile(i, cb_out);
            cb_push_back(cb_out, 3);
            tile_regs_release();
        }
        cb_pop_front(cb_a, 1);
        cb_pop_front(cb_b, 1);
    }
}
