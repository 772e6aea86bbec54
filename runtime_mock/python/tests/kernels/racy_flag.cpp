// Schedule test: one core writes a word into another core's L1; the other reads it. Runtime args: role,
// then the role's arguments.
//   0 (wait, dst_addr): with wait, wait until semaphore 0 is 1 (the correct program); without, read at
//     once (the race). Write the word read, from circular buffer c_0's page, into page 0 of the interleaved
//     DRAM buffer at dst_addr through circular buffer c_1.
//   1 (x, y): put 42 in c_0's page, write it into c_0's page of the core at NOC (x, y) (the same address:
//     both cores have c_0), then increment semaphore 0 there.
// Compile-time args: TensorAccessorArgs of the destination.
#include <cstdint>

#include "store_word.h"

void kernel_main() {
    const uint32_t role = get_arg_val<uint32_t>(0);
    const uint32_t semaphore = get_semaphore(0);
    const uint32_t word = get_write_ptr(0);
    if (role == 1) {
        const uint32_t x = get_arg_val<uint32_t>(1), y = get_arg_val<uint32_t>(2);
        *reinterpret_cast<volatile tt_l1_ptr uint32_t*>(word) = 42;
        noc_async_write(word, get_noc_addr(x, y, word), 4);
        noc_async_write_barrier();
        noc_semaphore_inc(get_noc_addr(x, y, semaphore), 1);
        return;
    }
    if (get_arg_val<uint32_t>(1) != 0)
        noc_semaphore_wait(reinterpret_cast<volatile tt_l1_ptr uint32_t*>(semaphore), 1);
    const uint32_t seen = *reinterpret_cast<volatile tt_l1_ptr uint32_t*>(word);
    store_word(seen, get_arg_val<uint32_t>(2));
}
