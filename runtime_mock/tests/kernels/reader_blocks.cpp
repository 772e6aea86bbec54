// Reads all tiles of A into c_0, then all tiles of B into c_1, each as one block (one reserve/push).
// Compile-time args: TensorAccessorArgs of A, then of B. Runtime args: A address, A tiles, B address, B tiles.
#include <cstdint>

void kernel_main() {
    uint32_t a_addr = get_arg_val<uint32_t>(0);
    uint32_t a_tiles = get_arg_val<uint32_t>(1);
    uint32_t b_addr = get_arg_val<uint32_t>(2);
    uint32_t b_tiles = get_arg_val<uint32_t>(3);

    constexpr uint32_t cb_a = tt::CBIndex::c_0;
    constexpr uint32_t cb_b = tt::CBIndex::c_1;
    constexpr auto a_args = TensorAccessorArgs<0>();
    const auto a = TensorAccessor(a_args, a_addr, get_tile_size(cb_a));
    constexpr auto b_args = TensorAccessorArgs<a_args.next_compile_time_args_offset()>();
    const auto b = TensorAccessor(b_args, b_addr, get_tile_size(cb_b));

    cb_reserve_back(cb_a, a_tiles);
    for (uint32_t t = 0; t < a_tiles; t++)
        noc_async_read_tile(t, a, get_write_ptr(cb_a) + t * get_tile_size(cb_a));
    cb_reserve_back(cb_b, b_tiles);
    for (uint32_t t = 0; t < b_tiles; t++)
        noc_async_read_tile(t, b, get_write_ptr(cb_b) + t * get_tile_size(cb_b));
    noc_async_read_barrier();
    cb_push_back(cb_a, a_tiles);
    cb_push_back(cb_b, b_tiles);
}
