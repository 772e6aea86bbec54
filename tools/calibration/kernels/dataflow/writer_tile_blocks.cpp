// Writes num_blocks blocks of block_tiles tiles from CB c_16 to the output: block b to tiles
// b * block_stride .. b * block_stride + block_tiles - 1 (block_stride 0: every block overwrites the
// first, as when a benchmark recomputes the same result).
// Compile-time args: TensorAccessorArgs of the output.
// Runtime args: output address, num_blocks, block_tiles, block_stride.
#include <cstdint>

void kernel_main() {
    const uint32_t out_addr = get_arg_val<uint32_t>(0);
    const uint32_t num_blocks = get_arg_val<uint32_t>(1);
    const uint32_t block_tiles = get_arg_val<uint32_t>(2);
    const uint32_t block_stride = get_arg_val<uint32_t>(3);
    constexpr uint32_t cb_out = tt::CBIndex::c_16;
    const uint32_t tile_bytes = get_tile_size(cb_out);

    constexpr auto out_args = TensorAccessorArgs<0>();
    const auto out = TensorAccessor(out_args, out_addr, tile_bytes);

    for (uint32_t b = 0; b < num_blocks; ++b) {
        cb_wait_front(cb_out, block_tiles);
        uint32_t l1_addr = get_read_ptr(cb_out);
        for (uint32_t t = 0; t < block_tiles; ++t) {
            noc_async_write_tile(b * block_stride + t, out, l1_addr);
            l1_addr += tile_bytes;
        }
        noc_async_write_barrier();
        cb_pop_front(cb_out, block_tiles);
    }
}
