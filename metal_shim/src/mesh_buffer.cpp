// MeshBuffer (tt-metalium/mesh_buffer.hpp): on the unit mesh, one Buffer on the single chip.
#include <tt-metalium/mesh_buffer.hpp>

#include <utility>

namespace tt::tt_metal::distributed {

std::shared_ptr<MeshBuffer> MeshBuffer::create(const MeshBufferConfig& mesh_buffer_config,
                                               const DeviceLocalBufferConfig& device_local_config,
                                               MeshDevice* mesh_device, std::optional<DeviceAddr> address) {
    TT_FATAL(mesh_device != nullptr, "MeshBuffer::create: mesh device is null");
    TT_FATAL(!address.has_value(), "MeshBuffer::create: buffers at a given address are not supported by the mock");
    const auto* replicated = std::get_if<ReplicatedBufferConfig>(&mesh_buffer_config);
    TT_FATAL(replicated != nullptr,
             "MeshBuffer::create: sharded buffers are not supported by the mock's unit mesh; use a "
             "ReplicatedBufferConfig");
    auto backing = Buffer::create(mesh_device, replicated->size, device_local_config.page_size,
                                  device_local_config.buffer_type, device_local_config.sharding_args);
    return std::shared_ptr<MeshBuffer>(
        new MeshBuffer(mesh_device, mesh_buffer_config, device_local_config, std::move(backing)));
}

MeshBuffer::MeshBuffer(MeshDevice* device, const MeshBufferConfig& global, const DeviceLocalBufferConfig& local,
                       std::shared_ptr<Buffer> backing)
    : device_(device), global_config_(global), local_config_(local), backing_(std::move(backing)) {}

Buffer* MeshBuffer::get_device_buffer(const MeshCoordinate& coord) const {
    TT_FATAL(coord == MeshCoordinate(0, 0), "The unit mesh has only coordinate (0, 0)");
    return backing_.get();
}

}  // namespace tt::tt_metal::distributed
