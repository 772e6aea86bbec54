// Reads whole interleaved DRAM tensors into c_0, c_1, ... in order, each as one block (one reserve/push).
// Compile-time args: TensorAccessorArgs shared by every tensor. Runtime args: number of tensors, then
// address and tiles of each.
#include <cstdint>

void kernel_main() {
    uint32_t num_tensors = get_arg_val<uint32_t>(0);
    constexpr auto args = TensorAccessorArgs<0>();

    for (uint32_t i = 0; i < num_tensors; i++) {
        uint32_t addr = get_arg_val<uint32_t>(1 + 2 * i);
        uint32_t tiles = get_arg_val<uint32_t>(2 + 2 * i);
        uint32_t cb = tt::CBIndex::c_0 + i;
        const auto tensor = TensorAccessor(args, addr, get_tile_size(cb));

        cb_reserve_back(cb, tiles);
        for (uint32_t t = 0; t < tiles; t++)
            noc_async_read_tile(t, tensor, get_write_ptr(cb) + t * get_tile_size(cb));
        noc_async_read_barrier();
        cb_push_back(cb, tiles);
    }
}
