// 2-D multicast matmul, B side and output (RISCV_0, NOC 1). The core in row 0 of a column of the grid reads
// the column's blocks of B from DRAM and multicasts each down the column; the other cores of the column
// receive them (mcast_block.hpp). A block is in0_block_w x per_core_N tiles, row-major, pushed to c_1.
// After the last block, the core writes its per_core_M x per_core_N block of C from c_16 to DRAM, subblock
// by subblock in the order the compute kernel packs them.
// Compile-time args: is_sender, then TensorAccessorArgs of B, then of C.
// Runtime args: B address, Nt, n0 (first tile column of the core's block of C), per_core_N, in0_block_w,
// num_blocks, the 9 McastGroup args of B's column, then C address, m0, per_core_M, subblock_h, subblock_w.
#include <cstdint>

#include "mcast_block.hpp"

void kernel_main() {
    constexpr bool is_sender = get_compile_time_arg_val(0) != 0;
    const uint32_t b_addr = get_arg_val<uint32_t>(0);
    const uint32_t Nt = get_arg_val<uint32_t>(1);
    const uint32_t n0 = get_arg_val<uint32_t>(2);
    const uint32_t per_core_N = get_arg_val<uint32_t>(3);
    const uint32_t in0_block_w = get_arg_val<uint32_t>(4);
    const uint32_t num_blocks = get_arg_val<uint32_t>(5);
    const McastGroup column = mcast_group_args(6);
    const uint32_t c_addr = get_arg_val<uint32_t>(15);
    const uint32_t m0 = get_arg_val<uint32_t>(16);
    const uint32_t per_core_M = get_arg_val<uint32_t>(17);
    const uint32_t subblock_h = get_arg_val<uint32_t>(18);
    const uint32_t subblock_w = get_arg_val<uint32_t>(19);
    constexpr uint32_t cb_b = tt::CBIndex::c_1;
    constexpr uint32_t cb_out = tt::CBIndex::c_16;
    const uint32_t tile_bytes = get_tile_size(cb_b);
    const uint32_t block_tiles = in0_block_w * per_core_N;

    constexpr auto b_args = TensorAccessorArgs<1>();
    const auto b = TensorAccessor(b_args, b_addr, tile_bytes);
    constexpr auto c_args = TensorAccessorArgs<b_args.next_compile_time_args_offset()>();
    const auto c = TensorAccessor(c_args, c_addr, tile_bytes);

    for (uint32_t block = 0; block < num_blocks; ++block) {
        cb_reserve_back(cb_b, block_tiles);
        const uint32_t block_addr = get_write_ptr(cb_b);
        if (is_sender) {
            // B[kt0 + kt, n0 + nt] for the block's K range kt0 .. kt0 + in0_block_w - 1.
            const uint32_t kt0 = block * in0_block_w;
            uint32_t l1_addr = block_addr;
            for (uint32_t kt = 0; kt < in0_block_w; ++kt) {
                for (uint32_t nt = 0; nt < per_core_N; ++nt) {
                    noc_async_read_tile((kt0 + kt) * Nt + n0 + nt, b, l1_addr);
                    l1_addr += tile_bytes;
                }
            }
            noc_async_read_barrier();
            send_mcast_block(column, block_addr, block_tiles * tile_bytes);
        } else {
            receive_mcast_block(column);
        }
        cb_push_back(cb_b, block_tiles);
    }

    // C[m0 + sh * subblock_h + h, n0 + sw * subblock_w + w], one subblock at a time.
    const uint32_t subblock_tiles = subblock_h * subblock_w;
    for (uint32_t sh = 0; sh < per_core_M / subblock_h; ++sh) {
        for (uint32_t sw = 0; sw < per_core_N / subblock_w; ++sw) {
            cb_wait_front(cb_out, subblock_tiles);
            uint32_t l1_addr = get_read_ptr(cb_out);
            for (uint32_t h = 0; h < subblock_h; ++h) {
                for (uint32_t w = 0; w < subblock_w; ++w) {
                    const uint32_t mt = m0 + sh * subblock_h + h;
                    const uint32_t nt = n0 + sw * subblock_w + w;
                    noc_async_write_tile(mt * Nt + nt, c, l1_addr);
                    l1_addr += tile_bytes;
                }
            }
            noc_async_write_barrier();
            cb_pop_front(cb_out, subblock_tiles);
        }
    }
}
