// DRAM: `banks` separate byte arrays of the arch's bank size, each reached at its own NOC coordinate.
//
// Storage grows lazily in 1 MiB chunks: a chunk exists once an allocation covers it (a Wormhole bank is
// 1 GiB, a Blackhole bank 4 GiB; neither is ever allocated whole). A chunk is either a fresh anonymous
// mapping (zero, and only the pages an access touches cost memory and time) or one recycled from a
// device that no longer exists: a host program creates a device per call, and re-using the last call's
// chunks saves a page fault per 4 KiB the next call touches and the unmapping. A recycled chunk is zeroed
// on the scrubber thread (scrubber.hpp) before it is pooled, so DRAM this device has not written reads as
// zeros either way, and the next call's allocations do not wait for the zeroing. A device whose run abandoned kernel
// threads (which may still write its DRAM) unmaps its chunks instead of recycling them (never_recycle). Which buffer an
// address belongs to, and which of its pages an access reaches, is the allocator's business (buffers()); callers check
// accesses there before they copy.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "bank_allocator.hpp"

namespace runtime_mock {

class Dram {
public:
    Dram(uint32_t banks, uint64_t bank_bytes, uint32_t alignment);

    // Reserves an interleaved buffer (see BankAllocator::allocate) and the storage under it.
    const InterleavedBuffer& allocate(uint64_t size_bytes, uint32_t page_size, uint32_t ordinal);
    void deallocate(uint64_t address) { allocator_.deallocate(address); }
    const BankAllocator& buffers() const { return allocator_; }
    // Copies between host memory and a bank; the range must lie in an allocated buffer.
    void write(uint32_t bank, uint64_t address, const void* data, size_t bytes);
    void read(uint32_t bank, uint64_t address, void* data, size_t bytes) const;
    // read() for the NOC: into a core's L1, storing each byte once (noc_store.hpp).
    void read_into_l1(uint32_t bank, uint64_t address, uint8_t* l1, size_t bytes) const;
    // Kernel threads that never returned may still write this DRAM: no later device gets its chunks.
    void never_recycle() { recyclable_ = false; }

    ~Dram();
    Dram(const Dram&) = delete;
    Dram& operator=(const Dram&) = delete;

    static constexpr uint64_t kChunkBytes = uint64_t(1) << 20;  // the unit of storage

private:
    // Storage is mapped in chunks as allocations reach them. Every chunk is zero when its device gets it
    // (a fresh mapping, or one an earlier device used and the scrubber zeroed), so every buffer starts
    // zeroed; `used` is how far into it allocations reached, all a kernel or the host can have written.
    struct Chunk {
        uint8_t* memory = nullptr;  // nullptr until an allocation covers it
        uint64_t used = 0;
    };
    // A zeroed chunk from an earlier device when the pool has one, else a fresh mapping.
    static uint8_t* new_chunk();
    // Calls copy(bank memory, offset into the caller's range, bytes) for each chunk [address, address + bytes)
    // spans, in order.
    template <typename Copy>
    void for_each_piece(uint32_t bank, uint64_t address, size_t bytes, Copy copy) const;

    BankAllocator allocator_;
    std::vector<std::vector<Chunk>> chunks_;  // [bank][chunk]
    bool recyclable_ = true;
};

}  // namespace runtime_mock
