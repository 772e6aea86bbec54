// Semaphores: words in a core's L1 (kSemaphoreStride apart from semaphore_base) that kernels wait on
// (noc_semaphore_wait / _min) and set locally (noc_semaphore_set) or through the NOC (noc_semaphore_inc,
// remote and multicast writes: noc.cpp). A waiter registers the word it waits on; every L1 write by the
// NOC or a semaphore call wakes only the waiters on the words it wrote, so a stream of tile writes does
// not wake every waiting core. A plain store into the word wakes nobody: waiters also poll (their lane
// resumes them every millisecond while it is idle, kernel_workers.hpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include "scheduler.hpp"

namespace runtime_mock {

// Blocks until *addr == value (or >= value when at_least); throws on deadlock or abort.
void semaphore_wait(kernel_abi::KernelContext* ctx, volatile uint32_t* addr, uint32_t value, bool at_least,
                    CallSite site);

// Sets a semaphore of the calling core and wakes its waiters.
void semaphore_set(kernel_abi::KernelContext* ctx, volatile uint32_t* addr, uint32_t value, CallSite site);

// Wakes the threads blocked on a semaphore word inside [begin, begin + size) (called after every L1 write
// by a NOC or semaphore operation); the others sleep on.
void wake_semaphore_waiters(RunState& run, const void* begin, size_t size);

}  // namespace runtime_mock
