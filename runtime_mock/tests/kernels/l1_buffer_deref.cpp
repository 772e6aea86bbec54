// Runs on core (0,0), which holds bank 0 of an interleaved L1 buffer: like the SDK's
// add_2_integers_in_riscv it dereferences the buffer's address, and turns every word w of page 0 into
// 2 * w + 1 in place. Runtime args: L1 buffer address, words per page.
#include <cstdint>

void kernel_main() {
    uint32_t buffer_addr = get_arg_val<uint32_t>(0);
    uint32_t num_words = get_arg_val<uint32_t>(1);

    uint32_t* page0 = (uint32_t*)buffer_addr;
    for (uint32_t i = 0; i < num_words; i++) {
        page0[i] = page0[i] * 2 + 1;
    }
}
