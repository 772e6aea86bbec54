// Pushes a page of circular buffer c_0 that nothing fills (the mistake), then unpacks it into DST and packs
// it to c_16: under RUNTIME_MOCK_L1_FILL=poison the unpack reads L1 that nothing wrote in this program.
#include <cstdint>

#include "compute_kernel_api.h"

void kernel_main() {
    constexpr auto cb_in = tt::CBIndex::c_0;
    constexpr auto cb_out = tt::CBIndex::c_16;
    init_sfpu(cb_in, cb_out);
    cb_reserve_back(cb_in, 1);
    cb_push_back(cb_in, 1);  // nothing was written into the page
    cb_wait_front(cb_in, 1);
    tile_regs_acquire();
    copy_tile(cb_in, 0, 0);
    tile_regs_commit();
    tile_regs_wait();
    cb_reserve_back(cb_out, 1);
    pack_tile(0, cb_out);
    tile_regs_release();
    cb_push_back(cb_out, 1);
    cb_pop_front(cb_in, 1);
}
