// A compute kernel that misuses DST or its output CB (c_16, 2 pages) in the way its MISUSE_* define
// selects (see misuse_dataflow.cpp).
#include <cstdint>

#include "compute_kernel_api.h"
#include "compute_kernel_api/binary_max_min.h"

void kernel_main() {
    constexpr auto cb_out = tt::CBIndex::c_16;
    tile_regs_acquire();
#if defined(MISUSE_DST_OVER_CAPACITY)
    fill_tile(8, 1.0f);  // misuse:DST_OVER_CAPACITY
#elif defined(MISUSE_MATMUL_BLOCK_WRAPS)
    // rt_dim * ct_dim = 2^32 + 2 tiles: the 32-bit product would wrap to 2.
    matmul_block(tt::CBIndex::c_0, tt::CBIndex::c_1, 0, 0, 0, 0, 2, 0x80000001u, 1);  // misuse:MATMUL_BLOCK_WRAPS
#elif defined(MISUSE_PACK_OUTSIDE_WAIT)
    fill_tile(0, 1.0f);
    cb_reserve_back(cb_out, 1);
    pack_tile(0, cb_out);  // misuse:PACK_OUTSIDE_WAIT
#elif defined(MISUSE_MATH_AFTER_COMMIT)
    tile_regs_commit();
    fill_tile(0, 1.0f);  // misuse:MATH_AFTER_COMMIT
#elif defined(MISUSE_SFPU_VECTOR_MODE)
    binary_max_tile(0, 1, 0, VectorMode::R);  // misuse:SFPU_VECTOR_MODE
#elif defined(MISUSE_DST_NOT_RELEASED)
    return;
#endif
    tile_regs_commit();
    tile_regs_wait();
#if defined(MISUSE_PACK_WITHOUT_RESERVE)
    // Tolerated: page 0 of the empty CB is free.
    pack_tile(0, cb_out);  // misuse:PACK_WITHOUT_RESERVE
    cb_push_back(cb_out, 1);
#elif defined(MISUSE_PACK_OVERFLOW)
    cb_reserve_back(cb_out, 2);
    pack_tile(0, cb_out);
    pack_tile(0, cb_out);
    cb_push_back(cb_out, 2);
    pack_tile(0, cb_out);  // misuse:PACK_OVERFLOW
#endif
    tile_regs_release();
#if defined(MISUSE_RELEASE_DST_TWICE)
    // Tolerated: the deprecated release_dst on a free DST, as the SDK's vecadd_multi_core does every tile.
    for (int tile = 0; tile < 2; tile++) {
        release_dst();  // misuse:RELEASE_DST_TWICE
    }
#endif
}
