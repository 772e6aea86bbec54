// What never-written L1 holds under RUNTIME_MOCK_L1_FILL=poison, and the test for a read of it.
//
// A device made with the poison fill starts with 0xff in every L1 byte above the reserved area (NaN in
// every float format). A read of a whole tile or page whose every byte still holds it reads L1 that
// nothing wrote in this program: a never-filled CB page, an uninitialised scratch buffer. Data a kernel
// computed or fetched is never all 0xff across a whole tile (that would be a tile of one NaN pattern),
// so the test has no false alarms on real data, and a partly written page (a vector in one column of its
// tile, padding) does not trip it.
#pragma once

#include <cstdint>
#include <cstring>

namespace runtime_mock::kernel_abi {

constexpr uint8_t kL1PoisonByte = 0xff;

// Reads shorter than this are not tested: a word of -1 or a flag of all ones is real data.
constexpr uint32_t kL1PoisonMinBytes = 32;

// Whether all `bytes` bytes at `addr` still hold the poison fill (false below kL1PoisonMinBytes).
inline bool holds_only_poison(const void* addr, uint32_t bytes) {
    const auto* p = static_cast<const uint8_t*>(addr);
    if (bytes < kL1PoisonMinBytes || p[0] != kL1PoisonByte)  // real data differs at once: one load decides
        return false;
    for (uint32_t i = 1; i < bytes; i++)
        if (p[i] != kL1PoisonByte)
            return false;
    return true;
}

}  // namespace runtime_mock::kernel_abi
