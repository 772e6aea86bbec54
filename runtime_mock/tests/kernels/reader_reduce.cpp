// Reads the scaler tile into c_2 once, then num_tiles input tiles into c_0.
// Compile-time args: TensorAccessorArgs of the input, then of the scaler.
// Runtime args: input address, scaler address, num_tiles.
#include <cstdint>

void kernel_main() {
    uint32_t in_addr = get_arg_val<uint32_t>(0);
    uint32_t scaler_addr = get_arg_val<uint32_t>(1);
    uint32_t num_tiles = get_arg_val<uint32_t>(2);

    constexpr uint32_t cb_in = tt::CBIndex::c_0;
    constexpr uint32_t cb_scaler = tt::CBIndex::c_2;
    constexpr auto in_args = TensorAccessorArgs<0>();
    const auto in = TensorAccessor(in_args, in_addr, get_tile_size(cb_in));
    constexpr auto scaler_args = TensorAccessorArgs<in_args.next_compile_time_args_offset()>();
    const auto scaler = TensorAccessor(scaler_args, scaler_addr, get_tile_size(cb_scaler));

    cb_reserve_back(cb_scaler, 1);
    noc_async_read_tile(0, scaler, get_write_ptr(cb_scaler));
    noc_async_read_barrier();
    cb_push_back(cb_scaler, 1);

    for (uint32_t t = 0; t < num_tiles; t++) {
        cb_reserve_back(cb_in, 1);
        noc_async_read_tile(t, in, get_write_ptr(cb_in));
        noc_async_read_barrier();
        cb_push_back(cb_in, 1);
    }
}
