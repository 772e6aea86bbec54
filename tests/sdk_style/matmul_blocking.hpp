// How the block matmuls (matmul_block_reuse.cpp, matmul_mcast.cpp) split C = A x B over a grid of
// cores: the Mt x Nt output tiles form blocks_y x blocks_x blocks of per_core_M x per_core_N tiles, one
// block per core (core (x, y) computes block (x, y)); K is walked in num_blocks steps of in0_block_w
// tiles; each block is computed in subblocks of subblock_h x subblock_w tiles, at most 8 (what DST holds
// in half-sync bf16 mode).
#pragma once

#include <tt-metalium/core_coord.hpp>
#include <tt_stl/assert.hpp>

#include <cstdint>

namespace sdk_style {

struct MatmulBlocking {
    uint32_t Mt, Kt, Nt;
    uint32_t blocks_x, blocks_y;
    uint32_t per_core_M, per_core_N;
    uint32_t in0_block_w, num_blocks;
    uint32_t subblock_h, subblock_w;
};

// The largest divisor of value that is at most limit.
inline uint32_t largest_divisor(uint32_t value, uint32_t limit) {
    for (uint32_t d = limit; d > 1; --d) {
        if (value % d == 0) {
            return d;
        }
    }
    return 1;
}

inline MatmulBlocking plan_matmul(uint32_t Mt, uint32_t Kt, uint32_t Nt, tt::tt_metal::CoreCoord grid,
                                  uint32_t in0_block_w) {
    TT_FATAL(Kt % in0_block_w == 0, "Kt = {} is not a multiple of in0_block_w = {}", Kt, in0_block_w);
    MatmulBlocking plan{Mt, Kt, Nt};
    plan.blocks_y = largest_divisor(Mt, grid.y);
    plan.blocks_x = largest_divisor(Nt, grid.x);
    plan.per_core_M = Mt / plan.blocks_y;
    plan.per_core_N = Nt / plan.blocks_x;
    plan.in0_block_w = in0_block_w;
    plan.num_blocks = Kt / in0_block_w;
    // The widest subblock of at most 8 tiles that divides the block.
    plan.subblock_w = largest_divisor(plan.per_core_N, 8);
    plan.subblock_h = largest_divisor(plan.per_core_M, 8 / plan.subblock_w);
    return plan;
}

}  // namespace sdk_style
