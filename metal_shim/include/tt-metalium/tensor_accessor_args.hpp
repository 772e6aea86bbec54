// TensorAccessorArgs(buffer).append_to(compile_args): describes an interleaved buffer to a kernel's
// TensorAccessorArgs<offset>. Encoding (the SDK's, agreed with the kernel side in
// tt_mock_device/tensor_accessor.h): one compile-time word of ArgConfig flags, IsDram (2) for a DRAM
// buffer, 0 for an L1 buffer; no common runtime args.
#pragma once

#include <tt-metalium/buffer.hpp>
#include <tt-metalium/mesh_buffer.hpp>
#include <tt_stl/assert.hpp>

#include <cstdint>
#include <memory>
#include <vector>

namespace tt::tt_metal {

class TensorAccessorArgs {
public:
    TensorAccessorArgs() = default;
    explicit TensorAccessorArgs(const Buffer& buffer) : buffer_(&buffer) {}
    explicit TensorAccessorArgs(const Buffer* buffer) : buffer_(buffer) {}
    explicit TensorAccessorArgs(const std::shared_ptr<Buffer>& buffer) : buffer_(buffer.get()) {}
    explicit TensorAccessorArgs(const distributed::MeshBuffer& buffer) : buffer_(buffer.get_backing_buffer()) {}
    explicit TensorAccessorArgs(const distributed::MeshBuffer* buffer) : buffer_(buffer->get_backing_buffer()) {}
    explicit TensorAccessorArgs(const std::shared_ptr<distributed::MeshBuffer>& buffer)
        : buffer_(buffer->get_backing_buffer()) {}

    void append_to(std::vector<uint32_t>& compile_time_args) const {
        const auto args = get_compile_time_args();
        compile_time_args.insert(compile_time_args.end(), args.begin(), args.end());
    }

    void append_to(std::vector<uint32_t>& compile_time_args, std::vector<uint32_t>& common_runtime_args) const {
        (void)common_runtime_args;
        append_to(compile_time_args);
    }

    std::vector<uint32_t> get_compile_time_args() const {
        TT_FATAL(buffer_ != nullptr, "TensorAccessorArgs: no buffer");
        constexpr uint32_t kIsDram = 1u << 1;
        return {buffer_->is_dram() ? kIsDram : 0u};
    }

    std::vector<uint32_t> get_common_runtime_args() const { return {}; }

private:
    const Buffer* buffer_ = nullptr;
};

}  // namespace tt::tt_metal
