// Address allocation for interleaved buffers, the same in every bank.
//
// An interleaved buffer of P pages over B banks takes ceil(P / B) aligned pages in each bank at one
// common bank address. The allocator hands out such per-bank ranges first-fit inside [low, high),
// bottom-up (DRAM) or top-down (L1 buffers, which the SDK places above the circular buffers), and
// answers whether an access falls inside one allocation.
#pragma once

#include <cstdint>
#include <map>

namespace tt_mock {

class BankAllocator {
public:
    BankAllocator(uint64_t low, uint64_t high, uint64_t alignment, bool top_down);

    // Returns the bank address of a new range of `bytes` per bank; throws DeviceError when full.
    uint64_t allocate(uint64_t bytes, const char* what);
    void deallocate(uint64_t address, const char* what);
    // Whether [address, address + bytes) lies inside one allocated range.
    bool contains(uint64_t address, uint64_t bytes) const;
    // The lowest allocated address (high when nothing is allocated).
    uint64_t lowest() const;

private:
    uint64_t low_, high_, alignment_;
    bool top_down_;
    std::map<uint64_t, uint64_t> ranges_;  // address -> bytes
};

}  // namespace tt_mock
