#include "l1.hpp"

#include <sys/mman.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "runtime_mock/device.hpp"
#include "tt_mock_device/noc.h"

namespace tt_mock {

L1::L1(uint32_t num_cores, uint32_t l1_bytes)
    : num_cores_(num_cores),
      l1_bytes_(l1_bytes),
      buffers_("L1", num_cores, kL1UnreservedBase, l1_bytes, 32, tt_mock_device::kL1Alignment, true) {
    const size_t bytes = size_t(num_cores) * kSlotBytes;
    void* memory =
        mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT | MAP_NORESERVE, -1, 0);
    if (memory == MAP_FAILED) {
        throw DeviceError("cannot map " + std::to_string(bytes >> 20) + " MiB of L1 below 4 GiB (mmap MAP_32BIT): " +
                          std::strerror(errno) + "; close other mock devices in this process");
    }
    base_ = static_cast<uint8_t*>(memory);
}

L1::~L1() {
    if (!leaked_)
        munmap(base_, size_t(num_cores_) * kSlotBytes);
}

std::optional<L1::Location> L1::locate(uint64_t pointer_value) const {
    const uint64_t base = uintptr_t(base_);
    if (pointer_value < base || pointer_value >= base + uint64_t(num_cores_) * kSlotBytes)
        return std::nullopt;
    const uint64_t delta = pointer_value - base;
    return Location{uint32_t(delta / kSlotBytes), uint32_t(delta % kSlotBytes)};
}

}  // namespace tt_mock
