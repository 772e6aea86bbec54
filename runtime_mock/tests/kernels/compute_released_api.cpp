// Y = (A @ B + C + bias)^T, bias added to every row, written with only the released SDK's compute API
// (tt-metal 0.81: api/compute/ paths, matmul_block_init, add_init, add_bcast_rows_init, transpose_tile).
// A (Mt x Kt tiles) in c_0, B (Kt x Nt) in c_1, C (Mt x Nt) in c_2, all row-major in tiles; bias in c_3
// (Nt tiles, row 0 of each used). Each phase packs its Mt x Nt tiles into a CB the next phase waits on;
// the last writes tile (mt, nt) to page nt * Mt + mt of c_16, so Y is Nt x Mt tiles, row-major.
// Compile-time args: Mt, Kt, Nt.
#include <cstdint>

#include "api/compute/bcast.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/eltwise_binary.h"
#include "api/compute/matmul.h"
#include "api/compute/transpose.h"

void kernel_main() {
    constexpr uint32_t Mt = get_compile_time_arg_val(0);
    constexpr uint32_t Kt = get_compile_time_arg_val(1);
    constexpr uint32_t Nt = get_compile_time_arg_val(2);
    constexpr uint32_t out_tiles = Mt * Nt;
    constexpr auto cb_a = tt::CBIndex::c_0;
    constexpr auto cb_b = tt::CBIndex::c_1;
    constexpr auto cb_c = tt::CBIndex::c_2;
    constexpr auto cb_bias = tt::CBIndex::c_3;
    constexpr auto cb_out = tt::CBIndex::c_16;
    constexpr auto cb_product = tt::CBIndex::c_24;
    constexpr auto cb_sum = tt::CBIndex::c_25;
    constexpr auto cb_biased = tt::CBIndex::c_26;

    compute_kernel_hw_startup<SrcOrder::Reverse>(cb_a, cb_b, cb_product);

    // A @ B: one matmul_block per kt accumulates the Mt x Nt block in DST.
    matmul_block_init(cb_a, cb_b, 0, Nt, Mt, Kt);
    cb_wait_front(cb_a, Mt * Kt);
    cb_wait_front(cb_b, Kt * Nt);
    tile_regs_acquire();
    for (uint32_t kt = 0; kt < Kt; kt++)
        matmul_block(cb_a, cb_b, kt, kt * Nt, 0, 0, Nt, Mt, Kt);
    tile_regs_commit();
    cb_pop_front(cb_a, Mt * Kt);
    cb_pop_front(cb_b, Kt * Nt);
    tile_regs_wait();
    cb_reserve_back(cb_product, out_tiles);
    for (uint32_t i = 0; i < out_tiles; i++)
        pack_tile(i, cb_product);
    cb_push_back(cb_product, out_tiles);
    tile_regs_release();

    // + C, tile by tile.
    add_init(cb_product, cb_c);
    cb_wait_front(cb_product, out_tiles);
    cb_wait_front(cb_c, out_tiles);
    tile_regs_acquire();
    for (uint32_t i = 0; i < out_tiles; i++)
        add_tiles(cb_product, cb_c, i, i, i);
    tile_regs_commit();
    cb_pop_front(cb_product, out_tiles);
    cb_pop_front(cb_c, out_tiles);
    tile_regs_wait();
    cb_reserve_back(cb_sum, out_tiles);
    for (uint32_t i = 0; i < out_tiles; i++)
        pack_tile(i, cb_sum);
    cb_push_back(cb_sum, out_tiles);
    tile_regs_release();

    // + bias: tile (mt, nt) takes row 0 of bias tile nt for each of its rows.
    add_bcast_rows_init(cb_sum, cb_bias);
    cb_wait_front(cb_sum, out_tiles);
    cb_wait_front(cb_bias, Nt);
    tile_regs_acquire();
    for (uint32_t mt = 0; mt < Mt; mt++)
        for (uint32_t nt = 0; nt < Nt; nt++)
            add_tiles_bcast_rows(cb_sum, cb_bias, mt * Nt + nt, nt, mt * Nt + nt);
    tile_regs_commit();
    cb_pop_front(cb_sum, out_tiles);
    cb_pop_front(cb_bias, Nt);
    tile_regs_wait();
    cb_reserve_back(cb_biased, out_tiles);
    for (uint32_t i = 0; i < out_tiles; i++)
        pack_tile(i, cb_biased);
    cb_push_back(cb_biased, out_tiles);
    tile_regs_release();

    // Transpose: each tile within itself, and tile (mt, nt) to page nt * Mt + mt of the output.
    transpose_init(cb_biased);
    cb_wait_front(cb_biased, out_tiles);
    tile_regs_acquire();
    for (uint32_t i = 0; i < out_tiles; i++)
        transpose_tile(cb_biased, i, i);
    tile_regs_commit();
    cb_pop_front(cb_biased, out_tiles);
    tile_regs_wait();
    cb_reserve_back(cb_out, out_tiles);
    for (uint32_t mt = 0; mt < Mt; mt++)
        for (uint32_t nt = 0; nt < Nt; nt++)
            pack_tile<true>(mt * Nt + nt, cb_out, nt * Mt + mt);
    cb_push_back(cb_out, out_tiles);
    tile_regs_release();
}
