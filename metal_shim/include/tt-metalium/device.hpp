// IDevice: one simulated chip (a runtime_mock::Device) seen through the SDK's device interface. The
// mock has a single chip, device 0, of the arch chosen by runtime_mock::set_default_arch() or
// $RUNTIME_MOCK_ARCH (Wormhole by default). close() frees the simulated memory; using the device
// afterwards is an error. Defined in metal_shim/src/device.cpp.
#pragma once

#include <tt-metalium/command_queue.hpp>
#include <tt-metalium/core_coord.hpp>
#include <tt-metalium/data_types.hpp>
#include <tt_stl/assert.hpp>

#include <cstdint>
#include <memory>
#include <optional>

namespace runtime_mock {
class Device;
}  // namespace runtime_mock

namespace tt::tt_metal {

class Allocator;

using ChipId = int;

class IDevice {
public:
    // Opens the chip; throws for any id but 0.
    explicit IDevice(ChipId device_id);
    IDevice(const IDevice&) = delete;
    IDevice& operator=(const IDevice&) = delete;
    virtual ~IDevice();

    ChipId id() const { return id_; }

    tt::ARCH arch() const;

    CoreCoord compute_with_storage_grid_size() const;
    CoreCoord logical_grid_size() const { return compute_with_storage_grid_size(); }

    // NOC coordinates of a logical worker core (what kernels pass to get_noc_addr); throws outside the grid.
    CoreCoord worker_core_from_logical_core(const CoreCoord& logical_core) const;

    // The same, for core_type WORKER (the mock has no other cores).
    CoreCoord virtual_core_from_logical_core(const CoreCoord& logical_core, const CoreType& core_type) const;

    int num_dram_channels() const;
    uint32_t l1_size_per_core() const;

    // Its memory's alignments and banks (allocator.hpp); throws once the device is closed.
    const std::unique_ptr<Allocator>& allocator() const;

    // The one command queue (id 0).
    CommandQueue& command_queue(std::optional<uint8_t> cq_id = std::nullopt);

    bool is_initialized() const { return device_ != nullptr; }

    bool close();

    // The simulated chip behind this device (shim-specific); buffers keep a weak reference to it. Throws
    // once the device is closed.
    runtime_mock::Device& mock() const;
    std::shared_ptr<runtime_mock::Device> mock_shared() const;

private:
    ChipId id_;
    CommandQueue queue_;
    std::shared_ptr<runtime_mock::Device> device_;
    std::unique_ptr<Allocator> allocator_;
};

}  // namespace tt::tt_metal
