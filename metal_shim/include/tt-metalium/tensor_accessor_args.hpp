// TensorAccessorArgs(buffer).append_to(compile_args): describes an interleaved or sharded buffer to a
// kernel's TensorAccessorArgs<offset>. Encoding (the SDK's with every argument at compile time, agreed with
// the kernel side in api/tensor/tensor_accessor_impl.h): a word of ArgConfig flags (IsDram 2, Sharded 1),
// then for a sharded buffer its shard layout; no common runtime args. Defined in
// metal_shim/src/tensor_accessor_args.cpp.
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

    void append_to(std::vector<uint32_t>& compile_time_args) const;
    void append_to(std::vector<uint32_t>& compile_time_args, std::vector<uint32_t>& common_runtime_args) const;

    // Throws for args made without a buffer.
    std::vector<uint32_t> get_compile_time_args() const;
    std::vector<uint32_t> get_common_runtime_args() const { return {}; }

private:
    const Buffer* buffer_ = nullptr;
};

}  // namespace tt::tt_metal
