// Timing-model test: semaphore hand-offs. Runtime args: role, then the role's arguments.
//   0: wait until semaphore 0 is 1, then reset it
//   1 (x, y): increment semaphore 0 on the core at NOC (x, y)
//   2 (x0, y0, x1, y1, destinations, bytes): fill the first `bytes` of circular buffer c_0 (the kernel's own
//     stores, which the timing model does not see) and multicast them to the NOC rectangle, then set
//     semaphore 0 to 1 there by multicast (the receivers run role 0)
#include <cstdint>

void kernel_main() {
    const uint32_t role = get_arg_val<uint32_t>(0);
    const uint32_t semaphore = get_semaphore(0);
    volatile tt_l1_ptr uint32_t* word = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(semaphore);
    if (role == 0) {
        noc_semaphore_wait(word, 1);
        noc_semaphore_set(word, 0);
    } else if (role == 1) {
        noc_semaphore_inc(get_noc_addr(get_arg_val<uint32_t>(1), get_arg_val<uint32_t>(2), semaphore), 1);
    } else {
        const uint32_t x0 = get_arg_val<uint32_t>(1), y0 = get_arg_val<uint32_t>(2);
        const uint32_t x1 = get_arg_val<uint32_t>(3), y1 = get_arg_val<uint32_t>(4);
        const uint32_t destinations = get_arg_val<uint32_t>(5), bytes = get_arg_val<uint32_t>(6);
        const uint32_t block = get_write_ptr(0);
        volatile tt_l1_ptr uint32_t* data = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(block);
        for (uint32_t i = 0; i < bytes / 4; i++)
            data[i] = i;
        noc_async_write_multicast(block, get_noc_multicast_addr(x0, y0, x1, y1, block), bytes, destinations);
        noc_async_write_barrier();
        noc_semaphore_set(word, 1);
        noc_semaphore_set_multicast(semaphore, get_noc_multicast_addr(x0, y0, x1, y1, semaphore), destinations);
        noc_async_write_barrier();
    }
}
