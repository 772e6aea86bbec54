// Copies a tensor page by page through TensorAccessors: page p of `src` (sharded L1) to page p of `mid`
// (interleaved DRAM), then page p of `mid` back to page p of `dst` (sharded like `src`), one page at a time
// through a CB page used as scratch. Compile-time args: the TensorAccessorArgs of src, mid and dst. Runtime
// args: their addresses and the number of pages to copy.
#include <cstdint>

void kernel_main() {
    const uint32_t src_addr = get_arg_val<uint32_t>(0);
    const uint32_t mid_addr = get_arg_val<uint32_t>(1);
    const uint32_t dst_addr = get_arg_val<uint32_t>(2);
    const uint32_t num_pages = get_arg_val<uint32_t>(3);
    constexpr uint32_t cb_scratch = tt::CBIndex::c_0;
    const uint32_t page_bytes = get_tile_size(cb_scratch);

    constexpr auto src_args = TensorAccessorArgs<0>();
    constexpr auto mid_args = TensorAccessorArgs<src_args.next_compile_time_args_offset()>();
    constexpr auto dst_args = TensorAccessorArgs<mid_args.next_compile_time_args_offset()>();
    const auto src = TensorAccessor(src_args, src_addr, page_bytes);
    const auto mid = TensorAccessor(mid_args, mid_addr, page_bytes);
    const auto dst = TensorAccessor(dst_args, dst_addr, page_bytes);

    cb_reserve_back(cb_scratch, 1);
    const uint32_t scratch = get_write_ptr(cb_scratch);
    for (uint32_t p = 0; p < num_pages; ++p) {
        noc_async_read_tile(p, src, scratch);
        noc_async_read_barrier();
        noc_async_write_tile(p, mid, scratch);
        noc_async_write_barrier();
    }
    for (uint32_t p = 0; p < num_pages; ++p) {
        noc_async_read_tile(p, mid, scratch);
        noc_async_read_barrier();
        noc_async_write_tile(p, dst, scratch);
        noc_async_write_barrier();
    }
}
