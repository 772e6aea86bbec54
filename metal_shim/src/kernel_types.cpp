// The SDK's reader and writer kernel configs (tt-metalium/kernel_types.hpp): a DataMovementConfig on the
// processor and NOC the SDK picks for DRAM reads (NCRISC) and DRAM writes (BRISC).
#include <tt-metalium/kernel_types.hpp>

namespace tt::tt_metal {

ReaderDataMovementConfig::ReaderDataMovementConfig(std::vector<uint32_t> compile_args,
                                                   std::map<std::string, std::string> defines,
                                                   std::unordered_map<std::string, uint32_t> named_compile_args,
                                                   KernelBuildOptLevel opt_level)
    : DataMovementConfig{DataMovementProcessor::RISCV_1,
                         detail::preferred_noc_for_dram_read(ARCH::WORMHOLE_B0),
                         NOC_MODE::DM_DEDICATED_NOC,
                         std::move(compile_args),
                         std::move(defines),
                         std::move(named_compile_args),
                         opt_level} {}

WriterDataMovementConfig::WriterDataMovementConfig(std::vector<uint32_t> compile_args,
                                                   std::map<std::string, std::string> defines,
                                                   std::unordered_map<std::string, uint32_t> named_compile_args,
                                                   KernelBuildOptLevel opt_level)
    : DataMovementConfig{DataMovementProcessor::RISCV_0,
                         detail::preferred_noc_for_dram_write(ARCH::WORMHOLE_B0),
                         NOC_MODE::DM_DEDICATED_NOC,
                         std::move(compile_args),
                         std::move(defines),
                         std::move(named_compile_args),
                         opt_level} {}

}  // namespace tt::tt_metal
