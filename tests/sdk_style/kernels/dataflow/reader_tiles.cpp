// Reads tiles [start_tile, start_tile + num_tiles) of NUM_INPUTS interleaved DRAM tensors, one tile of
// each per step, into CBs c_0, c_1, ...
// Compile-time args: the number of inputs, then one TensorAccessorArgs per input.
// Runtime args: the address of each input, then start_tile, num_tiles.
#include <cstdint>

template <uint32_t index>
void read_tile(uint32_t tile) {
    constexpr auto args = TensorAccessorArgs<1 + index>();
    const auto tensor = TensorAccessor(args, get_arg_val<uint32_t>(index), get_tile_size(index));
    cb_reserve_back(index, 1);
    noc_async_read_tile(tile, tensor, get_write_ptr(index));
    noc_async_read_barrier();
    cb_push_back(index, 1);
}

void kernel_main() {
    constexpr uint32_t num_inputs = get_compile_time_arg_val(0);
    static_assert(num_inputs >= 1 && num_inputs <= 3, "reader_tiles reads one to three tensors");
    const uint32_t start_tile = get_arg_val<uint32_t>(num_inputs);
    const uint32_t num_tiles = get_arg_val<uint32_t>(num_inputs + 1);

    for (uint32_t t = start_tile; t < start_tile + num_tiles; ++t) {
        read_tile<0>(t);
        if constexpr (num_inputs >= 2) {
            read_tile<1>(t);
        }
        if constexpr (num_inputs == 3) {
            read_tile<2>(t);
        }
    }
}
