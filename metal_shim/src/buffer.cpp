// Buffer (tt-metalium/buffer.hpp) over the simulated chip's allocator and its interleaved and sharded
// copies: allocation checks, host <-> device transfers of whole pages, and deallocation (explicit or on
// destruction, unless the device was closed first).
#include <runtime_mock/device.hpp>
#include <tt-metalium/buffer.hpp>

#include "shard_layout.hpp"

namespace tt::tt_metal {

namespace {

runtime_mock::BufferKind kind_of(BufferType type) {
    return type == BufferType::DRAM ? runtime_mock::BufferKind::Dram : runtime_mock::BufferKind::L1;
}

std::vector<runtime_mock::Device::ShardPage> device_placement(const std::vector<host_detail::ShardPage>& pages) {
    std::vector<runtime_mock::Device::ShardPage> placement;
    placement.reserve(pages.size());
    for (const host_detail::ShardPage& p : pages)
        placement.push_back({{uint32_t(p.core.x), uint32_t(p.core.y)}, p.page});
    return placement;
}

}  // namespace

std::shared_ptr<Buffer> Buffer::create(IDevice* device, DeviceAddr size, DeviceAddr page_size, BufferType buffer_type,
                                       const BufferShardingArgs& sharding_args, std::optional<bool>) {
    return std::shared_ptr<Buffer>(new Buffer(device, size, page_size, buffer_type, sharding_args));
}

Buffer::Buffer(IDevice* device, DeviceAddr size, DeviceAddr page_size, BufferType buffer_type,
               const BufferShardingArgs& sharding_args)
    : device_(device), size_(size), page_size_(page_size), buffer_type_(buffer_type), sharding_(sharding_args) {
    TT_FATAL(device != nullptr, "Buffer: device is null");
    mock_ = device->mock_shared();
    TT_FATAL(size > 0 && page_size > 0 && page_size <= UINT32_MAX,
             "Buffer: size ({}) and page size ({}) must be positive", size, page_size);
    TT_FATAL(size % page_size == 0, "Buffer: size {} B must be a multiple of the page size {} B", size, page_size);
    TT_FATAL(is_sharded() == sharding_args.shard_spec().has_value(), "Buffer: a {} buffer {} a shard spec",
             buffer_layout(), is_sharded() ? "needs" : "was given");
    if (is_sharded()) {
        TT_FATAL(buffer_type == BufferType::L1, "Buffer: sharded buffers live in L1 on the mock device, not {}",
                 buffer_type);
        const ShardSpecBuffer& spec = *sharding_args.shard_spec();
        shard_pages_ = host_detail::shard_placement(spec, buffer_layout(), num_pages());
        address_ = mock().allocate_l1_sharded(uint32_t(spec.num_pages()), uint32_t(page_size));
        return;
    }
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

ShardSpecBuffer Buffer::shard_spec() const {
    TT_FATAL(is_sharded(), "Buffer is not sharded");
    return *sharding_.shard_spec();
}

std::optional<uint32_t> Buffer::num_cores() const {
    if (!is_sharded())
        return std::nullopt;
    return sharding_.shard_spec()->grid().num_cores();
}

std::array<uint32_t, 2> ShardSpecBuffer::shape_in_pages() const {
    return {page_shape[0] == 0 ? 0 : shape()[0] / page_shape[0], page_shape[1] == 0 ? 0 : shape()[1] / page_shape[1]};
}

DeviceAddr ShardSpecBuffer::num_pages() const {
    const auto [rows, cols] = shape_in_pages();
    return DeviceAddr(rows) * cols;
}

void host_detail::write_buffer(const Buffer& buffer, const void* data, size_t bytes) {
    buffer.check_transfer(bytes, "write");
    if (buffer.is_sharded()) {
        buffer.mock().write_sharded(buffer.address_, uint32_t(buffer.page_size_), device_placement(buffer.shard_pages_),
                                    data, bytes);
        return;
    }
    buffer.mock().write_interleaved(kind_of(buffer.buffer_type_), buffer.address_,
                                    static_cast<uint32_t>(buffer.page_size_), data, bytes);
}

void host_detail::read_buffer(const Buffer& buffer, void* data, size_t bytes) {
    buffer.check_transfer(bytes, "read");
    if (buffer.is_sharded()) {
        buffer.mock().read_sharded(buffer.address_, uint32_t(buffer.page_size_), device_placement(buffer.shard_pages_),
                                   data, bytes);
        return;
    }
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
