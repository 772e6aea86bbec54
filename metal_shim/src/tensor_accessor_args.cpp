// TensorAccessorArgs (tt-metalium/tensor_accessor_args.hpp): the compile-time word that tells a kernel's
// TensorAccessor whether an interleaved buffer is in DRAM or L1.
#include <tt-metalium/tensor_accessor_args.hpp>

#include "hostdevcommon/tensor_accessor/arg_config.hpp"

namespace tt::tt_metal {

void TensorAccessorArgs::append_to(std::vector<uint32_t>& compile_time_args) const {
    const auto args = get_compile_time_args();
    compile_time_args.insert(compile_time_args.end(), args.begin(), args.end());
}

void TensorAccessorArgs::append_to(std::vector<uint32_t>& compile_time_args,
                                   std::vector<uint32_t>& common_runtime_args) const {
    (void)common_runtime_args;
    append_to(compile_time_args);
}

std::vector<uint32_t> TensorAccessorArgs::get_compile_time_args() const {
    TT_FATAL(buffer_ != nullptr, "TensorAccessorArgs: no buffer");
    using tensor_accessor::ArgConfig;
    return {uint32_t(buffer_->is_dram() ? ArgConfig::IsDram : ArgConfig::None)};
}

}  // namespace tt::tt_metal
