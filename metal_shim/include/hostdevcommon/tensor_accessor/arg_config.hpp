// The flags of a TensorAccessorArgs compile-time word, shared by the host API that writes it
// (TensorAccessorArgs(buffer).append_to) and the kernels that read it (TensorAccessorArgs<offset>), at the
// SDK's path. The mock device supports interleaved buffers: one word per accessor, IsDram set for a DRAM
// buffer and clear for one interleaved over the workers' L1; Sharded is a compile error in a kernel.
#pragma once

#include <cstdint>

namespace tensor_accessor {

enum class ArgConfig : uint8_t {
    None = 0,
    Sharded = 1 << 0,
    IsDram = 1 << 1,
    RuntimeRank = 1 << 2,
    RuntimeNumBanks = 1 << 3,
    RuntimeTensorShape = 1 << 4,
    RuntimeShardShape = 1 << 5,
    RuntimeBankCoords = 1 << 6,
};

}  // namespace tensor_accessor
