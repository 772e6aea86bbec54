// Writes num_tiles tiles from CB `cb_out` (compile-time arg 0) to an interleaved DRAM tensor.
// Compile-time args: cb_out, then TensorAccessorArgs of the destination. Runtime args: dst address, num_tiles.
#include <cstdint>

void kernel_main() {
    uint32_t dst_addr = get_arg_val<uint32_t>(0);
    uint32_t num_tiles = get_arg_val<uint32_t>(1);

    constexpr uint32_t cb_out = get_compile_time_arg_val(0);
    const uint32_t tile_bytes = get_tile_size(cb_out);
    constexpr auto dst_args = TensorAccessorArgs<1>();
    const auto dst = TensorAccessor(dst_args, dst_addr, tile_bytes);

    for (uint32_t t = 0; t < num_tiles; t++) {
        cb_wait_front(cb_out, 1);
        noc_async_write_tile(t, dst, get_read_ptr(cb_out));
        noc_async_write_barrier();
        cb_pop_front(cb_out, 1);
    }
}
