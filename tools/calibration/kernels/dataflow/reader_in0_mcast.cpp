// 2-D multicast matmul, A side (RISCV_1, NOC 0). The core in column 0 of a row of the grid reads the row's
// blocks of A from DRAM and multicasts each along the row; the other cores of the row receive them
// (mcast_block.hpp). A block is per_core_M x in0_block_w tiles, row-major, pushed to c_0.
// Compile-time args: is_sender, then TensorAccessorArgs of A.
// Runtime args: A address, Kt, m0 (first tile row of the core's block of C), per_core_M, in0_block_w,
// num_blocks, then the 9 McastGroup args of A's row.
#include <cstdint>

#include "mcast_block.hpp"

void kernel_main() {
    constexpr bool is_sender = get_compile_time_arg_val(0) != 0;
    const uint32_t a_addr = get_arg_val<uint32_t>(0);
    const uint32_t Kt = get_arg_val<uint32_t>(1);
    const uint32_t m0 = get_arg_val<uint32_t>(2);
    const uint32_t per_core_M = get_arg_val<uint32_t>(3);
    const uint32_t in0_block_w = get_arg_val<uint32_t>(4);
    const uint32_t num_blocks = get_arg_val<uint32_t>(5);
    const McastGroup row = mcast_group_args(6);
    constexpr uint32_t cb_a = tt::CBIndex::c_0;
    const uint32_t tile_bytes = get_tile_size(cb_a);
    const uint32_t block_tiles = per_core_M * in0_block_w;

    constexpr auto a_args = TensorAccessorArgs<1>();
    const auto a = TensorAccessor(a_args, a_addr, tile_bytes);

    for (uint32_t block = 0; block < num_blocks; ++block) {
        cb_reserve_back(cb_a, block_tiles);
        const uint32_t block_addr = get_write_ptr(cb_a);
        if (is_sender) {
            // A[m0 + mt, kt0 + kt] for the block's K range kt0 .. kt0 + in0_block_w - 1.
            const uint32_t kt0 = block * in0_block_w;
            uint32_t l1_addr = block_addr;
            for (uint32_t mt = 0; mt < per_core_M; ++mt) {
                for (uint32_t kt = 0; kt < in0_block_w; ++kt) {
                    noc_async_read_tile((m0 + mt) * Kt + kt0 + kt, a, l1_addr);
                    l1_addr += tile_bytes;
                }
            }
            noc_async_read_barrier();
            send_mcast_block(row, block_addr, block_tiles * tile_bytes);
        } else {
            receive_mcast_block(row);
        }
        cb_push_back(cb_a, block_tiles);
    }
}
