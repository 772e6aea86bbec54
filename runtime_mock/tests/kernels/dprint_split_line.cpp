// Prints one line in two halves with a CB wait between them, in hex after HEX(): the wait lets the kernels of
// other cores (the same kernel, on the same host thread) print their own halves meanwhile.
// Runtime arg 0: this core's number, printed in both halves.
#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t core = get_arg_val<uint32_t>(0);
    DPRINT << "core " << core << " starts, " << HEX() << 255u;
    cb_wait_front(0, 1);  // pushed by dprint_push_page.cpp on this core
    DPRINT << " then " << 255u << " ends core " << DEC() << core << ENDL();
    cb_pop_front(0, 1);
}
