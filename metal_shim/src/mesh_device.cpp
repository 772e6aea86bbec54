// MeshDevice (tt-metalium/mesh_device.hpp): the unit mesh over the mock's single chip.
#include <tt-metalium/mesh_device.hpp>

namespace tt::tt_metal::distributed {

std::shared_ptr<MeshDevice> MeshDevice::create_unit_mesh(int device_id, size_t l1_small_size, size_t trace_region_size,
                                                         size_t num_command_queues,
                                                         const DispatchCoreConfig& dispatch_core_config,
                                                         std::span<const uint32_t> l1_bank_remap,
                                                         size_t worker_l1_size) {
    TT_FATAL(num_command_queues == 1, "The mock device has one command queue, not {}", num_command_queues);
    (void)l1_small_size;
    (void)trace_region_size;
    (void)dispatch_core_config;
    (void)l1_bank_remap;
    (void)worker_l1_size;
    return std::shared_ptr<MeshDevice>(new MeshDevice(device_id));
}

std::shared_ptr<MeshDevice> host_detail::create_unit_mesh(int device_id, size_t l1_small_size, size_t trace_region_size,
                                                          size_t num_command_queues) {
    return MeshDevice::create_unit_mesh(device_id, l1_small_size, trace_region_size, num_command_queues);
}

MeshDevice::MeshDevice(int device_id) : IDevice(device_id), mesh_queue_(*this) {}

MeshDevice::~MeshDevice() = default;

MeshCommandQueue& MeshDevice::mesh_command_queue(std::optional<uint8_t> cq_id) const {
    TT_FATAL(!cq_id || *cq_id == 0, "The mock device has one command queue (id 0), not {}", *cq_id);
    return mesh_queue_;
}

bool MeshDevice::close() {
    return IDevice::close();
}

IDevice* MeshDevice::get_device(const MeshCoordinate& coord) {
    TT_FATAL(coord == MeshCoordinate(0, 0), "The unit mesh has only coordinate (0, 0)");
    return this;
}

}  // namespace tt::tt_metal::distributed
