// Set-up for unary (SFPU) kernels (the SDK's api/compute/eltwise_unary/eltwise_unary.h).
#pragma once

#include "api/compute/common.h"
#include <cstring>

#include "runtime_mock/kernel_abi/sfpu.h"

namespace ckernel {

ALWI void unary_op_init_common(uint32_t icb, uint32_t ocb, uint32_t call_line = __builtin_LINE()) {
    (void)icb;
    (void)ocb;
    (void)call_line;
    runtime_mock::kernel_abi::sfpu_init();
}

ALWI void init_sfpu(uint32_t icb, uint32_t ocb, uint32_t call_line = __builtin_LINE()) {
    unary_op_init_common(icb, ocb, call_line);
}

}  // namespace ckernel
