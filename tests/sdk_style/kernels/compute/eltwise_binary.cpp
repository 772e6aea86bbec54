// c_16 = c_0 OP c_1, tile by tile. Compile-time arg: OP (0 add, 1 sub, 2 mul). Runtime arg: num_tiles.
#include <cstdint>

#include "compute_kernel_api/eltwise_binary.h"

void kernel_main() {
    constexpr uint32_t op = get_compile_time_arg_val(0);
    const uint32_t num_tiles = get_arg_val<uint32_t>(0);
    constexpr auto cb_a = tt::CBIndex::c_0;
    constexpr auto cb_b = tt::CBIndex::c_1;
    constexpr auto cb_out = tt::CBIndex::c_16;

    binary_op_init_common(cb_a, cb_b, cb_out);
    if constexpr (op == 0) {
        add_tiles_init(cb_a, cb_b);
    } else if constexpr (op == 1) {
        sub_tiles_init(cb_a, cb_b);
    } else {
        mul_tiles_init(cb_a, cb_b);
    }
    for (uint32_t t = 0; t < num_tiles; ++t) {
        // Math: DST[0] = a OP b.
        cb_wait_front(cb_a, 1);
        cb_wait_front(cb_b, 1);
        tile_regs_acquire();
        if constexpr (op == 0) {
            add_tiles(cb_a, cb_b, 0, 0, 0);
        } else if constexpr (op == 1) {
            sub_tiles(cb_a, cb_b, 0, 0, 0);
        } else {
            mul_tiles(cb_a, cb_b, 0, 0, 0);
        }
        tile_regs_commit();
        cb_pop_front(cb_a, 1);
        cb_pop_front(cb_b, 1);

        // Pack: DST[0] -> c_16.
        cb_reserve_back(cb_out, 1);
        tile_regs_wait();
        pack_tile(0, cb_out);
        tile_regs_release();
        cb_push_back(cb_out, 1);
    }
}
