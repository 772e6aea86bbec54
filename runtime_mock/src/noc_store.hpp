// How a NOC transfer stores into L1: every destination byte exactly once.
//
// A NOC write lands in the destination's SRAM once per byte. std::memmove does not promise that: glibc's
// copy of 4 to 7 bytes loads the first and the last 4 bytes and stores both, so a 4-byte copy stores the
// same word twice, and its larger copies store overlapping head and tail vectors twice too. Between two
// such stores the host may preempt the copying thread for milliseconds. A semaphore written that way
// (noc_semaphore_set_multicast, noc_semaphore_set_remote) can be seen VALID by its receiver, set INVALID
// by it for the next block, and then be VALID again when the second store lands: the receiver takes a
// block that was never sent and increments the sender twice. That was the 2-D multicast matmul's deadlock
// (a sender's ready count one above its receiver count) and its occasional silently wrong result on hosts
// that run more lanes than CPUs (RUNTIME_MOCK_LANES, kernel_workers.hpp).
#pragma once

#include <cstddef>
#include <cstdint>

namespace runtime_mock {

// Copies `size` bytes from `from` to `to`, storing each byte of `to` once: aligned 4-byte words as one
// store each (a semaphore word changes in one step), the rest in 16-byte blocks and single bytes that do
// not overlap. Ranges that overlap are copied with memmove (a transfer onto its own source).
void store_once(uint8_t* to, const uint8_t* from, size_t size);

}  // namespace runtime_mock
