// Multicast block-reuse matmul reader. Cores form a grid of output blocks; the core in column 0 of a
// row reads the row's A blocks from DRAM and multicasts them to the other cores of the row, the core
// in row 0 of a column reads the column's B blocks and multicasts them down the column. Every other
// core receives. Per K block and operand, the handshake is:
//   receiver: reserve the CB, set its receiver semaphore INVALID, increment the sender's sender
//             semaphore, wait for its receiver semaphore to become VALID, push;
//   sender:   reserve the CB, read from DRAM, wait until all receivers have incremented its sender
//             semaphore, reset it, multicast the block to the receivers' CB (same L1 address), then
//             multicast VALID to their receiver semaphores, push.
// Compile-time args: TensorAccessorArgs of A, then of B.
// Runtime args: 0-9 as reader_matmul_blocks.cpp (A address, B address, Kt, Nt, m0, n0, per_core_M,
// per_core_N, in0_block_w, num_blocks), then for A and for B in turn: is_sender, sender NOC x, sender
// NOC y, multicast NOC start x, start y, end x, end y, number of receivers, sender semaphore id,
// receiver semaphore id.
#include <cstdint>

#include "hostdevcommon/common_values.hpp"

struct McastOperand {
    uint32_t is_sender;
    uint32_t sender_x, sender_y;
    uint32_t start_x, start_y, end_x, end_y;
    uint32_t num_receivers;
    uint32_t sender_semaphore;
    uint32_t receiver_semaphore;
};

// The ten runtime args of one operand, starting at index i.
McastOperand operand_args(uint32_t i) {
    return {get_arg_val<uint32_t>(i),     get_arg_val<uint32_t>(i + 1), get_arg_val<uint32_t>(i + 2),
            get_arg_val<uint32_t>(i + 3), get_arg_val<uint32_t>(i + 4), get_arg_val<uint32_t>(i + 5),
            get_arg_val<uint32_t>(i + 6), get_arg_val<uint32_t>(i + 7), get_arg_val<uint32_t>(i + 8),
            get_arg_val<uint32_t>(i + 9)};
}

// Receives a block into the reserved CB space (receiver side of the handshake).
void receive_block(const McastOperand& op) {
    const uint32_t receiver_sem_addr = get_semaphore(op.receiver_semaphore);
    volatile tt_l1_ptr uint32_t* receiver_sem = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(receiver_sem_addr);
    noc_semaphore_set(receiver_sem, INVALID);
    noc_semaphore_inc(get_noc_addr(op.sender_x, op.sender_y, get_semaphore(op.sender_semaphore)), 1);
    noc_semaphore_wait(receiver_sem, VALID);
}

// Multicasts bytes at l1_addr to the receivers (sender side of the handshake).
void send_block(const McastOperand& op, uint32_t l1_addr, uint32_t bytes) {
    if (op.num_receivers == 0) {
        return;
    }
    volatile tt_l1_ptr uint32_t* sender_sem =
        reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_semaphore(op.sender_semaphore));
    noc_semaphore_wait(sender_sem, op.num_receivers);
    noc_semaphore_set(sender_sem, 0);
    noc_async_write_multicast(l1_addr, get_noc_multicast_addr(op.start_x, op.start_y, op.end_x, op.end_y, l1_addr),
                              bytes, op.num_receivers);
    const uint32_t receiver_sem_addr = get_semaphore(op.receiver_semaphore);
    noc_semaphore_set(reinterpret_cast<volatile tt_l1_ptr uint32_t*>(receiver_sem_addr), VALID);
    noc_semaphore_set_multicast(receiver_sem_addr,
                                get_noc_multicast_addr(op.start_x, op.start_y, op.end_x, op.end_y, receiver_sem_addr),
                                op.num_receivers);
    noc_async_write_barrier();
}

void kernel_main() {
    const uint32_t a_addr = get_arg_val<uint32_t>(0);
    const uint32_t b_addr = get_arg_val<uint32_t>(1);
    const uint32_t Kt = get_arg_val<uint32_t>(2);
    const uint32_t Nt = get_arg_val<uint32_t>(3);
    const uint32_t m0 = get_arg_val<uint32_t>(4);
    const uint32_t n0 = get_arg_val<uint32_t>(5);
    const uint32_t per_core_M = get_arg_val<uint32_t>(6);
    const uint32_t per_core_N = get_arg_val<uint32_t>(7);
    const uint32_t in0_block_w = get_arg_val<uint32_t>(8);
    const uint32_t num_blocks = get_arg_val<uint32_t>(9);
    const McastOperand in0 = operand_args(10);
    const McastOperand in1 = operand_args(20);
    constexpr uint32_t cb_a = tt::CBIndex::c_0;
    constexpr uint32_t cb_b = tt::CBIndex::c_1;
    const uint32_t tile_bytes = get_tile_size(cb_a);

    constexpr auto a_args = TensorAccessorArgs<0>();
    const auto a = TensorAccessor(a_args, a_addr, tile_bytes);
    constexpr auto b_args = TensorAccessorArgs<a_args.next_compile_time_args_offset()>();
    const auto b = TensorAccessor(b_args, b_addr, tile_bytes);
    const uint32_t in0_block_tiles = per_core_M * in0_block_w;
    const uint32_t in1_block_tiles = in0_block_w * per_core_N;

    for (uint32_t block = 0; block < num_blocks; ++block) {
        const uint32_t k0 = block * in0_block_w;
        // A block: tiles A[m0 + m, k0 + k], row-major, from DRAM or from the row's sender.
        cb_reserve_back(cb_a, in0_block_tiles);
        if (in0.is_sender) {
            uint32_t l1_addr = get_write_ptr(cb_a);
            for (uint32_t m = 0; m < per_core_M; ++m) {
                for (uint32_t k = 0; k < in0_block_w; ++k) {
                    noc_async_read_tile((m0 + m) * Kt + k0 + k, a, l1_addr);
                    l1_addr += tile_bytes;
                }
            }
            noc_async_read_barrier();
            send_block(in0, get_write_ptr(cb_a), in0_block_tiles * tile_bytes);
        } else {
            receive_block(in0);
        }
        cb_push_back(cb_a, in0_block_tiles);

        // B block: tiles B[k0 + k, n0 + n], row-major, from DRAM or from the column's sender.
        cb_reserve_back(cb_b, in1_block_tiles);
        if (in1.is_sender) {
            uint32_t l1_addr = get_write_ptr(cb_b);
            for (uint32_t k = 0; k < in0_block_w; ++k) {
                for (uint32_t n = 0; n < per_core_N; ++n) {
                    noc_async_read_tile((k0 + k) * Nt + n0 + n, b, l1_addr);
                    l1_addr += tile_bytes;
                }
            }
            noc_async_read_barrier();
            send_block(in1, get_write_ptr(cb_b), in1_block_tiles * tile_bytes);
        } else {
            receive_block(in1);
        }
        cb_push_back(cb_b, in1_block_tiles);
    }
}
