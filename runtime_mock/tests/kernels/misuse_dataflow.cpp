// A data-movement kernel that misuses the API in the way its MISUSE_* define selects; the line of each
// misuse carries a "// misuse:<NAME>" marker that test_errors.cpp looks up to check the reported line.
// CB c_0 has 2 pages. Runtime arg 0: address of a one-tile DRAM buffer.
#include <cstdint>

void kernel_main() {
    constexpr uint32_t cb = tt::CBIndex::c_0;
    uint32_t src_addr = get_arg_val<uint32_t>(0);
    constexpr auto src_args = TensorAccessorArgs<0>();
    const auto src = TensorAccessor(src_args, src_addr, get_tile_size(cb));
#if defined(MISUSE_DEADLOCK)
    cb_wait_front(cb, 2);  // misuse:DEADLOCK
#elif defined(MISUSE_PUSH_OVER_RESERVED)
    cb_reserve_back(cb, 1);
    cb_push_back(cb, 2);  // misuse:PUSH_OVER_RESERVED
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
#elif defined(MISUSE_SPIN)
    volatile tt_l1_ptr uint32_t* flag = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_semaphore(0));
    while (*flag == 0) {
    }
#elif defined(MISUSE_BUILD_ERROR)
    this_does_not_compile;
#endif
}
