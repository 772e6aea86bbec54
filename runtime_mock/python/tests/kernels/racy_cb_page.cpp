// Race detection test: two kernels of one core share circular buffer c_0 (one page). Runtime args: role,
// then the role's arguments.
//   0 (producer; racy): write 7 into the page and push it; then write 8 into the same page, after a
//     cb_reserve_back (the correct program: it waits until the consumer has popped the page) or, when
//     racy, at once, while the consumer may be reading it.
//   1 (consumer; dst_addr): wait for the page, read its word, pop it, and write the word into page 0 of
//     the interleaved DRAM buffer at dst_addr through circular buffer c_1.
// Compile-time args: TensorAccessorArgs of the destination.
#include <cstdint>

#include "store_word.h"

void kernel_main() {
    const uint32_t role = get_arg_val<uint32_t>(0);
    if (role == 0) {
        const uint32_t racy = get_arg_val<uint32_t>(1);
        cb_reserve_back(0, 1);
        volatile tt_l1_ptr uint32_t* page = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_write_ptr(0));
        page[0] = 7;
        cb_push_back(0, 1);
        if (!racy)
            cb_reserve_back(0, 1);
        page[0] = 8;  // racy: the consumer owns this page now
        return;
    }
    cb_wait_front(0, 1);
    const uint32_t seen = *reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_read_ptr(0));  // the consumer's read
    cb_pop_front(0, 1);
    store_word(seen, get_arg_val<uint32_t>(1));
}
