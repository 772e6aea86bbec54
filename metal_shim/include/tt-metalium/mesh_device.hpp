// MeshDevice: a mesh of chips driven as one. The mock offers the unit mesh (1x1) over its single
// chip; the mesh is also an IDevice, so mesh_device.get() works where the older API wants a device.
// Defined in metal_shim/src/mesh_device.cpp.
#pragma once

#include <hostdevcommon/common_values.hpp>
#include <tt-metalium/device.hpp>
#include <tt-metalium/dispatch_core_common.hpp>
#include <tt-metalium/mesh_command_queue.hpp>
#include <tt-metalium/mesh_coord.hpp>
#include <tt_stl/assert.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#if __cplusplus >= 202002L
#include <span>
#endif

namespace tt::tt_metal::distributed {

class MeshDevice;

namespace host_detail {

// create_unit_mesh for C++17 programs (the shim's own entry point, see MeshDevice::create_unit_mesh).
std::shared_ptr<MeshDevice> create_unit_mesh(int device_id, size_t l1_small_size, size_t trace_region_size,
                                             size_t num_command_queues);

}  // namespace host_detail

class MeshDevice : public IDevice {
public:
    // The 1x1 mesh of chip device_id (only 0 exists); one command queue. The SDK's signature needs C++20
    // (std::span), as its host API does; C++17 programs get its first four parameters, whose calls go
    // through the shim's own entry point. Parameters past the first and the queue count have no effect.
#if __cplusplus >= 202002L
    static std::shared_ptr<MeshDevice> create_unit_mesh(
        int device_id, size_t l1_small_size = DEFAULT_L1_SMALL_SIZE,
        size_t trace_region_size = DEFAULT_TRACE_REGION_SIZE, size_t num_command_queues = 1,
        const DispatchCoreConfig& dispatch_core_config = DispatchCoreConfig{},
        std::span<const uint32_t> l1_bank_remap = {}, size_t worker_l1_size = DEFAULT_WORKER_L1_SIZE);
#else
    static std::shared_ptr<MeshDevice> create_unit_mesh(int device_id, size_t l1_small_size = DEFAULT_L1_SMALL_SIZE,
                                                        size_t trace_region_size = DEFAULT_TRACE_REGION_SIZE,
                                                        size_t num_command_queues = 1) {
        return host_detail::create_unit_mesh(device_id, l1_small_size, trace_region_size, num_command_queues);
    }
#endif

    ~MeshDevice() override;

    // The one command queue (id 0).
    MeshCommandQueue& mesh_command_queue(std::optional<uint8_t> cq_id = std::nullopt) const;

    // Closes the chip (see IDevice::close).
    bool close();

    const MeshShape& shape() const { return shape_; }
    size_t num_devices() const { return 1; }
    size_t num_rows() const { return 1; }
    size_t num_cols() const { return 1; }

    // The chip at a mesh coordinate (only (0, 0) exists).
    IDevice* get_device(const MeshCoordinate& coord);

private:
    explicit MeshDevice(int device_id);

    MeshShape shape_{1, 1};
    mutable MeshCommandQueue mesh_queue_;  // mesh_command_queue() is const, as in the SDK, and hands it out
};

}  // namespace tt::tt_metal::distributed
