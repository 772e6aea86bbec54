// Pushes one page of CB 0 for dprint_split_line.cpp on the same core.
#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    cb_reserve_back(0, 1);
    cb_push_back(0, 1);
}
