// C = A @ B for one block held whole in the input CBs: A (Mt x Kt tiles) in c_0 and B (Kt x Nt tiles) in
// c_1, both row-major in tiles; DST holds the Mt x Nt output, accumulated by one matmul_block per kt.
// With TRANSPOSE_B, c_1 holds B^T's tiles in B's order (each tile transposed), and matmul_block undoes it.
// Compile-time args: Mt, Kt, Nt.
#include <cstdint>

#include "compute_kernel_api/matmul.h"

void kernel_main() {
    constexpr uint32_t Mt = get_compile_time_arg_val(0);
    constexpr uint32_t Kt = get_compile_time_arg_val(1);
    constexpr uint32_t Nt = get_compile_time_arg_val(2);
    constexpr uint32_t transpose = TRANSPOSE_B;
    constexpr auto cb_a = tt::CBIndex::c_0;
    constexpr auto cb_b = tt::CBIndex::c_1;
    constexpr auto cb_out = tt::CBIndex::c_16;

    mm_block_init(cb_a, cb_b, cb_out, transpose, Nt, Mt, Kt);
    cb_wait_front(cb_a, Mt * Kt);
    cb_wait_front(cb_b, Kt * Nt);
    tile_regs_acquire();
    for (uint32_t kt = 0; kt < Kt; kt++)
        matmul_block(cb_a, cb_b, kt, kt * Nt, 0, transpose, Nt, Mt, Kt);
    tile_regs_commit();
    cb_pop_front(cb_a, Mt * Kt);
    cb_pop_front(cb_b, Kt * Nt);

    tile_regs_wait();
    cb_reserve_back(cb_out, Mt * Nt);
    for (uint32_t i = 0; i < Mt * Nt; i++)
        pack_tile(i, cb_out);
    cb_push_back(cb_out, Mt * Nt);
    tile_regs_release();
}
