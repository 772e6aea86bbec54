// A compute kernel that misuses DST in the way its MISUSE_* define selects (see misuse_dataflow.cpp).
#include <cstdint>

#include "compute_kernel_api.h"

void kernel_main() {
    constexpr auto cb_out = tt::CBIndex::c_16;
    tile_regs_acquire();
#if defined(MISUSE_DST_OVER_CAPACITY)
    fill_tile(8, 1.0f);  // misuse:DST_OVER_CAPACITY
#elif defined(MISUSE_PACK_OUTSIDE_WAIT)
    fill_tile(0, 1.0f);
    cb_reserve_back(cb_out, 1);
    pack_tile(0, cb_out);  // misuse:PACK_OUTSIDE_WAIT
#elif defined(MISUSE_MATH_AFTER_COMMIT)
    tile_regs_commit();
    fill_tile(0, 1.0f);  // misuse:MATH_AFTER_COMMIT
#elif defined(MISUSE_DST_NOT_RELEASED)
    return;
#endif
    tile_regs_commit();
    tile_regs_wait();
    tile_regs_release();
}
