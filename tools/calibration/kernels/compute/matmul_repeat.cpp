// Matmul throughput: C (Mt x Nt tiles, at most what DST holds) = A (Mt x Kt) x B (Kt x Nt), computed
// `passes` times from the same A and B, which stay in c_0 and c_1; every pass packs C to c_16. The FPU
// does Mt * Nt * Kt tile products per pass at the fidelity the host chose (ComputeConfig::math_fidelity).
// Compile-time args: Mt, Nt, Kt, passes.
#include <cstdint>

#include "compute_kernel_api/matmul.h"

void kernel_main() {
    constexpr uint32_t Mt = get_compile_time_arg_val(0);
    constexpr uint32_t Nt = get_compile_time_arg_val(1);
    constexpr uint32_t Kt = get_compile_time_arg_val(2);
    constexpr uint32_t passes = get_compile_time_arg_val(3);
    constexpr uint32_t out_tiles = Mt * Nt;
    constexpr auto cb_a = tt::CBIndex::c_0;
    constexpr auto cb_b = tt::CBIndex::c_1;
    constexpr auto cb_out = tt::CBIndex::c_16;

    mm_block_init(cb_a, cb_b, cb_out, false, Nt, Mt, Kt);
    cb_wait_front(cb_a, Mt * Kt);
    cb_wait_front(cb_b, Kt * Nt);
    for (uint32_t pass = 0; pass < passes; ++pass) {
        tile_regs_acquire();
        // DST[mt * Nt + nt] += A[mt, kt] x B[kt, nt], one row of B tiles per call.
        for (uint32_t kt = 0; kt < Kt; ++kt) {
            matmul_block(cb_a, cb_b, kt, kt * Nt, 0, false, Nt, Mt, Kt);
        }
        tile_regs_commit();

        cb_reserve_back(cb_out, out_tiles);
        tile_regs_wait();
        for (uint32_t t = 0; t < out_tiles; ++t) {
            pack_tile(t, cb_out);
        }
        tile_regs_release();
        cb_push_back(cb_out, out_tiles);
    }
    cb_pop_front(cb_a, Mt * Kt);
    cb_pop_front(cb_b, Kt * Nt);
}
