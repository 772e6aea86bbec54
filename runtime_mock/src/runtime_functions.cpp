// The RuntimeFunctions table kernels call: error and warning reporting, blocking on circular buffers and
// semaphores, waking partners (under the waiter's own mutex, see run_state.hpp), DPRINT output and the timing
// record (profile_event.h). NOC transfers live in noc.cpp, the tile matrix product in tile_matmul.cpp.
#include <cstdio>
#include <cstring>
#include <mutex>

#include "noc.hpp"
#include "run_state.hpp"
#include "tile_matmul.hpp"

namespace tt_mock {

namespace {

using tt_mock_device::KernelContext;

void fail(KernelContext* ctx, ErrorKind kind, const char* call, const char* message, CallSite site) {
    throw KernelFault{kind, describe(thread_of(ctx), call, site) + ": " + message};
}

// Prints "tt_mock warning: core (x,y) <role> [<kernel>]: <call> at <file>:<line>: <message>" to stderr the
// first time a call site warns in this run.
void warn(KernelContext* ctx, const char* call, const char* message, CallSite site) {
    KernelThread& thread = thread_of(ctx);
    RunState& run = *thread.run;
    std::lock_guard<std::mutex> lock(run.warnings_mutex);
    if (!run.warned_sites.emplace(site.file, site.line).second)
        return;
    std::fprintf(stderr, "tt_mock warning: %s: %s\n", describe(thread, call, site).c_str(), message);
    std::fflush(stderr);
}

// Blocks on `what`, calling `enter` before and `leave` after the wait (also when it unwinds).
template <typename Register, typename Unregister>
void block_registered(KernelThread& thread, const BlockedOn& what, Register enter, Unregister leave) {
    enter();
    try {
        block_until_satisfied(thread, what);
    } catch (...) {
        leave();
        throw;
    }
    leave();
}

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
    // enter() sets the flag (seq_cst) before block_until_satisfied takes this thread's park mutex and
    // checks the condition; the partner publishes its pages before it reads the flag (seq_cst). So
    // either the partner sees the flag and notifies under the park mutex (which it cannot take between
    // our check and our wait), or our check sees its pages.
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
    if (KernelThread* waiter = thread.core->cb_waiters[cb][wake_producer ? 1 : 0].load()) {
        std::lock_guard<std::mutex> park(waiter->park);
        waiter->cv.notify_all();
    }
}

// Appends to the thread's timing record; consecutive identical compute calls merge into one event.
void record(KernelContext* ctx, const tt_mock_device::ProfileEvent& event) {
    std::vector<tt_mock_device::ProfileEvent>& events = thread_of(ctx).events;
    if (event.kind == tt_mock_device::EventKind::Compute && !events.empty()) {
        tt_mock_device::ProfileEvent& last = events.back();
        if (last.kind == event.kind && last.format == event.format &&
            (last.name == event.name || std::strcmp(last.name, event.name) == 0)) {
            last.count += event.count;
            return;
        }
    }
    events.push_back(event);
}

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
    __atomic_store_n(reinterpret_cast<uint32_t*>(p), value, __ATOMIC_SEQ_CST);
    tt_mock_device::note_progress(ctx);
    if (ctx->recording) {
        const uint32_t offset = uint32_t(p - thread.run->l1->core_memory(thread.core->l1_index));
        record(ctx, tt_mock_device::ProfileEvent{tt_mock_device::EventKind::SemaphoreSet, tt_mock_device::kNoFormat,
                                                 tt_mock_device::kNoCb, 0, nullptr, 0, 0, value, offset});
    }
    wake_semaphore_waiters(*thread.run, p, 4);
}

void print(KernelContext* ctx, const char* text, size_t length) {
    static std::mutex mutex;
    const KernelThread& thread = thread_of(ctx);
    std::lock_guard<std::mutex> lock(mutex);
    std::fprintf(stdout, "[core (%u,%u) %s] %.*s\n", thread.core->core.logical_x, thread.core->core.logical_y,
                 role_name(thread.role), int(length), text);
    std::fflush(stdout);
}

}  // namespace

tt_mock_device::RuntimeFunctions runtime_functions() {
    tt_mock_device::RuntimeFunctions f{};
    f.fail = fail;
    f.warn = warn;
    f.cb_block = cb_block;
    f.cb_wake = cb_wake;
    f.check_pending = check_pending;
    f.noc_read = noc_read;
    f.noc_write = noc_write;
    f.noc_write_multicast = noc_write_multicast;
    f.noc_barrier = noc_barrier;
    f.semaphore_wait = semaphore_wait;
    f.semaphore_set = semaphore_set;
    f.semaphore_inc = semaphore_inc;
    f.check_l1 = check_l1;
    f.check_page = check_page;
    f.print = print;
    f.record = record;
    f.tile_matmul = tile_matmul::selected();
    f.tile_matmul_bf16 = tile_matmul::bf16_selected();
    return f;
}

}  // namespace tt_mock
