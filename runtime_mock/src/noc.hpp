// The NOC: decoding NOC addresses to memory and moving bytes (see runtime_mock/kernel_abi/noc.h for the address
// format and coordinates).
//
// Transfers are synchronous copies made when the kernel issues them; the issuing thread still tracks
// them as pending until the matching barrier, so protocol errors (pushing a CB page a read is still
// landing in, popping one a write is still reading from) are caught. Rules enforced: the target node
// is a worker of the grid or a DRAM bank; DRAM read addresses are aligned to the arch's DRAM alignment;
// L1 ranges lie inside L1 and L1 addresses are 16-byte aligned; multicast rectangles contain only
// workers and num_dests matches the rectangle. Buffers: a DRAM range, and an L1 range that touches an
// interleaved L1 buffer, must lie within the existing pages of the one buffer its start belongs to (not
// in the padding of the buffer's last row, not across into the next buffer); an address generator's
// page id must be below its buffer's page count (check_page).
#pragma once

#include <cstdint>

#include "scheduler.hpp"

namespace runtime_mock {

void noc_read(kernel_abi::KernelContext* ctx, uint64_t src, uint32_t dst, uint32_t size, CallSite site);
void noc_write(kernel_abi::KernelContext* ctx, uint32_t src, uint64_t dst, uint32_t size, CallSite site);
void noc_write_multicast(kernel_abi::KernelContext* ctx, uint32_t src, uint64_t dst, uint32_t size, uint32_t num_dests,
                         uint32_t flags, const char* call, CallSite site);
void noc_barrier(kernel_abi::KernelContext* ctx, bool reads, bool writes);
void check_pending(kernel_abi::KernelContext* ctx, uint32_t addr, uint32_t size, bool reads, const char* call,
                   CallSite site);
void check_l1(kernel_abi::KernelContext* ctx, uint32_t addr, uint32_t size, const char* call, CallSite site);
void check_page(kernel_abi::KernelContext* ctx, bool is_dram, uint64_t base, uint32_t page, uint32_t aligned_page_size,
                const char* call, CallSite site);
void semaphore_inc(kernel_abi::KernelContext* ctx, uint64_t addr, uint32_t increment, CallSite site);

// Race detection's record of a NOC or semaphore access of L1 (a no-op when it is off); `sync`: a semaphore
// write, which also releases the word's clock.
void race_l1(KernelThread& thread, uint32_t core, uint32_t offset, uint32_t size, bool write, bool sync,
             const char* call, CallSite site);
// race_l1 of [p, p + size) in the thread's own core's L1.
void race_local(KernelThread& thread, const uint8_t* p, uint32_t size, bool write, bool sync, const char* call,
                CallSite site);

// Pointer to [offset, offset + size) of this core's L1 given a local address (pointer value or offset).
uint8_t* local_l1(KernelThread& thread, uint32_t addr, uint32_t size, const char* call, CallSite site);

}  // namespace runtime_mock
