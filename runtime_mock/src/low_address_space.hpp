// The part of the process's address space below 4 GiB, shared by the L1 of every mock device.
//
// Kernels hold L1 addresses as uint32 values and dereference them, so every core's L1 must be mapped at
// a host address below 4 GiB. That range is a process-wide resource: the devices alive in a process
// take disjoint reservations from [1 GiB, 4 GiB) (below 1 GiB are the heap of non-PIE executables and
// the MAP_32BIT area). A reservation is found in the gaps of /proc/self/maps and claimed with
// mmap(MAP_FIXED_NOREPLACE) as PROT_NONE; its owner opens the parts it uses read/write. When no gap is
// large enough, reserve() waits (config::l1_wait_seconds) for another device to release its L1, then
// fails with an error saying what holds the range.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

namespace runtime_mock::low_address_space {

// Maps `bytes` (a multiple of the page size) of inaccessible memory ending at or below 4 GiB; `what`
// names the requester in the error. Throws DeviceError when the wait for space runs out.
uint8_t* reserve(size_t bytes, const char* what);
// Unmaps a reservation and wakes threads waiting for space.
void release(uint8_t* base, size_t bytes);
// Takes a reservation its owner is done with, pages and protections as they are. The scrubber thread runs
// `zero` on it (the owner knows which pages it used), then keeps it for the next owner of the same layout
// (`layout` names it: the same bytes are not enough), which touches pages already mapped instead of
// faulting each one in again. At most two are kept once zeroed (older ones are unmapped), and reserve()
// unmaps them before it waits for space.
void retire(uint8_t* base, size_t bytes, uint64_t layout, std::function<void(uint8_t*)> zero);
// A retired reservation of `layout` and `bytes`, zeroed, now the caller's; nullptr when there is none.
// When the only one is still being zeroed, the first such call for a layout returns nullptr, so that the
// caller maps a second reservation and the two alternate; later calls wait for the zeroing to finish.
uint8_t* reuse(size_t bytes, uint64_t layout);
// Bytes currently reserved in this process (tests check that abandoned runs give theirs back).
size_t reserved_bytes();

}  // namespace runtime_mock::low_address_space
