// Timing-model test: fills circular buffer c_0 one page at a time, each page read from DRAM first.
// Compile-time args: TensorAccessorArgs of the source. Runtime args: source address, pages, page size.
#include <cstdint>

void kernel_main() {
    const uint32_t src_addr = get_arg_val<uint32_t>(0);
    const uint32_t num_pages = get_arg_val<uint32_t>(1);
    const uint32_t page_size = get_arg_val<uint32_t>(2);
    constexpr auto src_args = TensorAccessorArgs<0>();
    const auto src = TensorAccessor(src_args, src_addr, page_size);
    for (uint32_t page = 0; page < num_pages; ++page) {
        cb_reserve_back(0, 1);
        noc_async_read_page(page, src, get_write_ptr(0));
        noc_async_read_barrier();
        cb_push_back(0, 1);
    }
}
