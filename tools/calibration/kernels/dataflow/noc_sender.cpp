// NOC write bandwidth sender: reads one block of transfer_bytes from DRAM into CB c_0, then writes it
// `transfers` times to the same L1 address on the receivers (one core, or a multicast rectangle), and
// finally sets the receivers' semaphore to VALID so they know the data is in place.
// Modes: 0 one-to-one (noc_async_write), 1 multicast, 2 linked multicast (every data multicast holds the
// path for the next one; the closing semaphore multicast releases it).
// Compile-time args: TensorAccessorArgs of the source buffer.
// Runtime args: source address, transfer_bytes, transfers, mode, receiver NOC start x, start y, end x,
// end y (start == end for one-to-one), number of receivers, semaphore id.
#include <cstdint>

#include "hostdevcommon/common_values.hpp"

void kernel_main() {
    const uint32_t source_addr = get_arg_val<uint32_t>(0);
    const uint32_t transfer_bytes = get_arg_val<uint32_t>(1);
    const uint32_t transfers = get_arg_val<uint32_t>(2);
    const uint32_t mode = get_arg_val<uint32_t>(3);
    const uint32_t start_x = get_arg_val<uint32_t>(4);
    const uint32_t start_y = get_arg_val<uint32_t>(5);
    const uint32_t end_x = get_arg_val<uint32_t>(6);
    const uint32_t end_y = get_arg_val<uint32_t>(7);
    const uint32_t num_receivers = get_arg_val<uint32_t>(8);
    const uint32_t semaphore_addr = get_semaphore(get_arg_val<uint32_t>(9));
    constexpr uint32_t cb_block = tt::CBIndex::c_0;
    constexpr uint32_t one_to_one = 0;
    constexpr uint32_t linked_multicast = 2;

    constexpr auto source_args = TensorAccessorArgs<0>();
    const auto source = TensorAccessor(source_args, source_addr, transfer_bytes);

    // The block to send, read once.
    cb_reserve_back(cb_block, 1);
    const uint32_t block_addr = get_write_ptr(cb_block);
    noc_async_read_page(0, source, block_addr);
    noc_async_read_barrier();

    // The same block, `transfers` times, to the receivers' copy of the CB.
    const uint64_t block_dst = mode == one_to_one ? get_noc_addr(start_x, start_y, block_addr)
                                                  : get_noc_multicast_addr(start_x, start_y, end_x, end_y, block_addr);
    for (uint32_t t = 0; t < transfers; ++t) {
        if (mode == one_to_one) {
            noc_async_write(block_addr, block_dst, transfer_bytes);
        } else {
            noc_async_write_multicast(block_addr, block_dst, transfer_bytes, num_receivers, mode == linked_multicast);
        }
    }
    noc_async_write_barrier();

    // Release the receivers.
    volatile tt_l1_ptr uint32_t* semaphore = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(semaphore_addr);
    noc_semaphore_set(semaphore, VALID);
    if (mode == one_to_one) {
        noc_semaphore_set_remote(semaphore_addr, get_noc_addr(start_x, start_y, semaphore_addr));
    } else {
        noc_semaphore_set_multicast(
            semaphore_addr, get_noc_multicast_addr(start_x, start_y, end_x, end_y, semaphore_addr), num_receivers);
    }
    noc_async_write_barrier();
}
