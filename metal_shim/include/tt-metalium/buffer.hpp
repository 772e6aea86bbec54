// Buffer: an interleaved buffer in the device's DRAM or L1: page i lives in bank i % banks at
// address + (i / banks) * aligned page size (the L1 banks are the worker cores). Deallocating frees
// the device memory; the Buffer object then refuses further use. Destruction deallocates. Defined in
// metal_shim/src/buffer.cpp.
#pragma once

#include <tt-metalium/bfloat16.hpp>
#include <tt-metalium/buffer_types.hpp>
#include <tt-metalium/device.hpp>
#include <tt-metalium/hal_types.hpp>
#include <tt_stl/assert.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>

namespace tt::tt_metal {

class Buffer;

namespace host_detail {

// Host <-> device copies of the first `bytes` bytes of a buffer, for the Enqueue* templates (the shim's own
// entry points: the SDK's templates go through its command queues instead). Throw for more bytes than the
// buffer holds, a deallocated buffer or a closed device.
void write_buffer(const Buffer& buffer, const void* data, size_t bytes);
void read_buffer(const Buffer& buffer, void* data, size_t bytes);

}  // namespace host_detail

struct BufferConfig {
    IDevice* device;
    DeviceAddr size;       // bytes
    DeviceAddr page_size;  // bytes per interleaved page
    BufferType buffer_type;
};

using InterleavedBufferConfig = BufferConfig;

class Buffer {
public:
    // Allocates size bytes in pages of page_size bytes; throws for a null or closed device, sizes that are
    // not positive multiples of the page size, or a buffer type other than DRAM and L1.
    static std::shared_ptr<Buffer> create(IDevice* device, DeviceAddr size, DeviceAddr page_size,
                                          BufferType buffer_type);

    IDevice* device() const { return device_; }
    DeviceAddr size() const { return size_; }
    uint32_t address() const;  // throws once deallocated
    DeviceAddr page_size() const { return page_size_; }
    uint32_t num_pages() const { return static_cast<uint32_t>((size_ + page_size_ - 1) / page_size_); }
    BufferType buffer_type() const { return buffer_type_; }
    TensorMemoryLayout buffer_layout() const { return TensorMemoryLayout::INTERLEAVED; }
    bool is_dram() const { return buffer_type_ == BufferType::DRAM; }
    bool is_l1() const { return buffer_type_ == BufferType::L1; }
    bool is_allocated() const { return allocated_; }

    ~Buffer();

    void deallocate();

private:
    friend void host_detail::write_buffer(const Buffer& buffer, const void* data, size_t bytes);
    friend void host_detail::read_buffer(const Buffer& buffer, void* data, size_t bytes);

    Buffer(IDevice* device, DeviceAddr size, DeviceAddr page_size, BufferType buffer_type);

    runtime_mock::Device& mock() const;
    void check_transfer(size_t bytes, const char* what) const;

    IDevice* device_;
    std::weak_ptr<runtime_mock::Device> mock_;
    DeviceAddr size_;
    DeviceAddr page_size_;
    BufferType buffer_type_;
    DeviceAddr address_ = 0;
    bool allocated_ = true;
};

}  // namespace tt::tt_metal
