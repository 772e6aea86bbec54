// 2-D multicast matmul compute: the core's block of C (in0_num_subblocks x in1_num_subblocks subblocks of
// subblock_h x subblock_w tiles, one DST acquire each) accumulated over num_blocks blocks of K, each
// in0_block_w tiles deep. After every block but the last, a subblock's partial sums are packed to c_24;
// the next block reloads them into DST before accumulating. c_24 shares its L1 with c_16 (one CB config),
// as in the SDK's example, and the last block packs the finished subblocks to c_16.
// Compile-time args: in0_block_w, in0_num_subblocks, in1_num_subblocks, num_blocks, subblock_h, subblock_w.
#include <cstdint>

#include "compute_kernel_api/matmul.h"
#include "compute_kernel_api/tile_move_copy.h"

void kernel_main() {
    constexpr uint32_t in0_block_w = get_compile_time_arg_val(0);
    constexpr uint32_t in0_num_subblocks = get_compile_time_arg_val(1);
    constexpr uint32_t in1_num_subblocks = get_compile_time_arg_val(2);
    constexpr uint32_t num_blocks = get_compile_time_arg_val(3);
    constexpr uint32_t subblock_h = get_compile_time_arg_val(4);
    constexpr uint32_t subblock_w = get_compile_time_arg_val(5);
    constexpr uint32_t subblock_tiles = subblock_h * subblock_w;
    constexpr uint32_t per_core_M = in0_num_subblocks * subblock_h;
    constexpr uint32_t per_core_N = in1_num_subblocks * subblock_w;
    constexpr uint32_t in0_block_tiles = per_core_M * in0_block_w;
    constexpr uint32_t in1_block_tiles = in0_block_w * per_core_N;
    constexpr auto cb_a = tt::CBIndex::c_0;
    constexpr auto cb_b = tt::CBIndex::c_1;
    constexpr auto cb_out = tt::CBIndex::c_16;
    constexpr auto cb_partials = tt::CBIndex::c_24;

    mm_block_init(cb_a, cb_b, cb_partials, false, subblock_w, subblock_h, in0_block_w);
    for (uint32_t block = 0; block < num_blocks; ++block) {
        const bool reload = block > 0;
        const bool last_block = block == num_blocks - 1;
        cb_wait_front(cb_a, in0_block_tiles);
        cb_wait_front(cb_b, in1_block_tiles);
        for (uint32_t sh = 0; sh < in0_num_subblocks; ++sh) {
            for (uint32_t sw = 0; sw < in1_num_subblocks; ++sw) {
                tile_regs_acquire();
                // Reload this subblock's partial sums from the previous blocks.
                if (reload) {
                    copy_tile_to_dst_init_short(cb_partials);
                    cb_wait_front(cb_partials, subblock_tiles);
                    copy_block_matmul_partials(cb_partials, 0, 0, subblock_tiles);
                    cb_pop_front(cb_partials, subblock_tiles);
                    mm_block_init_short(cb_a, cb_b, false, subblock_w, subblock_h, in0_block_w);
                }
                // DST[h * subblock_w + w] += A[sh * subblock_h + h, k] x B[k, sw * subblock_w + w].
                for (uint32_t k = 0; k < in0_block_w; ++k) {
                    const uint32_t a_tile = sh * subblock_h * in0_block_w + k;
                    const uint32_t b_tile = k * per_core_N + sw * subblock_w;
                    matmul_block(cb_a, cb_b, a_tile, b_tile, 0, false, subblock_w, subblock_h, in0_block_w);
                }
                tile_regs_commit();

                // Pack: finished subblocks to c_16, partial sums to c_24.
                const auto cb_target = last_block ? cb_out : cb_partials;
                cb_reserve_back(cb_target, subblock_tiles);
                tile_regs_wait();
                for (uint32_t t = 0; t < subblock_tiles; ++t) {
                    pack_tile(t, cb_target);
                }
                tile_regs_release();
                cb_push_back(cb_target, subblock_tiles);
            }
        }
        cb_pop_front(cb_a, in0_block_tiles);
        cb_pop_front(cb_b, in1_block_tiles);
    }
}
