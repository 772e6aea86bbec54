// Circular buffers, runtime side: a kernel's wait for CB pages, and the wake-up of the partner waiting on
// the other side. The ring itself, its pointers and the fast path of every cb_* call run inline in the
// kernel (runtime_mock/kernel_abi/circular_buffer.h, which states the model); a call reaches the runtime only to
// wait (cb_block) or, after a push or pop, to wake a partner that registered as waiting (cb_wake). Each
// side of a CB has at most one waiter, recorded in CoreRun::cb_waiters.
#pragma once

#include <cstdint>

#include "scheduler.hpp"

namespace runtime_mock {

// Blocks until the CB has `pages` free (producer) or filled (consumer) pages; throws on deadlock or abort.
void cb_block(kernel_abi::KernelContext* ctx, uint32_t cb, uint32_t pages, bool producer, const char* call,
              CallSite site);

// Wakes the consumer (wake_producer=false) or the producer waiting on the CB, if one is.
void cb_wake(kernel_abi::KernelContext* ctx, uint32_t cb, bool wake_producer);

}  // namespace runtime_mock
