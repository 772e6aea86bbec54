#include "l1.hpp"

#include <sys/mman.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "low_address_space.hpp"
#include "runtime_mock/device.hpp"
#include "tt_mock_device/noc.h"

namespace tt_mock {

namespace {

// A core's L1 and its guard, rounded to the low address space's 64 KiB granule.
uint64_t slot_bytes(uint32_t l1_bytes) {
    constexpr uint64_t granule = uint64_t(1) << 16;
    return (l1_bytes + L1::kGuardBytes + granule - 1) / granule * granule;
}

}  // namespace

L1::L1(uint32_t num_cores, uint32_t l1_bytes)
    : slot_bytes_(slot_bytes(l1_bytes)),
      num_cores_(num_cores),
      l1_bytes_(l1_bytes),
      buffers_("L1", num_cores, kL1UnreservedBase, l1_bytes, 32, tt_mock_device::kL1Alignment, true) {
    const std::string what = std::to_string(num_cores) + " cores of " + std::to_string(l1_bytes >> 10) + " KiB";
    base_ = low_address_space::reserve(pool_bytes(), what.c_str());
    for (uint32_t core = 0; core < num_cores; core++) {
        if (mprotect(core_memory(core), l1_bytes, PROT_READ | PROT_WRITE) != 0) {
            const int error = errno;
            low_address_space::release(base_, pool_bytes());
            throw DeviceError(std::string("cannot make L1 writable: mprotect: ") + std::strerror(error));
        }
    }
}

L1::~L1() {
    if (!leaked_)
        low_address_space::release(base_, pool_bytes());
}

std::optional<L1::Location> L1::locate(uint64_t pointer_value) const {
    const uint64_t first = uintptr_t(core_memory(0));
    if (pointer_value < first || pointer_value >= first + uint64_t(num_cores_) * slot_bytes_)
        return std::nullopt;
    const uint64_t delta = pointer_value - first;
    return Location{uint32_t(delta / slot_bytes_), uint32_t(delta % slot_bytes_)};
}

}  // namespace tt_mock
