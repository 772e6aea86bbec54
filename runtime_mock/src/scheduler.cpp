// Kernel threads of a run: starting them, blocking and waking them, deadlock detection, the no-progress
// watchdog, and turning the first error into a DeviceError. See run_state.hpp for the model.
#include <chrono>
#include <cstdio>
#include <sstream>
#include <system_error>

#include "run_state.hpp"
#include "tt_mock_device/circular_buffer.h"

namespace tt_mock {

KernelThread& thread_of(tt_mock_device::KernelContext* ctx) {
    return *static_cast<KernelThread*>(ctx->thread);
}

const char* role_name(KernelRole role) {
    switch (role) {
        case KernelRole::DataMovement0:
            return "RISCV_0 (BRISC)";
        case KernelRole::DataMovement1:
            return "RISCV_1 (NCRISC)";
        case KernelRole::Compute:
            return "compute (TRISC)";
    }
    return "?";
}

std::string describe(const KernelThread& thread, const char* call, CallSite site) {
    std::ostringstream out;
    out << "core (" << thread.core->core.logical_x << "," << thread.core->core.logical_y << ") "
        << role_name(thread.role) << " [" << thread.source_path << "]: " << call;
    if (site.file != nullptr && *site.file != '\0')
        out << " at " << site.file << ":" << site.line;
    return out.str();
}

void abort_run_locked(RunState& run, ErrorKind kind, const std::string& message) {
    if (run.error.empty()) {
        run.error = message;
        run.error_kind = kind;
    }
    run.aborted.store(true);
    for (auto& thread : run.threads)
        thread->cv.notify_all();
    run.done.notify_all();
}

bool is_satisfied(const KernelThread& thread) {
    const BlockedOn& what = thread.blocked;
    switch (what.kind) {
        case BlockedOn::Kind::None:
            return true;
        case BlockedOn::Kind::CbFree: {
            const auto& b = thread.core->core.cbs[what.cb];
            return b.num_pages - tt_mock_device::cb_pages_filled(b) >= what.pages;
        }
        case BlockedOn::Kind::CbFilled:
            return tt_mock_device::cb_pages_filled(thread.core->core.cbs[what.cb]) >= what.pages;
        case BlockedOn::Kind::Semaphore: {
            const uint32_t value = __atomic_load_n(what.semaphore, __ATOMIC_SEQ_CST);
            return what.at_least ? value >= what.value : value == what.value;
        }
    }
    return true;
}

namespace {

std::string blocked_description(const KernelThread& thread) {
    const BlockedOn& what = thread.blocked;
    std::ostringstream out;
    out << "  " << describe(thread, what.call, what.site) << ": ";
    switch (what.kind) {
        case BlockedOn::Kind::CbFree: {
            const auto& b = thread.core->core.cbs[what.cb];
            out << "waits for " << what.pages << " free pages of CB " << what.cb << " (" << b.num_pages << " pages, "
                << b.num_pages - tt_mock_device::cb_pages_filled(b) << " free)";
            break;
        }
        case BlockedOn::Kind::CbFilled: {
            const auto& b = thread.core->core.cbs[what.cb];
            out << "waits for " << what.pages << " filled pages of CB " << what.cb << " ("
                << tt_mock_device::cb_pages_filled(b) << " available)";
            break;
        }
        case BlockedOn::Kind::Semaphore:
            out << "waits for semaphore at L1 0x" << std::hex << uintptr_t(what.semaphore) << std::dec << " to be "
                << (what.at_least ? ">= " : "== ") << what.value << " (now " << *what.semaphore << ")";
            break;
        case BlockedOn::Kind::None:
            out << "running";
            break;
    }
    return out.str();
}

// Under the mutex: every live thread is blocked and none of them can proceed.
bool deadlocked(const RunState& run) {
    if (run.live == 0 || run.blocked != run.live)
        return false;
    for (const auto& thread : run.threads) {
        if (!thread->finished && thread->blocked.kind != BlockedOn::Kind::None && is_satisfied(*thread))
            return false;
    }
    return true;
}

std::string deadlock_report(const RunState& run) {
    std::string report =
        "deadlock: every running kernel is blocked and none can proceed (check the CB page counts and the "
        "order of reserve/push and wait/pop between the kernels):";
    for (const auto& thread : run.threads) {
        if (!thread->finished)
            report += "\n" + blocked_description(*thread);
    }
    return report;
}

void check_deadlock_locked(RunState& run) {
    if (deadlocked(run))
        abort_run_locked(run, ErrorKind::Deadlock, deadlock_report(run));
}

}  // namespace

void block_until_satisfied(KernelThread& thread, std::unique_lock<std::mutex>& lock, const BlockedOn& what) {
    RunState& run = *thread.run;
    thread.blocked = what;
    run.blocked++;
    const bool poll = what.kind == BlockedOn::Kind::Semaphore;
    while (true) {
        if (run.aborted.load())
            break;
        if (is_satisfied(thread))
            break;
        check_deadlock_locked(run);
        if (run.aborted.load())
            break;
        if (poll) {
            thread.cv.wait_for(lock, std::chrono::milliseconds(1));
        } else {
            thread.cv.wait(lock);
        }
    }
    run.blocked--;
    thread.blocked = BlockedOn{};
    if (run.aborted.load())
        throw Aborted{};
}

void wake_semaphore_waiters(RunState& run) {
    if (run.semaphore_waiters.load() == 0)
        return;
    std::lock_guard<std::mutex> lock(run.mutex);
    for (auto& thread : run.threads) {
        if (thread->blocked.kind == BlockedOn::Kind::Semaphore)
            thread->cv.notify_all();
    }
}

namespace {

void thread_main(KernelThread& thread) {
    RunState& run = *thread.run;
    std::string error;
    ErrorKind kind = ErrorKind::Protocol;
    try {
        thread.entry(&thread.ctx);
        if (thread.role == KernelRole::Compute && thread.ctx.compute.dst_state != tt_mock_device::DstState::Free) {
            kind = ErrorKind::Dst;
            error = describe(thread, "kernel end", CallSite{"", 0}) + ": the kernel finished with DST " +
                    "still acquired; every tile_regs_acquire needs tile_regs_commit, tile_regs_wait and "
                    "tile_regs_release (acquire_dst needs release_dst)";
        }
    } catch (const KernelFault& fault) {
        kind = fault.kind;
        error = fault.message;
    } catch (const Aborted&) {
    } catch (const std::exception& e) {
        error = describe(thread, "kernel", CallSite{"", 0}) + ": uncaught exception: " + e.what();
    }
    std::lock_guard<std::mutex> lock(run.mutex);
    thread.finished = true;
    run.live--;
    if (!error.empty())
        abort_run_locked(run, kind, error);
    check_deadlock_locked(run);
    run.done.notify_all();
}

uint64_t total_progress(const RunState& run) {
    uint64_t sum = 0;
    for (const auto& thread : run.threads)
        sum += thread->ctx.progress.load(std::memory_order_relaxed);
    return sum;
}

std::string stall_report(const RunState& run, double seconds) {
    std::ostringstream out;
    out << "no kernel made progress for " << seconds
        << " s (a kernel spinning outside the API, e.g. on a volatile L1 word; use noc_semaphore_wait). "
           "Kernels still running:";
    for (const auto& thread : run.threads) {
        if (!thread->finished)
            out << "\n" << blocked_description(*thread);
    }
    out << "\n(set TT_METAL_MOCK_WATCHDOG_SECONDS to allow longer stalls)";
    return out.str();
}

[[noreturn]] void throw_error(ErrorKind kind, const std::string& message) {
    switch (kind) {
        case ErrorKind::Deadlock:
            throw DeadlockError(message);
        case ErrorKind::CircularBuffer:
            throw CircularBufferError(message);
        case ErrorKind::NocAccess:
            throw NocAccessError(message);
        case ErrorKind::Dst:
            throw DstError(message);
        case ErrorKind::Argument:
            throw ArgumentError(message);
        case ErrorKind::Protocol:
            throw DeviceError(message);
    }
    throw DeviceError(message);
}

}  // namespace

void execute(std::unique_ptr<RunState>& owner, double watchdog_seconds) {
    using Clock = std::chrono::steady_clock;
    RunState& run = *owner;
    {
        std::lock_guard<std::mutex> lock(run.mutex);
        run.live = run.threads.size();
    }
    for (size_t i = 0; i < run.threads.size(); i++) {
        KernelThread* t = run.threads[i].get();
        try {
            t->thread = std::thread([t] { thread_main(*t); });
        } catch (const std::system_error& e) {
            // The threads already started are told to stop; the others never count as live.
            std::lock_guard<std::mutex> lock(run.mutex);
            run.live -= run.threads.size() - i;
            abort_run_locked(run, ErrorKind::Protocol, std::string("cannot start a kernel thread: ") + e.what());
            break;
        }
    }
    std::unique_lock<std::mutex> lock(run.mutex);
    uint64_t progress = total_progress(run);
    auto last_change = Clock::now();
    while (run.live > 0 && !run.aborted.load()) {
        run.done.wait_for(lock, std::chrono::milliseconds(100));
        const uint64_t now_progress = total_progress(run);
        if (now_progress != progress || run.live == 0) {
            progress = now_progress;
            last_change = Clock::now();
        } else if (std::chrono::duration<double>(Clock::now() - last_change).count() > watchdog_seconds) {
            abort_run_locked(run, ErrorKind::Deadlock, stall_report(run, watchdog_seconds));
        }
    }
    // After an abort, give running threads a grace period to reach an API call and unwind.
    run.done.wait_for(lock, std::chrono::seconds(2), [&] { return run.live == 0; });
    const bool abandoned = run.live > 0;
    std::vector<bool> finished;
    for (const auto& thread : run.threads)
        finished.push_back(thread->finished);
    lock.unlock();
    for (size_t i = 0; i < run.threads.size(); i++) {
        std::thread& thread = run.threads[i]->thread;
        if (!thread.joinable())
            continue;
        if (finished[i]) {
            thread.join();
        } else {
            thread.detach();
        }
    }
    const ErrorKind kind = run.error_kind;
    std::string error = run.error;
    if (abandoned) {
        // Threads that never returned keep using the run's state and the device's L1: keep both alive.
        run.l1->leak();
        owner.release();
        error +=
            "\n(kernel threads that never returned were abandoned; this device's L1 stays mapped for the rest "
            "of the process and the device refuses further runs: create a new Device)";
    }
    if (!error.empty())
        throw_error(kind, error);
}

}  // namespace tt_mock
