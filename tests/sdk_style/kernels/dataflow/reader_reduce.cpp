// Makes the scaler tile (every element 1.0 in bf16) in c_2, then reads num_groups groups of group_size
// input tiles into c_0: tile first_tile + g * group_stride + i * tile_stride is tile i of group g.
// Compile-time args: TensorAccessorArgs of the input.
// Runtime args: input address, first_tile, num_groups, group_size, group_stride, tile_stride.
#include <cstdint>

void kernel_main() {
    const uint32_t src_addr = get_arg_val<uint32_t>(0);
    const uint32_t first_tile = get_arg_val<uint32_t>(1);
    const uint32_t num_groups = get_arg_val<uint32_t>(2);
    const uint32_t group_size = get_arg_val<uint32_t>(3);
    const uint32_t group_stride = get_arg_val<uint32_t>(4);
    const uint32_t tile_stride = get_arg_val<uint32_t>(5);
    constexpr uint32_t cb_in = tt::CBIndex::c_0;
    constexpr uint32_t cb_scaler = tt::CBIndex::c_2;
    constexpr uint16_t bf16_one = 0x3F80;

    // The scaler tile is written in place in L1.
    cb_reserve_back(cb_scaler, 1);
    volatile tt_l1_ptr uint16_t* scaler = reinterpret_cast<volatile tt_l1_ptr uint16_t*>(get_write_ptr(cb_scaler));
    for (uint32_t i = 0; i < 32 * 32; ++i) {
        scaler[i] = bf16_one;
    }
    cb_push_back(cb_scaler, 1);

    constexpr auto src_args = TensorAccessorArgs<0>();
    const auto src = TensorAccessor(src_args, src_addr, get_tile_size(cb_in));
    for (uint32_t g = 0; g < num_groups; ++g) {
        for (uint32_t i = 0; i < group_size; ++i) {
            const uint32_t tile = first_tile + g * group_stride + i * tile_stride;
            cb_reserve_back(cb_in, 1);
            noc_async_read_tile(tile, src, get_write_ptr(cb_in));
            noc_async_read_barrier();
            cb_push_back(cb_in, 1);
        }
    }
}
