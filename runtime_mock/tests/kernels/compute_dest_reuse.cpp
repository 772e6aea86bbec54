// For every tile pair (a, b): a is copied to DST, then binary_dest_reuse_tiles combines it with b into
// three output tiles: a - b (DEST_TO_SRCA), b - a (DEST_TO_SRCB), a * b (DEST_TO_SRCA).
// Compile-time args: num_tiles.
#include <cstdint>

#include "compute_kernel_api/eltwise_binary.h"
#include "compute_kernel_api/tile_move_copy.h"

void kernel_main() {
    constexpr uint32_t num_tiles = get_compile_time_arg_val(0);
    constexpr auto cb_a = tt::CBIndex::c_0;
    constexpr auto cb_b = tt::CBIndex::c_1;
    constexpr auto cb_out = tt::CBIndex::c_16;
    constexpr auto SRCA = EltwiseBinaryReuseDestType::DEST_TO_SRCA;
    constexpr auto SRCB = EltwiseBinaryReuseDestType::DEST_TO_SRCB;

    binary_op_init_common(cb_a, cb_b, cb_out);
    for (uint32_t t = 0; t < num_tiles; t++) {
        cb_wait_front(cb_a, 1);
        cb_wait_front(cb_b, 1);
        tile_regs_acquire();
        copy_tile_to_dst_init_short(cb_a);
        for (uint32_t i = 0; i < 3; i++)
            copy_tile(cb_a, 0, i);
        binary_dest_reuse_tiles_init<EltwiseBinaryType::ELWSUB, SRCA>(cb_b);
        binary_dest_reuse_tiles<EltwiseBinaryType::ELWSUB, SRCA>(cb_b, 0, 0);
        binary_dest_reuse_tiles_init<EltwiseBinaryType::ELWSUB, SRCB>(cb_b);
        binary_dest_reuse_tiles<EltwiseBinaryType::ELWSUB, SRCB>(cb_b, 0, 1);
        binary_dest_reuse_tiles_init<EltwiseBinaryType::ELWMUL, SRCA>(cb_b);
        binary_dest_reuse_tiles<EltwiseBinaryType::ELWMUL, SRCA>(cb_b, 0, 2);
        tile_regs_commit();
        cb_pop_front(cb_a, 1);
        cb_pop_front(cb_b, 1);

        tile_regs_wait();
        cb_reserve_back(cb_out, 3);
        for (uint32_t i = 0; i < 3; i++)
            pack_tile(i, cb_out);
        cb_push_back(cb_out, 3);
        tile_regs_release();
    }
}
