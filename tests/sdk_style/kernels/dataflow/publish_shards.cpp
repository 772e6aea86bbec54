// Hands this core's shards of two sharded inputs to compute and shows which pages the core holds. CBs c_0
// and c_1 are globally allocated on the inputs' buffers, so the host's pages are already in them: reserving
// and pushing them makes them visible to compute. Before that, the shard of input a is copied to pages
// [slot * num_pages, slot * num_pages + num_pages) of a DRAM tensor. Compile-time args: TensorAccessorArgs
// of that tensor. Runtime args: its address, slot, num_pages (the shard's pages).
#include <cstdint>

void kernel_main() {
    const uint32_t placement_addr = get_arg_val<uint32_t>(0);
    const uint32_t slot = get_arg_val<uint32_t>(1);
    const uint32_t num_pages = get_arg_val<uint32_t>(2);
    constexpr uint32_t cb_a = tt::CBIndex::c_0;
    constexpr uint32_t cb_b = tt::CBIndex::c_1;

    constexpr auto placement_args = TensorAccessorArgs<0>();
    const uint32_t page_bytes = get_tile_size(cb_a);
    const auto placement = TensorAccessor(placement_args, placement_addr, page_bytes);

    cb_reserve_back(cb_a, num_pages);
    cb_reserve_back(cb_b, num_pages);
    const uint32_t shard = get_write_ptr(cb_a);
    for (uint32_t p = 0; p < num_pages; ++p) {
        noc_async_write_tile(slot * num_pages + p, placement, shard + p * page_bytes);
    }
    noc_async_write_barrier();
    cb_push_back(cb_a, num_pages);
    cb_push_back(cb_b, num_pages);
}
