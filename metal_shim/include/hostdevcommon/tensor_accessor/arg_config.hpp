// The flags of a TensorAccessorArgs compile-time word at the SDK's path and names; their values are the
// runtime's (runtime_mock/kernel_abi/tensor_accessor_word.h), which the simulator's own program builder
// writes too.
#pragma once

#include <cstdint>

#include "runtime_mock/kernel_abi/tensor_accessor_word.h"

namespace tensor_accessor {

enum class ArgConfig : uint8_t {
    None = 0,
    Sharded = runtime_mock::kernel_abi::accessor_word::kSharded,
    IsDram = runtime_mock::kernel_abi::accessor_word::kIsDram,
    RuntimeRank = runtime_mock::kernel_abi::accessor_word::kRuntimeRank,
    RuntimeNumBanks = runtime_mock::kernel_abi::accessor_word::kRuntimeNumBanks,
    RuntimeTensorShape = runtime_mock::kernel_abi::accessor_word::kRuntimeTensorShape,
    RuntimeShardShape = runtime_mock::kernel_abi::accessor_word::kRuntimeShardShape,
    RuntimeBankCoords = runtime_mock::kernel_abi::accessor_word::kRuntimeBankCoords,
};

}  // namespace tensor_accessor
