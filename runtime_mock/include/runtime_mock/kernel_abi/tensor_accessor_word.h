// The compile-time word a TensorAccessorArgs holds for one buffer: the SDK's tensor_accessor::ArgConfig
// flags. Written by the host API's TensorAccessorArgs(buffer).append_to (metal_shim) and by runtime_mock's
// Python program builder, read by the kernels' TensorAccessorArgs<offset>: kIsDram set for DRAM, clear for
// L1; kSharded for a sharded buffer, whose shard layout follows in the next words
// (metal_shim/include/api/tensor/tensor_accessor_impl.h); a kernel given a Runtime* flag fails to compile.
#pragma once

#include <cstdint>

namespace runtime_mock::kernel_abi::accessor_word {

constexpr uint8_t kSharded = 1 << 0;
constexpr uint8_t kIsDram = 1 << 1;
constexpr uint8_t kRuntimeRank = 1 << 2;
constexpr uint8_t kRuntimeNumBanks = 1 << 3;
constexpr uint8_t kRuntimeTensorShape = 1 << 4;
constexpr uint8_t kRuntimeShardShape = 1 << 5;
constexpr uint8_t kRuntimeBankCoords = 1 << 6;

}  // namespace runtime_mock::kernel_abi::accessor_word
