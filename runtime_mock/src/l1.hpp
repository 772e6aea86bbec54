// L1: every worker core's SRAM, mapped below 4 GiB so kernels can dereference uint32 L1 addresses.
//
// One pool, reserved from the process's low address space (low_address_space.hpp), holds a slot per
// worker core of the grid: the core's l1_bytes, readable and writable, then an inaccessible guard of at
// least kGuardBytes, and the pool starts with one guard too. A core's L1 address `a` (0 <= a < l1_bytes)
// is the host pointer slot_base + a, and kernels see that pointer value as the address (get_write_ptr,
// get_semaphore, ...). A kernel that dereferences a pointer up to kGuardBytes past its L1 faults in the
// guard instead of writing the next core's L1 (the fault report names the core and offset); the NOC
// checks every transfer against the core's L1 size. Layout of each core's L1:
//   [0, reserved)             reserved like the SDK's firmware area (ArchSpec::l1_reserved_bytes, where the
//                             release places its first CB): runtime args of the three kernels (unique
//                             then common, 4 KiB per kernel) and the semaphores (16 B apart)
//   [reserved, ...)           circular buffers, allocated upwards, at the same address on every core
//   [..., l1_bytes)           interleaved L1 buffers, allocated downwards; `buffers()` works in offsets,
//                             Device hands out the matching pointer values of core 0 (see allocate_l1)
// A destroyed device's pool is zeroed on the scrubber thread and kept for the next device of the same grid
// (low_address_space::retire), so a program run over and over does not fault its L1 pages in on every
// call; every device starts from zeroed L1 either way, or, with RUNTIME_MOCK_L1_FILL=poison, from 0xff
// bytes above the reserved area.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

#include "bank_allocator.hpp"

namespace runtime_mock {

constexpr uint32_t kL1ArgsBase = 0x1000;
constexpr uint32_t kL1ArgsStride = 0x1000;  // per kernel role: unique args, then common args at +0x800
constexpr uint32_t kL1CommonArgsOffset = 0x800;
constexpr uint32_t kL1SemaphoreBase = 0x4000;

class L1 {
public:
    // `reserved_bytes`: the L1 below the first circular buffer, where L1 buffers may not reach.
    L1(uint32_t num_cores, uint32_t l1_bytes, uint32_t reserved_bytes);
    L1(const L1&) = delete;
    L1& operator=(const L1&) = delete;

    uint32_t l1_bytes() const { return l1_bytes_; }
    uint8_t* core_memory(uint32_t core) const { return base_ + kGuardBytes + uint64_t(core) * slot_bytes_; }
    // The uint32 pointer value kernels use for L1 address `offset` of `core`.
    uint32_t address(uint32_t core, uint32_t offset) const { return uint32_t(uintptr_t(core_memory(core)) + offset); }

    struct Location {
        uint32_t core;
        uint32_t offset;
    };
    // Resolves a pointer value into the pool to (core, offset); nullopt when it is not one. An offset at
    // or past l1_bytes lies in the guard after the core's L1.
    std::optional<Location> locate(uint64_t pointer_value) const;

    BankAllocator& buffers() { return buffers_; }
    const BankAllocator& buffers() const { return buffers_; }
    // The pool's mapping, to keep alive for kernel threads that did not return: it is retired (unmapped or
    // kept for the next device) when the last of the L1 and the holders of this lets go of it.
    std::shared_ptr<void> share_mapping() const { return mapping_; }
    // Whether the device's L1 started as the poison fill (RUNTIME_MOCK_L1_FILL=poison, kernel_abi/l1_fill.h).
    bool poisoned() const { return poisoned_; }

    static constexpr uint64_t kGuardBytes = uint64_t(256) << 10;

private:
    size_t pool_bytes() const { return kGuardBytes + size_t(num_cores_) * slot_bytes_; }
    // What makes two pools interchangeable: their core count and L1 size (low_address_space::reuse).
    uint64_t layout() const { return uint64_t(num_cores_) << 32 | l1_bytes_; }
    // Zeroes the pages of [memory, memory + bytes) that are in memory (the others read as zeros when first
    // touched): a retired pool holds its device's data, and the next device must start from zeroed L1, as
    // it does from a fresh mapping.
    static void zero_resident_pages(uint8_t* memory, size_t bytes);

    uint64_t slot_bytes_;
    uint8_t* base_ = nullptr;
    std::shared_ptr<uint8_t> mapping_;  // base_, retired by its deleter
    uint32_t num_cores_;
    uint32_t l1_bytes_;
    BankAllocator buffers_;
    bool poisoned_ = false;
};

}  // namespace runtime_mock
