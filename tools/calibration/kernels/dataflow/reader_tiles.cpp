// Reads whole tensors of tiles into CBs, one tile per push: all of input 0 into c_0, then all of input 1
// into c_1, and so on.
// Compile-time args: the number of inputs, then TensorAccessorArgs of each input.
// Runtime args: for each input, its address and its number of tiles.
#include <cstdint>

// Reads input `input` and those after it; its TensorAccessorArgs start at compile-time arg args_offset.
template <uint32_t input, uint32_t num_inputs, uint32_t args_offset>
void read_inputs() {
    if constexpr (input < num_inputs) {
        constexpr auto accessor_args = TensorAccessorArgs<args_offset>();
        constexpr uint32_t cb = tt::CBIndex::c_0 + input;
        const uint32_t tile_bytes = get_tile_size(cb);
        const auto tensor = TensorAccessor(accessor_args, get_arg_val<uint32_t>(2 * input), tile_bytes);
        const uint32_t num_tiles = get_arg_val<uint32_t>(2 * input + 1);
        for (uint32_t t = 0; t < num_tiles; ++t) {
            cb_reserve_back(cb, 1);
            noc_async_read_tile(t, tensor, get_write_ptr(cb));
            noc_async_read_barrier();
            cb_push_back(cb, 1);
        }
        read_inputs<input + 1, num_inputs, accessor_args.next_compile_time_args_offset()>();
    }
}

void kernel_main() {
    constexpr uint32_t num_inputs = get_compile_time_arg_val(0);
    read_inputs<0, num_inputs, 1>();
}
