// A data-movement kernel that misuses the API in the way its MISUSE_* define selects (an error, or misuse
// that silicon tolerates and the mock accepts with a warning); the line of each misuse carries a
// "// misuse:<NAME>" marker that test_errors.cpp looks up to check the reported line.
// CB c_0 has 2 pages. Runtime args: address of a one-tile DRAM buffer, the core's L1 size in bytes.
#include <cstdint>

void kernel_main() {
    constexpr uint32_t cb = tt::CBIndex::c_0;
    uint32_t src_addr = get_arg_val<uint32_t>(0);
    constexpr auto src_args = TensorAccessorArgs<0>();
    const auto src = TensorAccessor(src_args, src_addr, get_tile_size(cb));
#if defined(MISUSE_DEADLOCK)
    cb_wait_front(cb, 2);  // misuse:DEADLOCK
#elif defined(MISUSE_PUSH_OVERFLOW)
    cb_reserve_back(cb, 2);
    cb_push_back(cb, 2);
    cb_push_back(cb, 1);  // misuse:PUSH_OVERFLOW
#elif defined(MISUSE_PUSH_WITHOUT_RESERVE)
    // Tolerated: the 2-page CB has room for both pushes.
    for (int page = 0; page < 2; page++) {
        cb_push_back(cb, 1);  // misuse:PUSH_WITHOUT_RESERVE
    }
#elif defined(MISUSE_POP_WITHOUT_WAIT)
    cb_pop_front(cb, 1);  // misuse:POP_WITHOUT_WAIT
#elif defined(MISUSE_RESERVE_OVER_CAPACITY)
    cb_reserve_back(cb, 3);  // misuse:RESERVE_OVER_CAPACITY
#elif defined(MISUSE_PUSH_PENDING_READ)
    cb_reserve_back(cb, 1);
    noc_async_read_tile(0, src, get_write_ptr(cb));
    cb_push_back(cb, 1);  // misuse:PUSH_PENDING_READ
#elif defined(MISUSE_DRAM_OUT_OF_BOUNDS)
    cb_reserve_back(cb, 1);
    noc_async_read_tile(1000, src, get_write_ptr(cb));  // misuse:DRAM_OUT_OF_BOUNDS
#elif defined(MISUSE_MISALIGNED)
    cb_reserve_back(cb, 1);
    noc_async_read(get_noc_addr(0, src), get_write_ptr(cb) + 4, 64);  // misuse:MISALIGNED
#elif defined(MISUSE_ARG_OUT_OF_RANGE)
    uint32_t missing = get_arg_val<uint32_t>(5);  // misuse:ARG_OUT_OF_RANGE
    (void)missing;
#elif defined(MISUSE_CB_NOT_CONFIGURED)
    cb_reserve_back(tt::CBIndex::c_7, 1);  // misuse:CB_NOT_CONFIGURED
#elif defined(MISUSE_POP_OVER_WAITED)
    cb_reserve_back(cb, 2);
    cb_push_back(cb, 2);
    cb_wait_front(cb, 1);
    cb_pop_front(cb, 2);  // misuse:POP_OVER_WAITED
#elif defined(MISUSE_CUMULATIVE_WAIT_WRAPS)
    // After one page went round, a cumulative wait for 2 pages would run past the end of the 2-page ring.
    cb_reserve_back(cb, 1);
    cb_push_back(cb, 1);
    cb_wait_front(cb, 1);
    cb_pop_front(cb, 1);
    for (int page = 0; page < 2; page++) {
        cb_reserve_back(cb, 1);
        cb_push_back(cb, 1);
    }
    cb_wait_front(cb, 1);
    cb_wait_front(cb, 2);  // misuse:CUMULATIVE_WAIT_WRAPS
#elif defined(MISUSE_CB_INDEX_OVER_ARCH)
    cb_wait_front(40, 1);  // misuse:CB_INDEX_OVER_ARCH
#elif defined(MISUSE_DRAM_MISALIGNED)
    cb_reserve_back(cb, 1);
    noc_async_read(get_noc_addr(0, src) + 16, get_write_ptr(cb), 32);  // misuse:DRAM_MISALIGNED
#elif defined(MISUSE_L1_OUT_OF_BOUNDS)
    // A raw NOC address of this core's own L1 whose range ends past the end of L1.
    cb_reserve_back(cb, 1);
    const uint64_t l1_end = get_noc_addr(my_x[0], my_y[0], get_arg_val<uint32_t>(1));
    noc_async_read(l1_end - 32, get_write_ptr(cb), 64);  // misuse:L1_OUT_OF_BOUNDS
#elif defined(MISUSE_NOC_NODE_OUTSIDE)
    cb_reserve_back(cb, 1);
    noc_async_read(get_noc_addr(30, 30, 0), get_write_ptr(cb), 64);  // misuse:NOC_NODE_OUTSIDE
#elif defined(MISUSE_MCAST_OUT_OF_GRID)
    cb_reserve_back(cb, 1);
    const uint32_t tile = get_write_ptr(cb);
    noc_async_write_multicast(tile, get_noc_multicast_addr(1, 1, 20, 1, tile), 2048, 19);  // misuse:MCAST_OUT_OF_GRID
#elif defined(MISUSE_MCAST_NUM_DESTS)
    cb_reserve_back(cb, 1);
    const uint32_t tile = get_write_ptr(cb);
    noc_async_write_multicast(tile, get_noc_multicast_addr(2, 1, 3, 1, tile), 2048, 5);  // misuse:MCAST_NUM_DESTS
#elif defined(MISUSE_SEMAPHORE_NOT_CREATED)
    uint32_t sem = get_semaphore(3);  // misuse:SEMAPHORE_NOT_CREATED
    (void)sem;
#elif defined(MISUSE_SEMAPHORE_BAD_ADDRESS)
    noc_semaphore_wait(reinterpret_cast<volatile tt_l1_ptr uint32_t*>(0x10), 1);  // misuse:SEMAPHORE_BAD_ADDRESS
#elif defined(MISUSE_SEMAPHORE_DEADLOCK)
    volatile tt_l1_ptr uint32_t* never_set = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_semaphore(0));
    noc_semaphore_wait(never_set, 1);  // misuse:SEMAPHORE_DEADLOCK
#elif defined(MISUSE_BUILD_ERROR)
    this_does_not_compile;
#endif
}
