// For each output tile t in [start_tile, start_tile + num_tiles) of C = A x B (row-major tile order,
// mt = t / Nt, nt = t % Nt), reads the tiles A[mt, kt] and B[kt, nt] for kt = 0..Kt-1 into c_0 and c_1.
// Compile-time args: TensorAccessorArgs of A, then of B.
// Runtime args: A address, B address, Kt, Nt, start_tile, num_tiles.
#include <cstdint>

void kernel_main() {
    const uint32_t a_addr = get_arg_val<uint32_t>(0);
    const uint32_t b_addr = get_arg_val<uint32_t>(1);
    const uint32_t Kt = get_arg_val<uint32_t>(2);
    const uint32_t Nt = get_arg_val<uint32_t>(3);
    const uint32_t start_tile = get_arg_val<uint32_t>(4);
    const uint32_t num_tiles = get_arg_val<uint32_t>(5);
    constexpr uint32_t cb_a = tt::CBIndex::c_0;
    constexpr uint32_t cb_b = tt::CBIndex::c_1;

    constexpr auto a_args = TensorAccessorArgs<0>();
    const auto a = TensorAccessor(a_args, a_addr, get_tile_size(cb_a));
    constexpr auto b_args = TensorAccessorArgs<a_args.next_compile_time_args_offset()>();
    const auto b = TensorAccessor(b_args, b_addr, get_tile_size(cb_b));

    for (uint32_t t = start_tile; t < start_tile + num_tiles; ++t) {
        const uint32_t mt = t / Nt;
        const uint32_t nt = t % Nt;
        for (uint32_t kt = 0; kt < Kt; ++kt) {
            cb_reserve_back(cb_a, 1);
            noc_async_read_tile(mt * Kt + kt, a, get_write_ptr(cb_a));
            cb_reserve_back(cb_b, 1);
            noc_async_read_tile(kt * Nt + nt, b, get_write_ptr(cb_b));
            noc_async_read_barrier();
            cb_push_back(cb_a, 1);
            cb_push_back(cb_b, 1);
        }
    }
}
