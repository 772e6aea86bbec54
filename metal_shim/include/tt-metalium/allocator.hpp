// Allocator: what a device's memory allocator tells host code about its banks (IDevice::allocator()): the
// alignment of each buffer type's pages and the number of banks, from the simulated arch's facts. The
// mock device does the allocating itself (runtime_mock::Device). Defined in metal_shim/src/allocator.cpp.
#pragma once

#include <tt-metalium/buffer_types.hpp>

#include <cstdint>

namespace runtime_mock {
struct ArchSpec;
}  // namespace runtime_mock

namespace tt::tt_metal {

class Allocator {
public:
    explicit Allocator(const runtime_mock::ArchSpec& arch) : arch_(arch) {}

    // Bytes every page of a buffer of that type is padded to (DRAM or L1; throws for the others).
    uint32_t get_alignment(BufferType buffer_type) const;
    // DRAM banks, or worker cores for L1 (throws for the others).
    uint32_t get_num_banks(const BufferType& buffer_type) const;

private:
    const runtime_mock::ArchSpec& arch_;
};

}  // namespace tt::tt_metal
