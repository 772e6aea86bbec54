// Receiver: reserves c_0, tells the sender it is ready (noc_semaphore_inc on the sender's semaphore),
// waits for the multicast to mark its receiver semaphore VALID, then publishes the tile.
// Runtime args: sender NOC x, sender NOC y, sender semaphore id, receiver semaphore id.
#include <cstdint>

#include "hostdevcommon/common_values.hpp"

void kernel_main() {
    uint32_t sender_x = get_arg_val<uint32_t>(0), sender_y = get_arg_val<uint32_t>(1);
    uint32_t sender_sem = get_semaphore(get_arg_val<uint32_t>(2));
    uint32_t receiver_sem = get_semaphore(get_arg_val<uint32_t>(3));

    constexpr uint32_t cb = tt::CBIndex::c_0;
    cb_reserve_back(cb, 1);
    volatile tt_l1_ptr uint32_t* receiver_sem_ptr = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(receiver_sem);
    noc_semaphore_set(receiver_sem_ptr, INVALID);
    noc_semaphore_inc(get_noc_addr(sender_x, sender_y, sender_sem), 1);
    noc_semaphore_wait(receiver_sem_ptr, VALID);
    cb_push_back(cb, 1);
}
