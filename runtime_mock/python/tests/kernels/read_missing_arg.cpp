// Reads runtime arg 3 when the host sets fewer: the device must report an argument error.
#include <cstdint>

void kernel_main() {
    (void)get_arg_val<uint32_t>(3);
}
