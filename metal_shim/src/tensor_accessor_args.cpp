// TensorAccessorArgs (tt-metalium/tensor_accessor_args.hpp): the compile-time word that tells a kernel's
// TensorAccessor whether an interleaved buffer is in DRAM or L1 (sharded buffers are refused).
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
    // A kernel addressing a sharded buffer by page id needs the shard layout in its arguments; the mock's
    // accessors would take it for interleaved and reach the wrong cores.
    TT_FATAL(!buffer_->is_sharded(),
             "TensorAccessorArgs: the mock device's TensorAccessor addresses interleaved buffers only, and this "
             "buffer is {}; use a globally allocated circular buffer on it (set_globally_allocated_address)",
             buffer_->buffer_layout());
    using tensor_accessor::ArgConfig;
    return {uint32_t(buffer_->is_dram() ? ArgConfig::IsDram : ArgConfig::None)};
}

}  // namespace tt::tt_metal
