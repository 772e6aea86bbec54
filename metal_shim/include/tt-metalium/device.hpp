// IDevice: one simulated chip (a tt_mock::Device) seen through the SDK's device interface. The
// mock has a single chip, device 0, of the arch chosen by tt_mock::set_default_arch() or
// $TT_METAL_MOCK_ARCH (Wormhole by default). close() frees the simulated memory; using the device
// afterwards is an error.
#pragma once

#include <runtime_mock/device.hpp>
#include <tt-metalium/command_queue.hpp>
#include <tt-metalium/core_coord.hpp>
#include <tt-metalium/data_types.hpp>
#include <tt_stl/assert.hpp>

#include <cstdint>
#include <memory>
#include <optional>

namespace tt::tt_metal {

using ChipId = int;

class IDevice {
public:
    explicit IDevice(ChipId device_id) : id_(device_id), queue_(*this) {
        TT_FATAL(device_id == 0, "Device {} does not exist: the mock device has a single chip, device 0", device_id);
        device_ = std::make_shared<tt_mock::Device>(tt_mock::default_arch());
    }
    IDevice(const IDevice&) = delete;
    IDevice& operator=(const IDevice&) = delete;
    virtual ~IDevice() = default;

    ChipId id() const { return id_; }

    tt::ARCH arch() const {
        return mock().spec().arch == tt_mock::Arch::Blackhole ? tt::ARCH::BLACKHOLE : tt::ARCH::WORMHOLE_B0;
    }

    CoreCoord compute_with_storage_grid_size() const { return {mock().spec().grid_x, mock().spec().grid_y}; }
    CoreCoord logical_grid_size() const { return compute_with_storage_grid_size(); }

    // NOC coordinates of a logical worker core (what kernels pass to get_noc_addr).
    CoreCoord worker_core_from_logical_core(const CoreCoord& logical_core) const {
        const CoreCoord grid = compute_with_storage_grid_size();
        TT_FATAL(logical_core.x < grid.x && logical_core.y < grid.y, "Logical core {} is outside the {}x{} grid",
                 logical_core.str(), grid.x, grid.y);
        const tt_mock::LogicalCore noc =
            mock().worker_noc_coord({static_cast<uint32_t>(logical_core.x), static_cast<uint32_t>(logical_core.y)});
        return {noc.x, noc.y};
    }

    CoreCoord virtual_core_from_logical_core(const CoreCoord& logical_core, const CoreType& core_type) const {
        TT_FATAL(core_type == CoreType::WORKER, "The mock device only has worker (Tensix) cores");
        return worker_core_from_logical_core(logical_core);
    }

    int num_dram_channels() const { return static_cast<int>(mock().spec().dram_banks); }
    uint32_t l1_size_per_core() const { return mock().spec().l1_bytes; }

    CommandQueue& command_queue(std::optional<uint8_t> cq_id = std::nullopt) {
        TT_FATAL(!cq_id || *cq_id == 0, "The mock device has one command queue (id 0), not {}", *cq_id);
        return queue_;
    }

    bool is_initialized() const { return device_ != nullptr; }

    bool close() {
        device_.reset();
        return true;
    }

    // The simulated chip behind this device (shim-specific); buffers keep a weak reference to it.
    tt_mock::Device& mock() const { return *mock_shared(); }
    std::shared_ptr<tt_mock::Device> mock_shared() const {
        TT_FATAL(device_ != nullptr, "Device {} is closed", id_);
        return device_;
    }

private:
    ChipId id_;
    CommandQueue queue_;
    std::shared_ptr<tt_mock::Device> device_;
};

}  // namespace tt::tt_metal
