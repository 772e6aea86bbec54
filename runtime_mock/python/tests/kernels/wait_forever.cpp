// Waits for a page of c_0 that nobody produces: the device must report a deadlock.
#include <cstdint>

void kernel_main() {
    cb_wait_front(0, 1);
}
