// out = BINARY_OP(a, b) tile by tile (BINARY_OP / BINARY_INIT are host defines, e.g. add_tiles /
// add_tiles_init), written in the legacy `namespace NAMESPACE { void MAIN }` form.
// Compile-time args: num_tiles.
#include <cstdint>

#include "compute_kernel_api/eltwise_binary.h"

namespace NAMESPACE {
void MAIN {
    constexpr uint32_t num_tiles = get_compile_time_arg_val(0);
    constexpr auto cb_a = tt::CBIndex::c_0;
    constexpr auto cb_b = tt::CBIndex::c_1;
    constexpr auto cb_out = tt::CBIndex::c_16;

    binary_op_init_common(cb_a, cb_b, cb_out);
    BINARY_INIT(cb_a, cb_b);
    for (uint32_t t = 0; t < num_tiles; t++) {
        cb_wait_front(cb_a, 1);
        cb_wait_front(cb_b, 1);
        tile_regs_acquire();
        BINARY_OP(cb_a, cb_b, 0, 0, 0);
        tile_regs_commit();
        cb_pop_front(cb_a, 1);
        cb_pop_front(cb_b, 1);

        tile_regs_wait();
        cb_reserve_back(cb_out, 1);
        pack_tile(0, cb_out);
        cb_push_back(cb_out, 1);
        tile_regs_release();
    }
}
}  // namespace NAMESPACE
