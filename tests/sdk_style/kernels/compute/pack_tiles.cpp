// Copies blocks of `block` tiles from c_0 to c_16 through DST[0..block), packing each block after one
// cb_reserve_back: in order with pack_tile(i, cb), or reversed with pack_tile<true>(i, cb, block - 1 - i)
// when the host define OUT_OF_ORDER is 1. Compile-time arg: block. Runtime arg: num_blocks.
#include <cstdint>

#include "compute_kernel_api/common.h"
#include "compute_kernel_api/eltwise_unary/eltwise_unary.h"
#include "compute_kernel_api/tile_move_copy.h"

void kernel_main() {
    const uint32_t num_blocks = get_arg_val<uint32_t>(0);
    constexpr uint32_t block = get_compile_time_arg_val(0);
    constexpr auto cb_in = tt::CBIndex::c_0;
    constexpr auto cb_out = tt::CBIndex::c_16;

    init_sfpu(cb_in, cb_out);
    copy_tile_init(cb_in);
    for (uint32_t b = 0; b < num_blocks; ++b) {
        // Math: DST[i] = tile i of the block.
        cb_wait_front(cb_in, block);
        tile_regs_acquire();
        for (uint32_t i = 0; i < block; ++i) {
            copy_tile(cb_in, i, i);
        }
        tile_regs_commit();
        cb_pop_front(cb_in, block);

        // Pack: the block's DST tiles -> c_16, block pages reserved at once.
        cb_reserve_back(cb_out, block);
        tile_regs_wait();
        for (uint32_t i = 0; i < block; ++i) {
#if OUT_OF_ORDER
            pack_tile<true>(i, cb_out, block - 1 - i);
#else
            pack_tile(i, cb_out);
#endif
        }
        tile_regs_release();
        cb_push_back(cb_out, block);
    }
}
