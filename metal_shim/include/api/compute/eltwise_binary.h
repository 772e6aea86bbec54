// Element-wise binary tile operations on the FPU (the SDK's api/compute/eltwise_binary.h).
//
// add/sub/mul_tiles: DST[idst] = A[itile0] op B[itile1] (tile indices relative to each CB's read
// pointer); add/sub_init(..., acc_to_dest=true) makes add/sub accumulate onto DST[idst].
#pragma once

#include "api/compute/common.h"
#include "runtime_mock/kernel_abi/binary.h"

namespace ckernel {

template <bool full_init, EltwiseBinaryType eltwise_binary_type>
ALWI void binary_tiles_init(uint32_t icb0, uint32_t icb1, bool acc_to_dest = false,
                            uint32_t call_line = __builtin_LINE()) {
    (void)icb0;
    (void)icb1;
    (void)call_line;
    runtime_mock::kernel_abi::binary_init(acc_to_dest && eltwise_binary_type != EltwiseBinaryType::ELWMUL);
}

// The inits of tt-metal 0.81 (compute_kernel_hw_startup must have run at the start of the kernel). mul_init's
// acc_to_dest defaults to true there and, as on Wormhole and Blackhole, does not change mul_tiles.
ALWI void add_init(uint32_t icb0, uint32_t icb1, bool acc_to_dest = false, uint32_t call_line = __builtin_LINE()) {
    binary_tiles_init<true, EltwiseBinaryType::ELWADD>(icb0, icb1, acc_to_dest, call_line);
}

ALWI void sub_init(uint32_t icb0, uint32_t icb1, bool acc_to_dest = false, uint32_t call_line = __builtin_LINE()) {
    binary_tiles_init<true, EltwiseBinaryType::ELWSUB>(icb0, icb1, acc_to_dest, call_line);
}

ALWI void mul_init(uint32_t icb0, uint32_t icb1, bool acc_to_dest = true, uint32_t call_line = __builtin_LINE()) {
    binary_tiles_init<true, EltwiseBinaryType::ELWMUL>(icb0, icb1, acc_to_dest, call_line);
}

ALWI void add_tiles(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst,
                    runtime_mock::kernel_abi::CallSite site = {}) {
    using namespace runtime_mock::kernel_abi;
    binary_tiles<BinaryOp::Add>(icb0, icb1, itile0, itile1, idst, Broadcast::None, "add_tiles", site);
}

ALWI void sub_tiles(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst,
                    runtime_mock::kernel_abi::CallSite site = {}) {
    using namespace runtime_mock::kernel_abi;
    binary_tiles<BinaryOp::Sub>(icb0, icb1, itile0, itile1, idst, Broadcast::None, "sub_tiles", site);
}

ALWI void mul_tiles(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst,
                    runtime_mock::kernel_abi::CallSite site = {}) {
    using namespace runtime_mock::kernel_abi;
    binary_tiles<BinaryOp::Mul>(icb0, icb1, itile0, itile1, idst, Broadcast::None, "mul_tiles", site);
}

}  // namespace ckernel
