// Block-reuse matmul reader: this core computes the output block of per_core_M x per_core_N tiles at
// tile (m0, n0). For each of the num_blocks steps along K it reads the A block (per_core_M x
// in0_block_w tiles, row-major) into c_0 and the B block (in0_block_w x per_core_N tiles, row-major)
// into c_1, so each input tile read from DRAM is used per_core_N (A) or per_core_M (B) times.
// Compile-time args: TensorAccessorArgs of A, then of B.
// Runtime args: A address, B address, Kt, Nt, m0, n0, per_core_M, per_core_N, in0_block_w, num_blocks.
#include <cstdint>

void kernel_main() {
    const uint32_t a_addr = get_arg_val<uint32_t>(0);
    const uint32_t b_addr = get_arg_val<uint32_t>(1);
    const uint32_t Kt = get_arg_val<uint32_t>(2);
    const uint32_t Nt = get_arg_val<uint32_t>(3);
    const uint32_t m0 = get_arg_val<uint32_t>(4);
    const uint32_t n0 = get_arg_val<uint32_t>(5);
    const uint32_t per_core_M = get_arg_val<uint32_t>(6);
    const uint32_t per_core_N = get_arg_val<uint32_t>(7);
    const uint32_t in0_block_w = get_arg_val<uint32_t>(8);
    const uint32_t num_blocks = get_arg_val<uint32_t>(9);
    constexpr uint32_t cb_a = tt::CBIndex::c_0;
    constexpr uint32_t cb_b = tt::CBIndex::c_1;
    const uint32_t tile_bytes = get_tile_size(cb_a);

    constexpr auto a_args = TensorAccessorArgs<0>();
    const auto a = TensorAccessor(a_args, a_addr, tile_bytes);
    constexpr auto b_args = TensorAccessorArgs<a_args.next_compile_time_args_offset()>();
    const auto b = TensorAccessor(b_args, b_addr, tile_bytes);

    for (uint32_t block = 0; block < num_blocks; ++block) {
        const uint32_t k0 = block * in0_block_w;
        // A block: tiles A[m0 + m, k0 + k], row-major in the CB.
        cb_reserve_back(cb_a, per_core_M * in0_block_w);
        uint32_t l1_addr = get_write_ptr(cb_a);
        for (uint32_t m = 0; m < per_core_M; ++m) {
            for (uint32_t k = 0; k < in0_block_w; ++k) {
                noc_async_read_tile((m0 + m) * Kt + k0 + k, a, l1_addr);
                l1_addr += tile_bytes;
            }
        }
        // B block: tiles B[k0 + k, n0 + n], row-major in the CB.
        cb_reserve_back(cb_b, in0_block_w * per_core_N);
        l1_addr = get_write_ptr(cb_b);
        for (uint32_t k = 0; k < in0_block_w; ++k) {
            for (uint32_t n = 0; n < per_core_N; ++n) {
                noc_async_read_tile((k0 + k) * Nt + n0 + n, b, l1_addr);
                l1_addr += tile_bytes;
            }
        }
        noc_async_read_barrier();
        cb_push_back(cb_a, per_core_M * in0_block_w);
        cb_push_back(cb_b, in0_block_w * per_core_N);
    }
}
