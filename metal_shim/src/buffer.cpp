// Buffer (tt-metalium/buffer.hpp) over the simulated chip's allocator and interleaved copies: allocation
// checks, host <-> device transfers of whole pages, and deallocation (explicit or on destruction, unless the
// device was closed first).
#include <runtime_mock/device.hpp>
#include <tt-metalium/buffer.hpp>

namespace tt::tt_metal {

namespace {

runtime_mock::BufferKind kind_of(BufferType type) {
    return type == BufferType::DRAM ? runtime_mock::BufferKind::Dram : runtime_mock::BufferKind::L1;
}

}  // namespace

std::shared_ptr<Buffer> Buffer::create(IDevice* device, DeviceAddr size, DeviceAddr page_size, BufferType buffer_type) {
    return std::shared_ptr<Buffer>(new Buffer(device, size, page_size, buffer_type));
}

Buffer::Buffer(IDevice* device, DeviceAddr size, DeviceAddr page_size, BufferType buffer_type)
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

Buffer::~Buffer() {
    if (auto mock = mock_.lock(); mock && allocated_) {
        mock->deallocate(kind_of(buffer_type_), address_);
    }
}

uint32_t Buffer::address() const {
    TT_FATAL(allocated_, "Buffer was deallocated");
    return static_cast<uint32_t>(address_);
}

void Buffer::deallocate() {
    TT_FATAL(allocated_, "Buffer was already deallocated");
    mock().deallocate(kind_of(buffer_type_), address_);
    allocated_ = false;
}

void host_detail::write_buffer(const Buffer& buffer, const void* data, size_t bytes) {
    buffer.check_transfer(bytes, "write");
    buffer.mock().write_interleaved(kind_of(buffer.buffer_type_), buffer.address_,
                                    static_cast<uint32_t>(buffer.page_size_), data, bytes);
}

void host_detail::read_buffer(const Buffer& buffer, void* data, size_t bytes) {
    buffer.check_transfer(bytes, "read");
    buffer.mock().read_interleaved(kind_of(buffer.buffer_type_), buffer.address_,
                                   static_cast<uint32_t>(buffer.page_size_), data, bytes);
}

runtime_mock::Device& Buffer::mock() const {
    std::shared_ptr<runtime_mock::Device> mock = mock_.lock();
    TT_FATAL(mock != nullptr, "The buffer's device is closed");
    return *mock;
}

void Buffer::check_transfer(size_t bytes, const char* what) const {
    TT_FATAL(allocated_, "Buffer was deallocated");
    TT_FATAL(bytes <= size_, "Cannot {} {} B: the buffer holds {} B", what, bytes, size_);
}

}  // namespace tt::tt_metal
