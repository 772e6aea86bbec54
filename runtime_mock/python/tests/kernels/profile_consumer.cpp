// Timing-model test: drains circular buffer c_0 one page at a time, each page in a profiler zone
// "consume". Runtime args: pages.
#include <cstdint>

#include "tools/profiler/kernel_profiler.hpp"

void kernel_main() {
    const uint32_t num_pages = get_arg_val<uint32_t>(0);
    for (uint32_t page = 0; page < num_pages; ++page) {
        DeviceZoneScopedN("consume");
        cb_wait_front(0, 1);
        cb_pop_front(0, 1);
    }
}
