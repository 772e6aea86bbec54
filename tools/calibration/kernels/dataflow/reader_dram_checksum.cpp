// DRAM read bandwidth reader: reads num_pages pages of an interleaved DRAM buffer (pages first_page,
// first_page + page_stride, ...) into CB c_0, block_pages pages per barrier, and discards them; the only
// thing kept is a wrapping sum of their 32-bit words, written to page `checksum_page` of the checksum
// buffer so the host can check that every page arrived.
// Compile-time args: TensorAccessorArgs of the data buffer, then of the checksum buffer.
// Runtime args: data address, page_bytes, first_page, page_stride, num_pages, block_pages, checksum
// address, checksum_page.
#include <cstdint>

void kernel_main() {
    const uint32_t data_addr = get_arg_val<uint32_t>(0);
    const uint32_t page_bytes = get_arg_val<uint32_t>(1);
    const uint32_t first_page = get_arg_val<uint32_t>(2);
    const uint32_t page_stride = get_arg_val<uint32_t>(3);
    const uint32_t num_pages = get_arg_val<uint32_t>(4);
    const uint32_t block_pages = get_arg_val<uint32_t>(5);
    const uint32_t checksum_addr = get_arg_val<uint32_t>(6);
    const uint32_t checksum_page = get_arg_val<uint32_t>(7);
    constexpr uint32_t cb_data = tt::CBIndex::c_0;
    constexpr uint32_t checksum_page_bytes = 32;  // one DRAM-aligned word group per reader

    constexpr auto data_args = TensorAccessorArgs<0>();
    const auto data = TensorAccessor(data_args, data_addr, page_bytes);
    constexpr auto checksum_args = TensorAccessorArgs<data_args.next_compile_time_args_offset()>();
    const auto checksums = TensorAccessor(checksum_args, checksum_addr, checksum_page_bytes);

    // One block of the CB is the landing area for every block: the data is read and dropped.
    cb_reserve_back(cb_data, block_pages);
    const uint32_t block_addr = get_write_ptr(cb_data);
    uint32_t sum = 0;
    for (uint32_t p = 0; p < num_pages; p += block_pages) {
        const uint32_t pages = p + block_pages <= num_pages ? block_pages : num_pages - p;
        for (uint32_t i = 0; i < pages; ++i) {
            noc_async_read_page(first_page + (p + i) * page_stride, data, block_addr + i * page_bytes);
        }
        noc_async_read_barrier();
        const volatile uint32_t* words = reinterpret_cast<const volatile uint32_t*>(block_addr);
        for (uint32_t w = 0; w < pages * page_bytes / sizeof(uint32_t); ++w) {
            sum += words[w];
        }
    }

    // The checksum page (sum, then zeros) goes out through the start of the landing area.
    volatile uint32_t* out = reinterpret_cast<volatile uint32_t*>(block_addr);
    for (uint32_t w = 0; w < checksum_page_bytes / sizeof(uint32_t); ++w) {
        out[w] = w == 0 ? sum : 0;
    }
    noc_async_write_page(checksum_page, checksums, block_addr);
    noc_async_write_barrier();
}
