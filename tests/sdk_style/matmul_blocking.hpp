// How the block matmuls (matmul_block_reuse.cpp, matmul_mcast.cpp) split C = A x B over a grid of
// cores: the Mt x Nt output tiles form blocks_y x blocks_x blocks of per_core_M x per_core_N tiles, one
// block per core (core (x, y) computes block (x, y)); K is walked in num_blocks steps of in0_block_w
// tiles; each block is computed in subblocks of subblock_h x subblock_w tiles, at most 8 (what DST holds
// in half-sync bf16 mode).
// Below, the host-side pieces both programs build from the plan: CBs, the compute kernel, runtime args.
#pragma once

#include <tt-metalium/core_coord.hpp>
#include <tt_stl/assert.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "host_common.hpp"

namespace sdk_style {

struct MatmulBlocking {
    uint32_t Mt, Kt, Nt;
    uint32_t blocks_x, blocks_y;
    uint32_t per_core_M, per_core_N;
    uint32_t in0_block_w, num_blocks;
    uint32_t subblock_h, subblock_w;
    uint32_t in0_num_subblocks, in1_num_subblocks;  // subblocks per block along M and along N
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
    plan.in0_num_subblocks = plan.per_core_M / plan.subblock_h;
    plan.in1_num_subblocks = plan.per_core_N / plan.subblock_w;
    return plan;
}

// The grid of cores: core (x, y) computes block (x, y) of C.
inline CoreRange block_cores(const MatmulBlocking& plan) {
    return CoreRange({0, 0}, {plan.blocks_x - 1, plan.blocks_y - 1});
}

// The CBs of the block kernels: c_0 and c_1 hold blocks of A and B (double-buffered), c_16 the core's
// block of C and c_24 its partial sums.
inline void create_block_cbs(Program& program, const CoreRange& cores, const MatmulBlocking& plan) {
    const uint32_t in0_block_tiles = plan.per_core_M * plan.in0_block_w;
    const uint32_t in1_block_tiles = plan.in0_block_w * plan.per_core_N;
    const uint32_t out_block_tiles = plan.per_core_M * plan.per_core_N;
    tile_cb(program, cores, tt::CBIndex::c_0, 2 * in0_block_tiles);  // double-buffered
    tile_cb(program, cores, tt::CBIndex::c_1, 2 * in1_block_tiles);
    tile_cb(program, cores, tt::CBIndex::c_16, out_block_tiles);
    tile_cb(program, cores, tt::CBIndex::c_24, out_block_tiles);
}

// The compute kernel kernels/compute/matmul_blocks.cpp on the cores.
inline void create_block_compute_kernel(Program& program, const std::string& kernels, const CoreRange& cores,
                                        const MatmulBlocking& plan) {
    CreateKernel(program, kernels + "/compute/matmul_blocks.cpp", cores,
                 ComputeConfig{.math_fidelity = MathFidelity::HiFi4,
                               .compile_args = {plan.in0_block_w, plan.in0_num_subblocks, plan.in1_num_subblocks,
                                                plan.num_blocks, plan.subblock_h, plan.subblock_w}});
}

// The runtime args every block reader starts with: A, B and which block of C the core computes.
inline std::vector<uint32_t> block_reader_args(const std::shared_ptr<distributed::MeshBuffer>& a,
                                               const std::shared_ptr<distributed::MeshBuffer>& b,
                                               const MatmulBlocking& plan, const CoreCoord& core) {
    const uint32_t m0 = core.y * plan.per_core_M;
    const uint32_t n0 = core.x * plan.per_core_N;
    return {address(a), address(b),      plan.Kt,         plan.Nt,          m0,
            n0,         plan.per_core_M, plan.per_core_N, plan.in0_block_w, plan.num_blocks};
}

// The runtime args of kernels/dataflow/writer_matmul_blocks.cpp on the core.
inline std::vector<uint32_t> block_writer_args(const std::shared_ptr<distributed::MeshBuffer>& c,
                                               const MatmulBlocking& plan, const CoreCoord& core) {
    const uint32_t m0 = core.y * plan.per_core_M;
    const uint32_t n0 = core.x * plan.per_core_N;
    return {address(c),      plan.Nt,        m0, n0, plan.in0_num_subblocks, plan.in1_num_subblocks,
            plan.subblock_h, plan.subblock_w};
}

}  // namespace sdk_style
