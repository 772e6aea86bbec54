// IDevice (tt-metalium/device.hpp) over the simulated chip: the chip of the default arch for device 0,
// its grid, NOC coordinates and memory sizes from the arch's facts, and the closed state after close().
#include <runtime_mock/device.hpp>
#include <tt-metalium/allocator.hpp>
#include <tt-metalium/device.hpp>

namespace tt::tt_metal {

IDevice::IDevice(ChipId device_id) : id_(device_id), queue_(*this) {
    TT_FATAL(device_id == 0, "Device {} does not exist: the mock device has a single chip, device 0", device_id);
    device_ = std::make_shared<runtime_mock::Device>(runtime_mock::default_arch());
    allocator_ = std::make_unique<Allocator>(device_->spec());
}

IDevice::~IDevice() = default;

const std::unique_ptr<Allocator>& IDevice::allocator() const {
    mock();  // throws once closed
    return allocator_;
}

tt::ARCH IDevice::arch() const {
    return mock().spec().arch == runtime_mock::Arch::Blackhole ? tt::ARCH::BLACKHOLE : tt::ARCH::WORMHOLE_B0;
}

CoreCoord IDevice::compute_with_storage_grid_size() const {
    return {mock().spec().grid_x, mock().spec().grid_y};
}

CoreCoord IDevice::worker_core_from_logical_core(const CoreCoord& logical_core) const {
    const CoreCoord grid = compute_with_storage_grid_size();
    TT_FATAL(logical_core.x < grid.x && logical_core.y < grid.y, "Logical core {} is outside the {}x{} grid",
             logical_core.str(), grid.x, grid.y);
    const runtime_mock::LogicalCore noc =
        mock().worker_noc_coord({static_cast<uint32_t>(logical_core.x), static_cast<uint32_t>(logical_core.y)});
    return {noc.x, noc.y};
}

CoreCoord IDevice::virtual_core_from_logical_core(const CoreCoord& logical_core, const CoreType& core_type) const {
    TT_FATAL(core_type == CoreType::WORKER, "The mock device only has worker (Tensix) cores");
    return worker_core_from_logical_core(logical_core);
}

int IDevice::num_dram_channels() const {
    return static_cast<int>(mock().spec().dram_banks);
}

uint32_t IDevice::l1_size_per_core() const {
    return mock().spec().l1_bytes;
}

CommandQueue& IDevice::command_queue(std::optional<uint8_t> cq_id) {
    TT_FATAL(!cq_id || *cq_id == 0, "The mock device has one command queue (id 0), not {}", *cq_id);
    return queue_;
}

bool IDevice::close() {
    device_.reset();
    return true;
}

runtime_mock::Device& IDevice::mock() const {
    return *mock_shared();
}

std::shared_ptr<runtime_mock::Device> IDevice::mock_shared() const {
    TT_FATAL(device_ != nullptr, "Device {} is closed", id_);
    return device_;
}

}  // namespace tt::tt_metal
