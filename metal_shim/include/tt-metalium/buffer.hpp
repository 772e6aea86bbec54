// Buffer: an interleaved buffer in the device's DRAM or L1 — page i lives in bank i % banks at
// address + (i / banks) * aligned page size (the L1 banks are the worker cores) — or a sharded L1 buffer:
// the pages of a 2-D tensor (tensor2d_shape_in_pages) cut into shards of the ShardSpecBuffer's shape, one
// shard per core of its grid, each core's shard at the buffer's address in its own L1
// (metal_shim/src/shard_layout.hpp says which page goes where, as the SDK places them). Deallocating frees
// the device memory; the Buffer object then refuses further use. Destruction deallocates. Defined in
// metal_shim/src/buffer.cpp.
#pragma once

#include <tt-metalium/bfloat16.hpp>
#include <tt-metalium/buffer_types.hpp>
#include <tt-metalium/core_coord.hpp>
#include <tt-metalium/device.hpp>
#include <tt-metalium/hal_types.hpp>
#include <tt_stl/assert.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace tt::tt_metal {

class Buffer;

namespace host_detail {

// Host <-> device copies of the first `bytes` bytes of a buffer, for the Enqueue* templates (the shim's own
// entry points: the SDK's templates go through its command queues instead). Throw for more bytes than the
// buffer holds, a deallocated buffer or a closed device.
void write_buffer(const Buffer& buffer, const void* data, size_t bytes);
void read_buffer(const Buffer& buffer, void* data, size_t bytes);

// Where one page of a sharded buffer lives: the core, and the page's index in that core's shard.
struct ShardPage {
    CoreCoord core;
    uint32_t page;
};

}  // namespace host_detail

// The cores of a sharded tensor and the shape of one shard in elements (height, width), with the order
// shards go to the cores: ROW_MAJOR walks the grid row by row, COL_MAJOR column by column.
struct ShardSpec {
    CoreRangeSet grid;
    std::array<uint32_t, 2> shape;
    ShardOrientation orientation = ShardOrientation::ROW_MAJOR;

    ShardSpec(const CoreRangeSet& core_sets, const std::array<uint32_t, 2>& shard_shape,
              const ShardOrientation& shard_orientation = ShardOrientation::ROW_MAJOR)
        : grid(core_sets), shape(shard_shape), orientation(shard_orientation) {}

    uint32_t num_cores() const { return grid.num_cores(); }
    uint32_t numel() const { return shape[0] * shape[1]; }
};

// A ShardSpec with the shape of a page in elements (a tile: 32 x 32) and the whole tensor's shape in pages.
struct ShardSpecBuffer {
    ShardSpec tensor_shard_spec;
    std::array<uint32_t, 2> page_shape{};
    std::array<uint32_t, 2> tensor2d_shape_in_pages{};

    ShardSpecBuffer(const CoreRangeSet& core_sets, const std::array<uint32_t, 2>& shard_shape,
                    const ShardOrientation& shard_orientation, const std::array<uint32_t, 2>& page_shape,
                    const std::array<uint32_t, 2>& tensor2d_shape_in_pages)
        : tensor_shard_spec(core_sets, shard_shape, shard_orientation),
          page_shape(page_shape),
          tensor2d_shape_in_pages(tensor2d_shape_in_pages) {}
    ShardSpecBuffer(const ShardSpec& shard_spec, const std::array<uint32_t, 2>& page_shape,
                    const std::array<uint32_t, 2>& tensor2d_shape_in_pages)
        : tensor_shard_spec(shard_spec), page_shape(page_shape), tensor2d_shape_in_pages(tensor2d_shape_in_pages) {}

    CoreRangeSet grid() const { return tensor_shard_spec.grid; }
    std::array<uint32_t, 2> shape() const { return tensor_shard_spec.shape; }
    ShardOrientation orientation() const { return tensor_shard_spec.orientation; }
    // One shard's shape in pages, and its page count.
    std::array<uint32_t, 2> shape_in_pages() const;
    DeviceAddr num_pages() const;
};

struct BufferConfig {
    IDevice* device;
    DeviceAddr size;       // bytes
    DeviceAddr page_size;  // bytes per interleaved page
    BufferType buffer_type;
};

