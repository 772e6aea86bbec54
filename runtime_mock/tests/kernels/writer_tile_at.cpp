// Writes the single tile of c_0 to page `tile_index` of an interleaved DRAM tensor.
// Runtime args: dst address, tile_index. Compile-time args: TensorAccessorArgs of dst.
#include <cstdint>

void kernel_main() {
    uint32_t dst_addr = get_arg_val<uint32_t>(0);
    uint32_t tile_index = get_arg_val<uint32_t>(1);
    constexpr uint32_t cb = tt::CBIndex::c_0;
    constexpr auto dst_args = TensorAccessorArgs<0>();
    const auto dst = TensorAccessor(dst_args, dst_addr, get_tile_size(cb));
    cb_wait_front(cb, 1);
    noc_async_write_page(tile_index, dst, get_read_ptr(cb));
    noc_async_writes_flushed();
    cb_pop_front(cb, 1);
    DPRINT << "wrote tile " << tile_index << " at " << SETW(3) << HEX() << 255 << DEC() << ENDL();
}
