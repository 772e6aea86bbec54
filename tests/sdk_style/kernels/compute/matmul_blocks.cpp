// Block-reuse matmul compute: the per-core output block is split into subblocks of subblock_h x
// subblock_w tiles (one DST acquire each). For each K block, each subblock reloads its partial sums
// from c_24 (after the first block), accumulates A x B over the block's in0_block_w tiles of K, and
// packs to c_24 (partials) or, after the last block, to c_16. Subblocks go through both CBs in the
// same order, so c_24 works as a FIFO of partial subblocks.
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
    constexpr auto cb_partial = tt::CBIndex::c_24;

    mm_init(cb_a, cb_b, cb_out);
    for (uint32_t block = 0; block < num_blocks; ++block) {
        const bool last_block = block == num_blocks - 1;
        cb_wait_front(cb_a, in0_block_tiles);
        cb_wait_front(cb_b, in1_block_tiles);
        for (uint32_t sh = 0; sh < in0_num_subblocks; ++sh) {
            for (uint32_t sw = 0; sw < in1_num_subblocks; ++sw) {
                tile_regs_acquire();
                // Reload the partial sums of this subblock.
                if (block > 0) {
                    copy_tile_to_dst_init_short(cb_partial);
                    cb_wait_front(cb_partial, subblock_tiles);
                    for (uint32_t i = 0; i < subblock_tiles; ++i) {
                        copy_tile(cb_partial, i, i);
                    }
                    cb_pop_front(cb_partial, subblock_tiles);
                    mm_init_short(cb_a, cb_b);
                }
                // Math: DST[h * subblock_w + w] += A[sh*subblock_h + h, k] x B[k, sw*subblock_w + w].
                for (uint32_t h = 0; h < subblock_h; ++h) {
                    for (uint32_t w = 0; w < subblock_w; ++w) {
                        for (uint32_t k = 0; k < in0_block_w; ++k) {
                            const uint32_t a_tile = (sh * subblock_h + h) * in0_block_w + k;
                            const uint32_t b_tile = k * per_core_N + sw * subblock_w + w;
                            matmul_tiles(cb_a, cb_b, a_tile, b_tile, h * subblock_w + w);
                        }
                    }
                }
                tile_regs_commit();

                // Pack the subblock: final results to c_16, partial sums to c_24.
                const uint32_t cb_target = last_block ? cb_out : cb_partial;
                cb_reserve_back(cb_target, subblock_tiles);
                tile_regs_wait();
                for (uint32_t i = 0; i < subblock_tiles; ++i) {
                    pack_tile(i, cb_target);
                }
                tile_regs_release();
                cb_push_back(cb_target, subblock_tiles);
            }
        }
        cb_pop_front(cb_a, in0_block_tiles);
        cb_pop_front(cb_b, in1_block_tiles);
    }
}
