// DRAM: `banks` separate byte arrays of the arch's bank size, each reached at its own NOC coordinate.
//
// Storage grows lazily in 1 MiB chunks: a chunk exists once an allocation covers it (a Wormhole bank is
// 1 GiB, a Blackhole bank 4 GiB; neither is ever allocated whole). Accesses must fall inside one
// allocated buffer; new chunks are zero-filled.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "bank_allocator.hpp"

namespace tt_mock {

class Dram {
public:
    Dram(uint32_t banks, uint64_t bank_bytes, uint32_t alignment);

    uint32_t banks() const { return banks_; }
    uint64_t allocate(uint64_t size_bytes, uint32_t page_size);
    void deallocate(uint64_t address);
    // Whether [address, address + bytes) of a bank lies inside one allocated buffer.
    bool contains(uint64_t address, uint64_t bytes) const { return allocator_.contains(address, bytes); }
    // Copies between host memory and a bank; the range must be allocated (see contains).
    void write(uint32_t bank, uint64_t address, const void* data, size_t bytes);
    void read(uint32_t bank, uint64_t address, void* data, size_t bytes) const;

private:
    static constexpr uint64_t kChunkBytes = uint64_t(1) << 20;
    uint32_t banks_;
    uint32_t alignment_;
    BankAllocator allocator_;
    std::vector<std::vector<std::unique_ptr<uint8_t[]>>> chunks_;  // [bank][chunk]
};

}  // namespace tt_mock
