// Sender: reads one tile into c_0, waits until every receiver has signalled it is ready (its
// semaphore reaches num_dests), multicasts the tile into the receivers' c_0 and then flips their
// receiver semaphore to VALID. Runtime args: src address, the receivers' NOC rectangle (x0, y0, x1, y1),
// num_dests, sender semaphore id, receiver semaphore id. Compile-time args: TensorAccessorArgs of src.
#include <cstdint>

#include "hostdevcommon/common_values.hpp"

void kernel_main() {
    uint32_t src_addr = get_arg_val<uint32_t>(0);
    uint32_t x0 = get_arg_val<uint32_t>(1), y0 = get_arg_val<uint32_t>(2);
    uint32_t x1 = get_arg_val<uint32_t>(3), y1 = get_arg_val<uint32_t>(4);
    uint32_t num_dests = get_arg_val<uint32_t>(5);
    uint32_t sender_sem = get_semaphore(get_arg_val<uint32_t>(6));
    uint32_t receiver_sem = get_semaphore(get_arg_val<uint32_t>(7));

    constexpr uint32_t cb = tt::CBIndex::c_0;
    constexpr auto src_args = TensorAccessorArgs<0>();
    const auto src = TensorAccessor(src_args, src_addr, get_tile_size(cb));

    cb_reserve_back(cb, 1);
    uint32_t tile_addr = get_write_ptr(cb);
    noc_async_read_tile(0, src, tile_addr);
    noc_async_read_barrier();

    volatile tt_l1_ptr uint32_t* sender_sem_ptr = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(sender_sem);
    noc_semaphore_wait(sender_sem_ptr, num_dests);
    noc_semaphore_set(sender_sem_ptr, 0);

    // Swapped corners, as NOC1 kernels pass them: the device normalises the rectangle.
    noc_async_write_multicast(tile_addr, get_noc_multicast_addr(x1, y1, x0, y0, tile_addr), get_tile_size(cb),
                              num_dests);
    volatile tt_l1_ptr uint32_t* receiver_sem_ptr = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(receiver_sem);
    *receiver_sem_ptr = VALID;
    noc_semaphore_set_multicast(receiver_sem, get_noc_multicast_addr(x0, y0, x1, y1, receiver_sem), num_dests);
    noc_async_write_barrier();
    cb_push_back(cb, 1);
}
