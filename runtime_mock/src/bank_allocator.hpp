// Interleaved buffers of one kind of memory (DRAM banks, or the workers' L1 as banks): where each one
// lies, and which of its pages an access reaches.
//
// An interleaved buffer of P pages over B banks takes ceil(P / B) pages, each padded to the page
// alignment, at one common bank address in every bank: page i is in bank i % B at row i / B. The
// allocator hands out such per-bank ranges first-fit inside [low, high), bottom-up (DRAM) or top-down
// (L1 buffers, which the SDK places above the circular buffers), records each buffer's page size and
// page count, and checks accesses against the one buffer an address belongs to: the slots of pages
// >= P in the last row (the per-bank padding) and the memory past the per-bank range are not the
// buffer's, so an access reaching them is an error rather than a read of padding or of a neighbour.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace runtime_mock {

struct InterleavedBuffer {
    uint64_t address;         // bank address, the same in every bank
    uint64_t bytes_per_bank;  // reserved in each bank: whole rows of pages, rounded up to the buffer alignment
    uint64_t size_bytes;      // as allocated (the last page may be partial)
    uint32_t page_size;
    uint32_t aligned_page_size;  // distance between the rows of one bank
    uint64_t pages;              // ceil(size_bytes / page_size)
    uint32_t ordinal;            // the device's n-th buffer, from 0, DRAM and L1 counted together
    uint32_t shard_pages = 0;    // a sharded L1 buffer: pages per core (the host places them), else 0
};

class BankAllocator {
public:
    // `kind` names the memory in errors ("DRAM", "L1"); buffer starts are aligned to `alignment`,
    // pages to `page_alignment`.
    BankAllocator(const char* kind, uint32_t banks, uint64_t low, uint64_t high, uint64_t alignment,
                  uint32_t page_alignment, bool top_down);

    const char* kind() const { return kind_; }
    uint32_t banks() const { return banks_; }

    // Reserves a buffer of `size_bytes` in pages of `page_size` bytes, the device's `ordinal`-th; throws
    // ArgumentError for page size 0 and DeviceError when the memory is full.
    // `shard_pages` > 0: a buffer whose pages the caller places, that many in every bank (size_bytes is
    // then shard_pages * banks pages).
    const InterleavedBuffer& allocate(uint64_t size_bytes, uint32_t page_size, uint32_t ordinal,
                                      uint32_t shard_pages = 0);
    void deallocate(uint64_t address);

    // The buffer whose per-bank range holds bank address `address`, or nullptr.
    const InterleavedBuffer* find(uint64_t address) const;
    // The buffer that starts exactly at `address`, or nullptr (then no_buffer_at says why).
    const InterleavedBuffer* starting_at(uint64_t address) const;
    // "bank address 0x10040 is not the start of an allocated DRAM buffer (it lies inside the ...)"
    std::string no_buffer_at(uint64_t address) const;
    // The lowest-addressed buffer whose range overlaps [address, address + bytes), or nullptr.
    const InterleavedBuffer* first_overlapping(uint64_t address, uint64_t bytes) const;

    // The page that byte `address` of `bank` holds, counting the buffer's rows past its end.
    uint64_t page_at(const InterleavedBuffer& buffer, uint32_t bank, uint64_t address) const {
        return (address - buffer.address) / buffer.aligned_page_size * banks_ + bank;
    }
    // "DRAM buffer #0 at bank address 0x10000 (page size 2048 B, 6 pages)"
    std::string describe(const InterleavedBuffer& buffer) const;

    // The lowest allocated address (high when nothing is allocated).
    uint64_t lowest() const;

private:
    const char* kind_;
    uint32_t banks_;
    uint64_t low_, high_, alignment_;
    uint32_t page_alignment_;
    bool top_down_;
    std::map<uint64_t, InterleavedBuffer> buffers_;  // by address
};

// "0x1f00": how addresses appear in error messages.
std::string hex(uint64_t value);

}  // namespace runtime_mock
