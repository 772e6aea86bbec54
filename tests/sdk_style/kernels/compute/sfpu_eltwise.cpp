// c_16 = f(c_0, c_1, ...), tile by tile, f chosen by the runtime arg op among the host define SFPU_OP_CASES,
// `case k: SFPU_OP_INIT SFPU_OP break;` per function k (e.g. `case 0: exp_tile_init(); exp_tile(0); break;`):
// each reads DST[0..num_inputs) and leaves its result in DST[0].
// Compile-time arg: num_inputs (CBs c_0 ... c_{num_inputs - 1}). Runtime args: num_tiles, op.
#include <cstdint>

#include "compute_kernel_api.h"
#include "compute_kernel_api/bcast.h"
#include "compute_kernel_api/binary_max_min.h"
#include "compute_kernel_api/eltwise_binary_sfpu.h"
#include "compute_kernel_api/eltwise_unary/binop_with_scalar.h"
#include "compute_kernel_api/eltwise_unary/comp.h"
#include "compute_kernel_api/eltwise_unary/eltwise_unary.h"
#include "compute_kernel_api/eltwise_unary/exp.h"
#include "compute_kernel_api/eltwise_unary/fill.h"
#include "compute_kernel_api/eltwise_unary/gelu.h"
#include "compute_kernel_api/eltwise_unary/negative.h"
#include "compute_kernel_api/eltwise_unary/recip.h"
#include "compute_kernel_api/eltwise_unary/relu.h"
#include "compute_kernel_api/eltwise_unary/rsqrt.h"
#include "compute_kernel_api/eltwise_unary/sqrt.h"
#include "compute_kernel_api/eltwise_unary/where.h"
#include "compute_kernel_api/tile_move_copy.h"

void kernel_main() {
    const uint32_t num_tiles = get_arg_val<uint32_t>(0);
    const uint32_t op = get_arg_val<uint32_t>(1);
    constexpr uint32_t num_inputs = get_compile_time_arg_val(0);
    constexpr auto cb_out = tt::CBIndex::c_16;

    init_sfpu(tt::CBIndex::c_0, cb_out);
    for (uint32_t t = 0; t < num_tiles; ++t) {
        // Math: DST[i] = the tile of input i, then f.
        tile_regs_acquire();
        for (uint32_t i = 0; i < num_inputs; ++i) {
            cb_wait_front(i, 1);
            copy_tile_init(i);
            copy_tile(i, 0, i);
        }
        switch (op) { SFPU_OP_CASES }
        tile_regs_commit();
        for (uint32_t i = 0; i < num_inputs; ++i) {
            cb_pop_front(i, 1);
        }

        // Pack: DST[0] -> c_16.
        cb_reserve_back(cb_out, 1);
        tile_regs_wait();
        pack_tile(0, cb_out);
        tile_regs_release();
        cb_push_back(cb_out, 1);
    }
}
