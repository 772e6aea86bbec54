// How a kernel is built and where it runs. Members are in the SDK's order so that designated
// initializers written for the SDK compile unchanged. The reader/writer constructors are defined in
// metal_shim/src/kernel_types.cpp.
#pragma once

#include <tt-metalium/base_types.hpp>
#include <tt-metalium/data_types.hpp>
#include <tt-metalium/hal_types.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tt::tt_metal {

// Runtime args per kernel per core, unique and common together (the SDK's dispatch limit).
constexpr uint32_t max_runtime_args = 341;

using KernelHandle = std::uint32_t;

enum class KernelBuildOptLevel : uint8_t { O1, O2, O3, O0, Os, Ofast, Oz };

struct DataMovementConfig {
    DataMovementProcessor processor = DataMovementProcessor::RISCV_0;
    NOC noc = NOC::RISCV_0_default;
    NOC_MODE noc_mode = NOC_MODE::DM_DEDICATED_NOC;
    std::vector<uint32_t> compile_args;
    std::map<std::string, std::string> defines;
    std::unordered_map<std::string, uint32_t> named_compile_args;
    KernelBuildOptLevel opt_level = KernelBuildOptLevel::O2;
};

// A reader: NCRISC (RISCV_1) on the NOC preferred for DRAM reads.
struct ReaderDataMovementConfig : public DataMovementConfig {
    ReaderDataMovementConfig(std::vector<uint32_t> compile_args = {}, std::map<std::string, std::string> defines = {},
                             std::unordered_map<std::string, uint32_t> named_compile_args = {},
                             KernelBuildOptLevel opt_level = KernelBuildOptLevel::O2);
};

// A writer: BRISC (RISCV_0) on the NOC preferred for DRAM writes.
struct WriterDataMovementConfig : public DataMovementConfig {
    WriterDataMovementConfig(std::vector<uint32_t> compile_args = {}, std::map<std::string, std::string> defines = {},
                             std::unordered_map<std::string, uint32_t> named_compile_args = {},
                             KernelBuildOptLevel opt_level = KernelBuildOptLevel::O2);
};

struct ComputeConfig {
    MathFidelity math_fidelity = MathFidelity::HiFi4;
    bool fp32_dest_acc_en = false;
    bool dst_full_sync_en = false;
    std::vector<UnpackToDestMode> unpack_to_dest_mode;
    bool bfp8_pack_precise = false;
    bool math_approx_mode = false;
    std::vector<uint32_t> compile_args;
    std::map<std::string, std::string> defines;
    std::unordered_map<std::string, uint32_t> named_compile_args;
    KernelBuildOptLevel opt_level = KernelBuildOptLevel::O3;
};

// Ethernet kernels exist in the SDK's API; the mock device has no Ethernet cores (CreateKernel throws).
struct EthernetConfig {
    Eth eth_mode = Eth::SENDER;
    NOC noc = NOC::NOC_0;
    DataMovementProcessor processor = DataMovementProcessor::RISCV_0;
    std::vector<uint32_t> compile_args;
    std::map<std::string, std::string> defines;
    std::unordered_map<std::string, uint32_t> named_compile_args;
    KernelBuildOptLevel opt_level = KernelBuildOptLevel::Os;
    NOC_MODE noc_mode = NOC_MODE::DM_DEDICATED_NOC;
};

}  // namespace tt::tt_metal
