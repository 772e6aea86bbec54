// How compute_kernel_hw_startup maps its two input CBs onto the source registers (the SDK's
// api/compute/src_order.h, tt-metal 0.81): Regular puts icb0 in SrcA and icb1 in SrcB; Reverse swaps them,
// as matmul needs (in0 in SrcB). The mock engines read each operand from its CB either way.
#pragma once

#include <cstdint>

namespace ckernel {

enum class SrcOrder : uint8_t {
    Regular = 0,
    Reverse = 1,
};

}  // namespace ckernel
