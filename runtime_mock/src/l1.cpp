#include "l1.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "config.hpp"
#include "low_address_space.hpp"
#include "runtime_mock/kernel_abi/l1_fill.h"
#include "scrubber.hpp"
#include "runtime_mock/device.hpp"
#include "runtime_mock/kernel_abi/noc.h"

namespace runtime_mock {

namespace {

// A core's L1 and its guard, rounded to the low address space's 64 KiB granule.
uint64_t slot_bytes(uint32_t l1_bytes) {
    constexpr uint64_t granule = uint64_t(1) << 16;
    return (l1_bytes + L1::kGuardBytes + granule - 1) / granule * granule;
}

}  // namespace

L1::L1(uint32_t num_cores, uint32_t l1_bytes, uint32_t reserved_bytes)
    : slot_bytes_(slot_bytes(l1_bytes)),
      num_cores_(num_cores),
      l1_bytes_(l1_bytes),
      buffers_("L1", num_cores, reserved_bytes, l1_bytes, 32, kernel_abi::kL1Alignment, true) {
    const bool poison = config::poison_fresh_l1();  // before taking address space: it may throw
    base_ = low_address_space::reuse(pool_bytes(), layout());
    if (base_ == nullptr) {
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
    mapping_ = std::shared_ptr<uint8_t>(base_, [pool_bytes = pool_bytes(), layout = layout(), num_cores, l1_bytes,
                                                slot_bytes = slot_bytes_](uint8_t* base) {
        low_address_space::retire(base, pool_bytes, layout, [=](uint8_t* retired) {
            for (uint32_t core = 0; core < num_cores; core++)
                zero_resident_pages(retired + kGuardBytes + uint64_t(core) * slot_bytes, l1_bytes);
        });
    });
    // The reserved area keeps its zeros: the runtime writes what lives there (arguments, semaphores) itself.
    if (poison) {
        for (uint32_t core = 0; core < num_cores; core++)
            std::memset(core_memory(core) + reserved_bytes, kernel_abi::kL1PoisonByte, l1_bytes - reserved_bytes);
        poisoned_ = true;
    }
}

void L1::zero_resident_pages(uint8_t* memory, size_t bytes) {
    const size_t page = size_t(sysconf(_SC_PAGESIZE));
    std::vector<unsigned char> resident((bytes + page - 1) / page);
    if (mincore(memory, bytes, resident.data()) != 0) {  // cannot tell: zero all of it
        scrubber::zero(memory, bytes);
        return;
    }
    for (size_t first = 0; first < resident.size();) {
        if (!(resident[first] & 1)) {
            first++;
            continue;
        }
        size_t end = first;
        while (end < resident.size() && (resident[end] & 1))
            end++;
        scrubber::zero(memory + first * page, std::min<size_t>(end * page, bytes) - first * page);
        first = end;
    }
}

std::optional<L1::Location> L1::locate(uint64_t pointer_value) const {
    const uint64_t first = uintptr_t(core_memory(0));
    if (pointer_value < first || pointer_value >= first + uint64_t(num_cores_) * slot_bytes_)
        return std::nullopt;
    const uint64_t delta = pointer_value - first;
    return Location{uint32_t(delta / slot_bytes_), uint32_t(delta % slot_bytes_)};
}

}  // namespace runtime_mock
