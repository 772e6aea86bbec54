// Block-reuse matmul writer: writes this core's output block, subblock by subblock (the order the
// compute kernel packs them), to C at tile (m0, n0).
// Compile-time args: TensorAccessorArgs of C.
// Runtime args: C address, Nt, m0, n0, in0_num_subblocks, in1_num_subblocks, subblock_h, subblock_w.
#include <cstdint>

void kernel_main() {
    const uint32_t c_addr = get_arg_val<uint32_t>(0);
    const uint32_t Nt = get_arg_val<uint32_t>(1);
    const uint32_t m0 = get_arg_val<uint32_t>(2);
    const uint32_t n0 = get_arg_val<uint32_t>(3);
    const uint32_t in0_num_subblocks = get_arg_val<uint32_t>(4);
    const uint32_t in1_num_subblocks = get_arg_val<uint32_t>(5);
    const uint32_t subblock_h = get_arg_val<uint32_t>(6);
    const uint32_t subblock_w = get_arg_val<uint32_t>(7);
    constexpr uint32_t cb_out = tt::CBIndex::c_16;
    const uint32_t tile_bytes = get_tile_size(cb_out);

    constexpr auto c_args = TensorAccessorArgs<0>();
    const auto c = TensorAccessor(c_args, c_addr, tile_bytes);

    for (uint32_t sh = 0; sh < in0_num_subblocks; ++sh) {
        for (uint32_t sw = 0; sw < in1_num_subblocks; ++sw) {
            cb_wait_front(cb_out, subblock_h * subblock_w);
            uint32_t l1_addr = get_read_ptr(cb_out);
            for (uint32_t h = 0; h < subblock_h; ++h) {
                for (uint32_t w = 0; w < subblock_w; ++w) {
                    const uint32_t mt = m0 + sh * subblock_h + h;
                    const uint32_t nt = n0 + sw * subblock_w + w;
                    noc_async_write_tile(mt * Nt + nt, c, l1_addr);
                    l1_addr += tile_bytes;
                }
            }
            noc_async_write_barrier();
            cb_pop_front(cb_out, subblock_h * subblock_w);
        }
    }
}
