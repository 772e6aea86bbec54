// Copies every page of an interleaved L1 buffer to an interleaved DRAM buffer through the NOC, one page
// at a time through a scratch page of CB c_0: even pages are addressed with InterleavedAddrGen<false>,
// odd pages with a TensorAccessor for L1.
// Compile-time args: TensorAccessorArgs of the L1 source, then of the DRAM destination.
// Runtime args: L1 buffer address, DRAM buffer address, number of pages, page size in bytes.
#include <cstdint>

void kernel_main() {
    uint32_t src_addr = get_arg_val<uint32_t>(0);
    uint32_t dst_addr = get_arg_val<uint32_t>(1);
    uint32_t num_pages = get_arg_val<uint32_t>(2);
    uint32_t page_size = get_arg_val<uint32_t>(3);

    constexpr uint32_t cb_scratch = tt::CBIndex::c_0;
    const InterleavedAddrGen<false> src_gen = {.bank_base_address = src_addr, .page_size = page_size};
    constexpr auto src_args = TensorAccessorArgs<0>();
    const auto src = TensorAccessor(src_args, src_addr, page_size);
    constexpr auto dst_args = TensorAccessorArgs<src_args.next_compile_time_args_offset()>();
    const auto dst = TensorAccessor(dst_args, dst_addr, page_size);

    cb_reserve_back(cb_scratch, 1);
    const uint32_t scratch = get_write_ptr(cb_scratch);
    for (uint32_t page = 0; page < num_pages; page++) {
        const uint64_t src_noc_addr = page % 2 == 0 ? get_noc_addr(page, src_gen) : src.get_noc_addr(page);
        noc_async_read(src_noc_addr, scratch, page_size);
        noc_async_read_barrier();
        noc_async_write(scratch, dst.get_noc_addr(page), page_size);
        noc_async_write_barrier();
    }
}
