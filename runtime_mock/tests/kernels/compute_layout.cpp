// Layout conversion of `rows` stripes of `width` tiles from c_0 to c_16: tilize_block when compile-time
// arg 2 is 0 (row-major stripes in, tiles out), untilize_block otherwise (tiles in, row-major stripes out).
// Compile-time args: rows, width, untilize.
#include <cstdint>

#include "compute_kernel_api/tilize.h"
#include "compute_kernel_api/untilize.h"

void kernel_main() {
    constexpr uint32_t rows = get_compile_time_arg_val(0);
    constexpr uint32_t width = get_compile_time_arg_val(1);
    constexpr bool untilize = get_compile_time_arg_val(2) != 0;
    constexpr auto cb_in = tt::CBIndex::c_0;
    constexpr auto cb_out = tt::CBIndex::c_16;

    if (untilize) {
        untilize_init(cb_in);
    } else {
        tilize_init(cb_in, width, cb_out);
    }
    for (uint32_t r = 0; r < rows; r++) {
        cb_wait_front(cb_in, width);
        cb_reserve_back(cb_out, width);
        if (untilize) {
            untilize_block(cb_in, width, cb_out);
        } else {
            tilize_block(cb_in, width, cb_out);
        }
        cb_push_back(cb_out, width);
        cb_pop_front(cb_in, width);
    }
    if (untilize) {
        untilize_uninit(cb_in);
    } else {
        tilize_uninit(cb_in, cb_out);
    }
}
