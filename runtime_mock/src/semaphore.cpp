#include "semaphore.hpp"

#include <optional>

#include "l1.hpp"
#include "noc.hpp"

namespace runtime_mock {

using kernel_abi::KernelContext;

void semaphore_wait(KernelContext* ctx, volatile uint32_t* addr, uint32_t value, bool at_least, CallSite site) {
    KernelThread& thread = thread_of(ctx);
    RunState& run = *thread.run;
    const char* call = at_least ? "noc_semaphore_wait_min" : "noc_semaphore_wait";
    local_l1(thread, uint32_t(uintptr_t(addr)), 4, call, site);
    BlockedOn what;
    what.kind = BlockedOn::Kind::Semaphore;
    what.semaphore = addr;
    what.value = value;
    what.at_least = at_least;
    what.call = call;
    what.site = site;
    block_registered(
        thread, what,
        [&] {
            thread.semaphore_word.store(uintptr_t(addr));
            thread.on_semaphore.store(true);
            run.semaphore_waiters++;
        },
        [&] {
            run.semaphore_waiters--;
            thread.on_semaphore.store(false);
        });
}

void semaphore_set(KernelContext* ctx, volatile uint32_t* addr, uint32_t value, CallSite site) {
    KernelThread& thread = thread_of(ctx);
    if (thread.run->aborted.load())
        throw Aborted{};
    uint8_t* p = local_l1(thread, uint32_t(uintptr_t(addr)), 4, "noc_semaphore_set", site);
    race_local(thread, p, 4, true, true, "noc_semaphore_set", site);
    __atomic_store_n(reinterpret_cast<uint32_t*>(p), value, __ATOMIC_SEQ_CST);
    kernel_abi::note_progress(ctx);
    if (ctx->recording) {
        const uint32_t offset = uint32_t(p - thread.run->l1->core_memory(thread.core->l1_index));
        ctx->fn->record(ctx, kernel_abi::ProfileEvent{kernel_abi::EventKind::SemaphoreSet, kernel_abi::kNoFormat,
                                                      kernel_abi::kNoCb, 0, nullptr, 0, 0, value, offset});
    }
    wake_semaphore_waiters(*thread.run, p, 4);
}

void wake_semaphore_waiters(RunState& run, const void* begin, size_t size) {
    // The write before this call is a plain store: without the fence a waiter registering now could be
    // missed here while its own check still reads the old value.
    std::atomic_thread_fence(std::memory_order_seq_cst);
    if (run.semaphore_waiters.load() == 0)
        return;
    const uintptr_t first = uintptr_t(begin), end = first + size;
    const auto wake = [&](KernelThread& thread) {
        if (!thread.on_semaphore.load())
            return;
        const uintptr_t word = thread.semaphore_word.load();
        if (word >= first && word < end)
            thread.job->unpark();
    };
    // A kernel waits only on a word of its own core's L1 (semaphore_wait checks it), so only the kernels of
    // the core the write lands in can be waiting on it: a write checks 3 kernels, not all of the run's.
    const std::optional<L1::Location> where = run.l1->locate(first);
    if (where && where->core < run.core_at_l1_slot.size()) {
        if (CoreRun* core = run.core_at_l1_slot[where->core])
            for (KernelThread* thread : core->threads)
                wake(*thread);
        return;
    }
    for (auto& thread : run.threads)
        wake(*thread);
}

}  // namespace runtime_mock
