// MeshBuffer: a buffer replicated on every chip of a mesh (on the unit mesh: one Buffer, the
// "backing buffer"). DeviceLocalBufferConfig says where each chip's copy lives and how it is paged;
// ReplicatedBufferConfig gives its size. Members are in the SDK's order for designated initializers.
// Defined in metal_shim/src/mesh_buffer.cpp.
#pragma once

#include <tt-metalium/buffer.hpp>
#include <tt-metalium/buffer_types.hpp>
#include <tt-metalium/hal_types.hpp>
#include <tt-metalium/mesh_coord.hpp>
#include <tt-metalium/mesh_device.hpp>
#include <tt-metalium/sub_device_types.hpp>
#include <tt_stl/assert.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <variant>

namespace tt::tt_metal::distributed {

struct DeviceLocalBufferConfig {
    DeviceAddr page_size = 0;
    BufferType buffer_type = BufferType::DRAM;
    BufferShardingArgs sharding_args;  // interleaved unless given a ShardSpecBuffer (an L1 buffer's shards)
    std::optional<bool> bottom_up;
    std::optional<SubDeviceId> sub_device_id = std::nullopt;  // no effect: the mock has no sub-devices
};

struct ReplicatedBufferConfig {
    DeviceAddr size = 0;  // bytes on each chip
};

// A buffer split into shards over the chips of a mesh. The mock's unit mesh refuses it, so only its size is
// modelled (not the SDK's shard shape and orientation).
struct ShardedBufferConfig {
    DeviceAddr global_size = 0;  // bytes over the whole mesh
};

using MeshBufferConfig = std::variant<ReplicatedBufferConfig, ShardedBufferConfig>;

class MeshBuffer {
public:
    // Allocates the buffer on every chip (see Buffer::create); throws for a sharded buffer, a null mesh device
    // or a given address (the mock allocates every buffer itself).
    static std::shared_ptr<MeshBuffer> create(const MeshBufferConfig& mesh_buffer_config,
                                              const DeviceLocalBufferConfig& device_local_config,
                                              MeshDevice* mesh_device,
                                              std::optional<DeviceAddr> address = std::nullopt);

    MeshDevice* device() const { return device_; }
    DeviceAddr address() const { return backing_->address(); }
    DeviceAddr size() const { return std::get<ReplicatedBufferConfig>(global_config_).size; }
    DeviceAddr device_local_size() const { return size(); }
    DeviceAddr page_size() const { return local_config_.page_size; }
    uint32_t num_pages() const { return backing_->num_pages(); }
    const DeviceLocalBufferConfig& device_local_config() const { return local_config_; }
    const MeshBufferConfig& global_config() const { return global_config_; }
    bool is_allocated() const { return backing_->is_allocated(); }

    Buffer* get_backing_buffer() const { return backing_.get(); }
    // The chip's copy at a mesh coordinate (only (0, 0) exists).
    Buffer* get_device_buffer(const MeshCoordinate& coord) const;

    void deallocate() { backing_->deallocate(); }

private:
    MeshBuffer(MeshDevice* device, const MeshBufferConfig& global, const DeviceLocalBufferConfig& local,
               std::shared_ptr<Buffer> backing);

    MeshDevice* device_;
    MeshBufferConfig global_config_;
    DeviceLocalBufferConfig local_config_;
    std::shared_ptr<Buffer> backing_;
};

}  // namespace tt::tt_metal::distributed
