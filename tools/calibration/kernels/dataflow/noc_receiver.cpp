// NOC write bandwidth receiver: waits until the sender sets this core's semaphore to VALID, then writes the
// block the sender put in its CB c_0 to page `result_page` of the result buffer for the host to check.
// Compile-time args: TensorAccessorArgs of the result buffer.
// Runtime args: result address, transfer_bytes, result_page, semaphore id.
#include <cstdint>

#include "hostdevcommon/common_values.hpp"

void kernel_main() {
    const uint32_t result_addr = get_arg_val<uint32_t>(0);
    const uint32_t transfer_bytes = get_arg_val<uint32_t>(1);
    const uint32_t result_page = get_arg_val<uint32_t>(2);
    volatile tt_l1_ptr uint32_t* semaphore =
        reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_semaphore(get_arg_val<uint32_t>(3)));
    constexpr uint32_t cb_block = tt::CBIndex::c_0;

    constexpr auto result_args = TensorAccessorArgs<0>();
    const auto result = TensorAccessor(result_args, result_addr, transfer_bytes);

    noc_semaphore_wait(semaphore, VALID);
    noc_async_write_page(result_page, result, get_write_ptr(cb_block));
    noc_async_write_barrier();
}
