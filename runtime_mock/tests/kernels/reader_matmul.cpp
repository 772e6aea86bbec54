// Reads the A and B tiles for C = A @ B in the order the compute kernel consumes them: for every output
// tile (mt, nt) and every kt, tile A[mt][kt] into c_0 and tile B[kt][nt] into c_1.
// Compile-time args: TensorAccessorArgs of A, then of B. Runtime args: A address, B address, Mt, Kt, Nt.
#include <cstdint>

void kernel_main() {
    uint32_t a_addr = get_arg_val<uint32_t>(0);
    uint32_t b_addr = get_arg_val<uint32_t>(1);
    uint32_t Mt = get_arg_val<uint32_t>(2);
    uint32_t Kt = get_arg_val<uint32_t>(3);
    uint32_t Nt = get_arg_val<uint32_t>(4);

    constexpr uint32_t cb_a = tt::CBIndex::c_0;
    constexpr uint32_t cb_b = tt::CBIndex::c_1;
    constexpr auto a_args = TensorAccessorArgs<0>();
    const auto a = TensorAccessor(a_args, a_addr, get_tile_size(cb_a));
    constexpr auto b_args = TensorAccessorArgs<a_args.next_compile_time_args_offset()>();
    const auto b = TensorAccessor(b_args, b_addr, get_tile_size(cb_b));

    for (uint32_t mt = 0; mt < Mt; mt++) {
        for (uint32_t nt = 0; nt < Nt; nt++) {
            for (uint32_t kt = 0; kt < Kt; kt++) {
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
}
