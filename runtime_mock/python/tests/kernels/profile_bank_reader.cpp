// Timing-model test: issues `reads` page reads from one DRAM bank (pages 0, banks, 2*banks, ...) into
// circular buffer c_0's first page, then waits for all of them with one barrier.
// Compile-time args: TensorAccessorArgs of the source. Runtime args: source address, reads, page size, banks.
#include <cstdint>

void kernel_main() {
    const uint32_t src_addr = get_arg_val<uint32_t>(0);
    const uint32_t reads = get_arg_val<uint32_t>(1);
    const uint32_t page_size = get_arg_val<uint32_t>(2);
    const uint32_t banks = get_arg_val<uint32_t>(3);
    constexpr auto src_args = TensorAccessorArgs<0>();
    const auto src = TensorAccessor(src_args, src_addr, page_size);
    for (uint32_t i = 0; i < reads; ++i)
        noc_async_read_page(i * banks, src, get_write_ptr(0));
    noc_async_read_barrier();
}
