#include "circular_buffer.hpp"

namespace runtime_mock {

using kernel_abi::KernelContext;

void cb_block(KernelContext* ctx, uint32_t cb, uint32_t pages, bool producer, const char* call, CallSite site) {
    KernelThread& thread = thread_of(ctx);
    std::atomic<uint32_t>& flag =
        producer ? thread.core->core.cbs[cb].producer_blocked : thread.core->core.cbs[cb].consumer_blocked;
    std::atomic<KernelThread*>& waiter = thread.core->cb_waiters[cb][producer ? 1 : 0];
    BlockedOn what;
    what.kind = producer ? BlockedOn::Kind::CbFree : BlockedOn::Kind::CbFilled;
    what.cb = cb;
    what.pages = pages;
    what.call = call;
    what.site = site;
    // enter() sets the flag (seq_cst) before block_until_satisfied checks the condition; the partner
    // publishes its pages before it reads the flag (seq_cst). So either the partner sees the flag and
    // unparks this thread (an unpark before the park makes the park return at once), or our check sees
    // its pages.
    block_registered(
        thread, what,
        [&] {
            waiter.store(&thread);
            flag.store(1, std::memory_order_seq_cst);
        },
        [&] {
            flag.store(0, std::memory_order_seq_cst);
            waiter.store(nullptr);
        });
}

void cb_wake(KernelContext* ctx, uint32_t cb, bool wake_producer) {
    KernelThread& thread = thread_of(ctx);
    if (KernelThread* waiter = thread.core->cb_waiters[cb][wake_producer ? 1 : 0].load())
        waiter->job->unpark();
}

}  // namespace runtime_mock
