// num_tiles output tiles, each the sum over kt of c_0 tile x c_1 tile (Kt pairs per output tile),
// accumulated in DST and packed into c_16. Runtime args: num_tiles, Kt.
#include <cstdint>

#include "compute_kernel_api/matmul.h"

void kernel_main() {
    const uint32_t num_tiles = get_arg_val<uint32_t>(0);
    const uint32_t Kt = get_arg_val<uint32_t>(1);
    constexpr auto cb_a = tt::CBIndex::c_0;
    constexpr auto cb_b = tt::CBIndex::c_1;
    constexpr auto cb_out = tt::CBIndex::c_16;

    mm_init(cb_a, cb_b, cb_out);
    for (uint32_t t = 0; t < num_tiles; ++t) {
        // Math: DST[0] += A[mt, kt] x B[kt, nt] over kt.
        tile_regs_acquire();
        for (uint32_t kt = 0; kt < Kt; ++kt) {
            cb_wait_front(cb_a, 1);
            cb_wait_front(cb_b, 1);
            matmul_tiles(cb_a, cb_b, 0, 0, 0);
            cb_pop_front(cb_a, 1);
            cb_pop_front(cb_b, 1);
        }
        tile_regs_commit();

        // Pack: DST[0] -> c_16.
        cb_reserve_back(cb_out, 1);
        tile_regs_wait();
        pack_tile(0, cb_out);
        tile_regs_release();
        cb_push_back(cb_out, 1);
    }
}
