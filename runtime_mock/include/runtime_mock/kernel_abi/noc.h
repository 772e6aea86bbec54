// NOC addresses of the simulated device, shared by kernels and the runtime.
//
// A unicast NOC address is (y << 42) | (x << 36) | local_address, like the SDK's 36 local bits and 6-bit
// node ids. A multicast address packs the rectangle as (y_start << 54) | (x_start << 48) | (y_end << 42) |
// (x_end << 36) | local_address; the runtime normalises the corners to min/max, so NOC1-style swapped
// corners work. Coordinates:
//   worker core at logical (x, y)  ->  NOC (x + 1, y + 1)
//   DRAM bank b                    ->  NOC (0, b)
// A local address on a worker is either an L1 offset (< L1 size) or a pointer value into any core's L1
// (as returned by get_write_ptr, get_read_ptr, get_semaphore): its offset within that core's L1 is used.
// Interleaved buffers put page i in bank i % num_banks at bank address base + (i / num_banks) * aligned
// page size; DRAM pages are aligned to the arch's DRAM alignment, L1 pages to 16 bytes, and the L1 banks
// are the worker cores in row-major logical order. An L1 buffer's base is a pointer value into core
// (0,0)'s L1 (Device::allocate_l1), which the rule above turns into the same offset on the bank's core.
#pragma once

#include <cstdint>

namespace runtime_mock::kernel_abi {

constexpr uint32_t kNocLocalBits = 36;
constexpr uint32_t kNocNodeBits = 6;
constexpr uint64_t kNocLocalMask = (uint64_t(1) << kNocLocalBits) - 1;
constexpr uint32_t kNocNodeMask = (1u << kNocNodeBits) - 1;
constexpr uint32_t kL1Alignment = 16;

constexpr uint64_t noc_unicast_addr(uint32_t x, uint32_t y, uint64_t local) {
    return (uint64_t(y) << (kNocLocalBits + kNocNodeBits)) | (uint64_t(x) << kNocLocalBits) | (local & kNocLocalMask);
}

constexpr uint64_t noc_multicast_addr(uint32_t x_start, uint32_t y_start, uint32_t x_end, uint32_t y_end,
                                      uint64_t local) {
    return (uint64_t(y_start) << (kNocLocalBits + 3 * kNocNodeBits)) |
           (uint64_t(x_start) << (kNocLocalBits + 2 * kNocNodeBits)) | noc_unicast_addr(x_end, y_end, local);
}

constexpr uint32_t noc_x(uint64_t addr) {
    return uint32_t(addr >> kNocLocalBits) & kNocNodeMask;
}
constexpr uint32_t noc_y(uint64_t addr) {
    return uint32_t(addr >> (kNocLocalBits + kNocNodeBits)) & kNocNodeMask;
}
constexpr uint32_t noc_x_start(uint64_t addr) {
    return uint32_t(addr >> (kNocLocalBits + 2 * kNocNodeBits)) & kNocNodeMask;
}
constexpr uint32_t noc_y_start(uint64_t addr) {
    return uint32_t(addr >> (kNocLocalBits + 3 * kNocNodeBits)) & kNocNodeMask;
}
constexpr uint64_t noc_local(uint64_t addr) {
    return addr & kNocLocalMask;
}

constexpr uint32_t worker_noc_x(uint32_t logical_x) {
    return logical_x + 1;
}
constexpr uint32_t worker_noc_y(uint32_t logical_y) {
    return logical_y + 1;
}
constexpr uint32_t dram_bank_noc_x(uint32_t) {
    return 0;
}
constexpr uint32_t dram_bank_noc_y(uint32_t bank) {
    return bank;
}

constexpr uint32_t align_up(uint32_t value, uint32_t alignment) {
    return (value + alignment - 1) / alignment * alignment;
}

// The NOC address of page `page` of an interleaved buffer.
constexpr uint64_t interleaved_page_noc_addr(bool is_dram, uint32_t page, uint64_t base, uint32_t aligned_page_size,
                                             uint32_t offset, uint32_t num_dram_banks, uint32_t grid_x,
                                             uint32_t grid_y) {
    const uint32_t banks = is_dram ? num_dram_banks : grid_x * grid_y;
    const uint32_t bank = page % banks;
    const uint64_t local = base + uint64_t(page / banks) * aligned_page_size + offset;
    if (is_dram)
        return noc_unicast_addr(dram_bank_noc_x(bank), dram_bank_noc_y(bank), local);
    return noc_unicast_addr(worker_noc_x(bank % grid_x), worker_noc_y(bank / grid_x), local);
}

}  // namespace runtime_mock::kernel_abi
