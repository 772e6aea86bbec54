// Reads num_tiles tiles of an interleaved DRAM tensor into CB c_0, one tile at a time.
// Compile-time args: TensorAccessorArgs of the source. Runtime args: src address, num_tiles.
#include <cstdint>

void kernel_main() {
    uint32_t src_addr = get_arg_val<uint32_t>(0);
    uint32_t num_tiles = get_arg_val<uint32_t>(1);

    constexpr uint32_t cb_in = tt::CBIndex::c_0;
    const uint32_t tile_bytes = get_tile_size(cb_in);
    constexpr auto src_args = TensorAccessorArgs<0>();
    const auto src = TensorAccessor(src_args, src_addr, tile_bytes);

    for (uint32_t t = 0; t < num_tiles; t++) {
        cb_reserve_back(cb_in, 1);
        noc_async_read_tile(t, src, get_write_ptr(cb_in));
        noc_async_read_barrier();
        cb_push_back(cb_in, 1);
    }
}
