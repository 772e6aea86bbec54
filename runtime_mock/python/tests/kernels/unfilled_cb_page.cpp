// Pushes a page of circular buffer c_0 that it never fills (the mistake) and writes the page to page 0 of
// an interleaved DRAM buffer, so the host sees what a never-written L1 page holds.
// Compile-time args: TensorAccessorArgs of the destination. Runtime args: destination address, page_size.
#include <cstdint>

void kernel_main() {
    const uint32_t dst_addr = get_arg_val<uint32_t>(0);
    const uint32_t page_size = get_arg_val<uint32_t>(1);
    constexpr uint32_t cb_id = 0;
    constexpr auto dst_args = TensorAccessorArgs<0>();
    const auto dst = TensorAccessor(dst_args, dst_addr, page_size);

    cb_reserve_back(cb_id, 1);
    cb_push_back(cb_id, 1);  // nothing was written into the page
    cb_wait_front(cb_id, 1);
    noc_async_write_page(0, dst, get_read_ptr(cb_id));
    noc_async_write_barrier();
    cb_pop_front(cb_id, 1);
}
