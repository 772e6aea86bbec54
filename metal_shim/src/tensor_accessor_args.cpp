// TensorAccessorArgs (tt-metalium/tensor_accessor_args.hpp): the compile-time words that tell a kernel's
// TensorAccessor where a buffer's pages are (api/tensor/tensor_accessor_impl.h has the encoding).
#include <tt-metalium/core_coord.hpp>
#include <tt-metalium/device.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>

#include "hostdevcommon/tensor_accessor/arg_config.hpp"

namespace tt::tt_metal {

namespace {

// A sharded buffer's words after the config word: rank, banks, tensor and shard shapes in pages, the banks'
// NOC coordinates two to a word. The shapes describe the placement of metal_shim/src/shard_layout.cpp:
// height sharding as one dimension of pages in runs of a shard's pages, width and block sharding as the 2-D
// page grid in shards of the shard's shape.
std::vector<uint32_t> shard_layout_words(const Buffer& buffer) {
    const ShardSpecBuffer spec = buffer.shard_spec();
    const auto [shard_rows, shard_cols] = spec.shape_in_pages();
    const auto [rows, cols] = spec.tensor2d_shape_in_pages;
    const bool height = buffer.buffer_layout() == TensorMemoryLayout::HEIGHT_SHARDED;
    const std::vector<uint32_t> tensor =
        height ? std::vector<uint32_t>{rows * cols} : std::vector<uint32_t>{rows, cols};
    const std::vector<uint32_t> shard =
        height ? std::vector<uint32_t>{shard_rows * shard_cols} : std::vector<uint32_t>{shard_rows, shard_cols};
    const std::vector<CoreCoord> cores =
        corerange_to_cores(spec.grid(), std::nullopt, spec.orientation() == ShardOrientation::ROW_MAJOR);
    std::vector<uint32_t> words{uint32_t(tensor.size()), uint32_t(cores.size())};
    words.insert(words.end(), tensor.begin(), tensor.end());
    words.insert(words.end(), shard.begin(), shard.end());
    for (size_t i = 0; i < cores.size(); i++) {
        const CoreCoord noc = buffer.device()->worker_core_from_logical_core(cores[i]);
        const uint32_t xy = uint32_t((noc.x & 0xff) << 8 | (noc.y & 0xff));
        if (i % 2 == 0)
            words.push_back(xy);
        else
            words.back() |= xy << 16;
    }
    return words;
}

}  // namespace

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
    uint32_t config = uint32_t(buffer_->is_dram() ? ArgConfig::IsDram : ArgConfig::None);
    if (!buffer_->is_sharded())
        return {config};
    config |= uint32_t(ArgConfig::Sharded);
    std::vector<uint32_t> words{config};
    const std::vector<uint32_t> layout = shard_layout_words(*buffer_);
    words.insert(words.end(), layout.begin(), layout.end());
    return words;
}

}  // namespace tt::tt_metal
