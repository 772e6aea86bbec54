// Buffer: an interleaved buffer in the device's DRAM or L1: page i lives in bank i % banks at
// address + (i / banks) * aligned page size (the L1 banks are the worker cores). Deallocating frees
// the device memory; the Buffer object then refuses further use. Destruction deallocates.
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

struct BufferConfig {
    IDevice* device;
    DeviceAddr size;       // bytes
    DeviceAddr page_size;  // bytes per interleaved page
    BufferType buffer_type;
};

using InterleavedBufferConfig = BufferConfig;

class Buffer {
public:
    static std::shared_ptr<Buffer> create(IDevice* device, DeviceAddr size, DeviceAddr page_size,
                                          BufferType buffer_type) {
        return std::shared_ptr<Buffer>(new Buffer(device, size, page_size, buffer_type));
    }

    IDevice* device() const { return device_; }
    DeviceAddr size() const { return size_; }
    uint32_t address() const {
        TT_FATAL(allocated_, "Buffer was deallocated");
        return static_cast<uint32_t>(address_);
    }
    DeviceAddr page_size() const { return page_size_; }
    uint32_t num_pages() const { return static_cast<uint32_t>((size_ + page_size_ - 1) / page_size_); }
    BufferType buffer_type() const { return buffer_type_; }
    TensorMemoryLayout buffer_layout() const { return TensorMemoryLayout::INTERLEAVED; }
    bool is_dram() const { return buffer_type_ == BufferType::DRAM; }
    bool is_l1() const { return buffer_type_ == BufferType::L1; }
    bool is_allocated() const { return allocated_; }

    ~Buffer() {
        if (auto mock = mock_.lock(); mock && allocated_) {
            mock->deallocate(kind(), address_);
        }
    }

    void deallocate() {
        TT_FATAL(allocated_, "Buffer was already deallocated");
        mock().deallocate(kind(), address_);
        allocated_ = false;
    }

    // Host <-> device copies of the first `bytes` bytes (shim-specific; the Enqueue* calls use them).
    void write(const void* data, size_t bytes) const {
        check_transfer(bytes, "write");
        mock().write_interleaved(kind(), address_, static_cast<uint32_t>(page_size_), data, bytes);
    }
    void read(void* data, size_t bytes) const {
        check_transfer(bytes, "read");
        mock().read_interleaved(kind(), address_, static_cast<uint32_t>(page_size_), data, bytes);
    }

private:
    Buffer(IDevice* device, DeviceAddr size, DeviceAddr page_size, BufferType buffer_type)
        : device_(device), size_(size), page_size_(page_size), buffer_type_(buffer_type) {
        TT_FATAL(device != nullptr, "Buffer: device is null");
        mock_ = device->mock_shared();
        TT_FATAL(size > 0 && page_size > 0 && page_size <= UINT32_MAX,
                 "Buffer: size ({}) and page size ({}) must be positive", size, page_size);
        TT_FATAL(size % page_size == 0, "Buffer: size {} B must be a multiple of the page size {} B", size, page_size);
        switch (buffer_type) {
            case BufferType::DRAM:
                address_ = mock().allocate_dram(size, static_cast<uint32_t>(page_size));
                break;
            case BufferType::L1:
                address_ = mock().allocate_l1(size, static_cast<uint32_t>(page_size));
                break;
            default:
                TT_THROW("Buffer: only DRAM and L1 buffers are supported by the mock device");
        }
    }

    tt_mock::Device& mock() const {
        std::shared_ptr<tt_mock::Device> mock = mock_.lock();
        TT_FATAL(mock != nullptr, "The buffer's device is closed");
        return *mock;
    }

    tt_mock::BufferKind kind() const {
        return buffer_type_ == BufferType::DRAM ? tt_mock::BufferKind::Dram : tt_mock::BufferKind::L1;
    }

    void check_transfer(size_t bytes, const char* what) const {
        TT_FATAL(allocated_, "Buffer was deallocated");
        TT_FATAL(bytes <= size_, "Cannot {} {} B: the buffer holds {} B", what, bytes, size_);
    }

    IDevice* device_;
    std::weak_ptr<tt_mock::Device> mock_;
    DeviceAddr size_;
    DeviceAddr page_size_;
    BufferType buffer_type_;
    DeviceAddr address_ = 0;
    bool allocated_ = true;
};

}  // namespace tt::tt_metal
