// Copies num_pages pages of page_size bytes from one interleaved DRAM buffer to another through
// circular buffer c_0. Compile-time args: two TensorAccessorArgs (source, destination).
// Runtime args: source address, destination address, num_pages, page_size.
#include <cstdint>

void kernel_main() {
    const uint32_t src_addr = get_arg_val<uint32_t>(0);
    const uint32_t dst_addr = get_arg_val<uint32_t>(1);
    const uint32_t num_pages = get_arg_val<uint32_t>(2);
    const uint32_t page_size = get_arg_val<uint32_t>(3);
    constexpr uint32_t cb_id = 0;

    constexpr auto src_args = TensorAccessorArgs<0>();
    const auto src = TensorAccessor(src_args, src_addr, page_size);
    constexpr auto dst_args = TensorAccessorArgs<src_args.next_compile_time_args_offset()>();
    const auto dst = TensorAccessor(dst_args, dst_addr, page_size);

    for (uint32_t page = 0; page < num_pages; ++page) {
        // Read one page into the CB, then write it back out.
        cb_reserve_back(cb_id, 1);
        const uint32_t l1_addr = get_write_ptr(cb_id);
        noc_async_read_page(page, src, l1_addr);
        noc_async_read_barrier();
        noc_async_write_page(page, dst, l1_addr);
        noc_async_write_barrier();
        cb_push_back(cb_id, 1);
        cb_wait_front(cb_id, 1);
        cb_pop_front(cb_id, 1);
    }
}
