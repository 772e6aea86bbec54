// A data-movement kernel that reads or writes past the last page of an interleaved buffer in the way its
// BOUNDS_* define selects, after a legal access to that buffer's last page; the line of each bad access
// carries a "// misuse:<NAME>" marker that test_bounds.cpp looks up to check the reported line.
// Compile-time args: TensorAccessorArgs of the DRAM tensor, then of the L1 buffer.
// Runtime args: DRAM tensor address, its page count, the number of DRAM banks, L1 buffer address, its
// page count. Pages are bf16 tiles; CB c_0 holds 2 of them.
#include <cstdint>

void kernel_main() {
    uint32_t dram_addr = get_arg_val<uint32_t>(0);
    uint32_t dram_pages = get_arg_val<uint32_t>(1);
    uint32_t dram_banks = get_arg_val<uint32_t>(2);
    uint32_t l1_addr = get_arg_val<uint32_t>(3);
    uint32_t l1_pages = get_arg_val<uint32_t>(4);

    constexpr uint32_t cb_scratch = tt::CBIndex::c_0;
    const uint32_t tile_bytes = get_tile_size(cb_scratch);
    constexpr auto dram_args = TensorAccessorArgs<0>();
    const auto dram = TensorAccessor(dram_args, dram_addr, tile_bytes);
    constexpr auto l1_args = TensorAccessorArgs<dram_args.next_compile_time_args_offset()>();
    const auto l1 = TensorAccessor(l1_args, l1_addr, tile_bytes);

    cb_reserve_back(cb_scratch, 2);
    const uint32_t scratch = get_write_ptr(cb_scratch);
    noc_async_read_tile(dram_pages - 1, dram, scratch);
    noc_async_read_tile(l1_pages - 1, l1, scratch);
    noc_async_read_barrier();

    // Page p of an L1 buffer lives on L1 bank p, the worker at logical (p % grid_x, p / grid_x).
    const uint64_t l1_past_end = get_noc_addr_from_bank_id<false>(l1_pages, l1_addr);
#if defined(BOUNDS_ACCESSOR_PAGE_COUNT)
    noc_async_read_tile(dram_pages, dram, scratch);  // misuse:ACCESSOR_PAGE_COUNT
#elif defined(BOUNDS_ADDRGEN_PAGE_COUNT)
    const InterleavedAddrGenFast<true> gen = {
        .bank_base_address = dram_addr, .page_size = tile_bytes, .data_format = DataFormat::Float16_b};
    noc_async_read_tile(dram_pages, gen, scratch);  // misuse:ADDRGEN_PAGE_COUNT
#elif defined(BOUNDS_ACCESSOR_PAGE_SIZE)
    const auto half_tiles = TensorAccessor(dram_args, dram_addr, tile_bytes / 2);
    noc_async_read_tile(0, half_tiles, scratch);  // misuse:ACCESSOR_PAGE_SIZE
#elif defined(BOUNDS_DRAM_PADDING)
    // The slot page dram_pages would have in its bank's last row: padding, not a page of the tensor.
    const uint64_t padding =
        get_noc_addr_from_bank_id<true>(dram_pages % dram_banks, dram_addr + dram_pages / dram_banks * tile_bytes);
    noc_async_read(padding, scratch, tile_bytes);  // misuse:DRAM_PADDING
#elif defined(BOUNDS_DRAM_NEIGHBOUR)
    // Two tiles from the last page's address: the second lies in the next buffer of that bank.
    noc_async_read(get_noc_addr(dram_pages - 1, dram), scratch, 2 * tile_bytes);  // misuse:DRAM_NEIGHBOUR
#elif defined(BOUNDS_L1_ACCESSOR)
    noc_async_read_tile(l1_pages, l1, scratch);  // misuse:L1_ACCESSOR
#elif defined(BOUNDS_L1_WRITE)
    noc_async_write(scratch, l1_past_end, tile_bytes);  // misuse:L1_WRITE
#elif defined(BOUNDS_L1_MULTICAST)
    // Row 0 from this core (0,0) to the bank of page l1_pages, without the sender.
    const uint64_t row = get_noc_multicast_addr(my_x[0], my_y[0], my_x[0] + l1_pages, my_y[0], l1_addr);
    noc_async_write_multicast(scratch, row, tile_bytes, l1_pages);  // misuse:L1_MULTICAST
#elif defined(BOUNDS_L1_SEMAPHORE_INC)
    noc_semaphore_inc(l1_past_end, 1);  // misuse:L1_SEMAPHORE_INC
#endif
    noc_async_write_barrier();
}