using InterleavedBufferConfig = BufferConfig;

// A sharded buffer's config (CreateBuffer); members in the SDK's order for designated initializers.
struct ShardedBufferConfig {
    IDevice* device{};
    DeviceAddr size{};       // bytes
    DeviceAddr page_size{};  // bytes per page
    BufferType buffer_type = BufferType::L1;
    TensorMemoryLayout buffer_layout = TensorMemoryLayout::HEIGHT_SHARDED;
    ShardSpecBuffer shard_parameters;
};

// How a buffer is spread: interleaved (no arguments), or sharded by a ShardSpecBuffer with a sharded layout.
// The SDK's ND BufferDistributionSpec is not modelled.
class BufferShardingArgs {
public:
    BufferShardingArgs() = default;
    BufferShardingArgs(std::nullopt_t) {}
    BufferShardingArgs(ShardSpecBuffer shard_spec, TensorMemoryLayout buffer_layout)
        : shard_spec_(std::move(shard_spec)), buffer_layout_(buffer_layout) {}
    BufferShardingArgs(std::optional<ShardSpecBuffer> shard_spec, TensorMemoryLayout buffer_layout)
        : shard_spec_(std::move(shard_spec)), buffer_layout_(buffer_layout) {}

    const std::optional<ShardSpecBuffer>& shard_spec() const { return shard_spec_; }
    TensorMemoryLayout buffer_layout() const { return buffer_layout_; }

private:
    std::optional<ShardSpecBuffer> shard_spec_;
    TensorMemoryLayout buffer_layout_ = TensorMemoryLayout::INTERLEAVED;
};

class Buffer {
public:
    // Allocates size bytes in pages of page_size bytes; throws for a null or closed device, sizes that are
    // not positive multiples of the page size, or a buffer type other than DRAM and L1; a sharded buffer
    // also for a layout without a shard spec (or the reverse), DRAM, or a shard layout whose shards do not
    // fit the tensor and the grid (metal_shim/src/shard_layout.hpp). `bottom_up` has no effect.
    static std::shared_ptr<Buffer> create(IDevice* device, DeviceAddr size, DeviceAddr page_size,
                                          BufferType buffer_type,
                                          const BufferShardingArgs& sharding_args = std::nullopt,
                                          std::optional<bool> bottom_up = std::nullopt);

    IDevice* device() const { return device_; }
    DeviceAddr size() const { return size_; }
    uint32_t address() const;  // throws once deallocated
    DeviceAddr page_size() const { return page_size_; }
    uint32_t num_pages() const { return static_cast<uint32_t>((size_ + page_size_ - 1) / page_size_); }
    BufferType buffer_type() const { return buffer_type_; }
    TensorMemoryLayout buffer_layout() const { return sharding_.buffer_layout(); }
    bool is_sharded() const { return tt::tt_metal::is_sharded(buffer_layout()); }
    // Throws unless the buffer is sharded.
    ShardSpecBuffer shard_spec() const;
    // The cores holding a shard (nullopt when interleaved).
    std::optional<uint32_t> num_cores() const;
    bool is_dram() const { return buffer_type_ == BufferType::DRAM; }
    bool is_l1() const { return buffer_type_ == BufferType::L1; }
    bool is_allocated() const { return allocated_; }

    ~Buffer();

    void deallocate();

private:
    friend void host_detail::write_buffer(const Buffer& buffer, const void* data, size_t bytes);
    friend void host_detail::read_buffer(const Buffer& buffer, void* data, size_t bytes);

    Buffer(IDevice* device, DeviceAddr size, DeviceAddr page_size, BufferType buffer_type,
           const BufferShardingArgs& sharding_args);

    runtime_mock::Device& mock() const;
    void check_transfer(size_t bytes, const char* what) const;

    IDevice* device_;
    std::weak_ptr<runtime_mock::Device> mock_;
    DeviceAddr size_;
    DeviceAddr page_size_;
    BufferType buffer_type_;
    BufferShardingArgs sharding_;
    std::vector<host_detail::ShardPage> shard_pages_;  // where each page lives, when sharded
    DeviceAddr address_ = 0;
    bool allocated_ = true;
};

}  // namespace tt::tt_metal
