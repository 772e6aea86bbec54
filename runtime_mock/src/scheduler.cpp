// Kernel threads of a run: starting them, blocking and waking them, deadlock detection, the no-progress
// watchdog, kernel faults, stopping threads after an abort, and turning the first error into a
// DeviceError. See scheduler.hpp for the model.
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <sstream>

#include "config.hpp"
#include "kernel_workers.hpp"
#include "scheduler.hpp"
#include "runtime_mock/kernel_abi/circular_buffer.h"

namespace runtime_mock {

void abort_run_locked(RunState& run, ErrorKind kind, const std::string& message) {
    if (run.error.empty()) {
        run.error = message;
        run.error_kind = kind;
    }
    run.aborted.store(true);
    for (auto& thread : run.threads) {
        if (thread->job != nullptr)
            thread->job->unpark();
    }
    run.done.notify_all();
}

bool is_satisfied(const KernelThread& thread, const BlockedOn& what) {
    switch (what.kind) {
        case BlockedOn::Kind::None:
            return true;
        case BlockedOn::Kind::CbFree: {
            const auto& b = thread.core->core.cbs[what.cb];
            return b.num_pages - kernel_abi::cb_pages_filled(b) >= what.pages;
        }
        case BlockedOn::Kind::CbFilled:
            return kernel_abi::cb_pages_filled(thread.core->core.cbs[what.cb]) >= what.pages;
        case BlockedOn::Kind::Semaphore: {
            const uint32_t value = __atomic_load_n(what.semaphore, __ATOMIC_SEQ_CST);
            return what.at_least ? value >= what.value : value == what.value;
        }
    }
    return true;
}

namespace {

std::string blocked_description(const KernelThread& thread, const BlockedOn& what) {
    std::ostringstream out;
    out << "  " << describe(thread, what.call, what.site) << ": ";
    switch (what.kind) {
        case BlockedOn::Kind::CbFree: {
            const auto& b = thread.core->core.cbs[what.cb];
            out << "waits for " << what.pages << " free pages of CB " << what.cb << " (" << b.num_pages << " pages, "
                << b.num_pages - kernel_abi::cb_pages_filled(b) << " free)";
            break;
        }
        case BlockedOn::Kind::CbFilled: {
            const auto& b = thread.core->core.cbs[what.cb];
            out << "waits for " << what.pages << " filled pages of CB " << what.cb << " ("
                << kernel_abi::cb_pages_filled(b) << " available)";
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

constexpr uint64_t kTransition = uint64_t(1) << 32;

uint32_t blocked_count(uint64_t blocking) {
    return uint32_t(blocking);
}

// Every live thread is blocked and none of them can proceed, seen in one consistent state (see
// scheduler.hpp); then `report` lists the blocked threads.
bool deadlocked(RunState& run, std::string& report) {
    const uint64_t before = run.blocking.load();
    const size_t live = run.live.load();
    if (live == 0 || blocked_count(before) != live)
        return false;
    std::vector<std::pair<const KernelThread*, BlockedOn>> waits;
    for (const auto& thread : run.threads) {
        if (thread->finished.load())
            continue;
        const BlockedOn what = blocked_state(*thread);
        if (what.kind == BlockedOn::Kind::None || is_satisfied(*thread, what))
            return false;
        waits.emplace_back(thread.get(), what);
    }
    if (run.blocking.load() != before || run.live.load() != live)
        return false;
    report =
        "deadlock: every running kernel is blocked and none can proceed (check the CB page counts and the "
        "order of reserve/push and wait/pop between the kernels):";
    for (const auto& [thread, what] : waits)
        report += "\n" + blocked_description(*thread, what);
    return true;
}

// Aborts the run with DeadlockError if it is deadlocked. Called without any park mutex held.
void check_deadlock(RunState& run) {
    std::string report;
    if (!deadlocked(run, report))
        return;
    std::lock_guard<std::mutex> lock(run.mutex);
    abort_run_locked(run, ErrorKind::Deadlock, report);
}

}  // namespace

BlockedOn blocked_state(KernelThread& thread) {
    std::lock_guard<std::mutex> park(thread.park);
    return thread.blocked;
}

void block_until_satisfied(KernelThread& thread, const BlockedOn& what) {
    RunState& run = *thread.run;
    std::unique_lock<std::mutex> park(thread.park);
    thread.blocked = what;
    run.blocking.fetch_add(kTransition + 1);
    // A semaphore may also be set by a plain store into L1, which wakes nobody: poll it.
    const bool poll = what.kind == BlockedOn::Kind::Semaphore;
    bool check = true;  // look for a deadlock before parking, once per wake-up
    bool parked = false;
    while (!run.aborted.load() && !is_satisfied(thread, what)) {
        // A job ready on this lane will run, and check again if it blocks: no need to look now.
        if (check && blocked_count(run.blocking.load()) == run.live.load() && !thread.job->lane_has_ready()) {
            park.unlock();
            check_deadlock(run);
            park.lock();
            check = false;
            continue;  // what it waits for may have happened meanwhile
        }
        park.unlock();
        thread.job->park(poll);
        park.lock();
        parked = true;
        check = true;
    }
    thread.blocked = BlockedOn{};
    run.blocking.fetch_add(kTransition - 1);
    park.unlock();
    if (parked)
        thread.resume(&thread.ctx);  // other kernels' fibers ran on this thread meanwhile
    if (run.aborted.load())
        throw Aborted{};
}

void schedule_point(KernelThread& thread) {
    if (!thread.run->schedule_seed || !thread.job->maybe_yield())
        return;
    thread.resume(&thread.ctx);  // other kernels' fibers ran on this thread meanwhile
    if (thread.run->aborted.load())
        throw Aborted{};
}

namespace {

// The job's FaultGuard, published to the scheduler (which interrupts the kernel) while the kernel runs.
class PublishedGuard {
public:
    PublishedGuard(KernelThread& thread, FaultGuard& guard) : thread_(thread) {
        std::lock_guard<std::mutex> lock(thread_.run->mutex);
        thread_.guard = &guard;
    }
    ~PublishedGuard() {
        std::lock_guard<std::mutex> lock(thread_.run->mutex);
        thread_.guard = nullptr;
    }

private:
    KernelThread& thread_;
};

// "core (x,y) <role> [<kernel>]: kernel fault at <file>:<line>: <n>-byte write at 0x... outside its core's L1:
// <where it lands>", for an access memory_check.h stopped.
std::string stray_access_report(const KernelThread& thread, const kernel_abi::StrayAccess& access) {
    const L1& l1 = *thread.run->l1;
    const uint32_t grid_x = thread.run->arch->grid_x;
    std::string report = describe_at(thread, "kernel fault", access.pc) + ": " + std::to_string(access.size) +
                         "-byte " + (access.write ? "write" : "read") + " at " + hex(access.address) +
                         ", outside this core's L1 (" + hex(thread.ctx.core->l1_base) + " to " +
                         hex(uint64_t(thread.ctx.core->l1_base) + l1.l1_bytes() - 1) + ")";
    const auto location = l1.locate(access.address);
    if (!location) {
        report += ": not the L1 of any core of this device";
    } else if (location->offset >= l1.l1_bytes()) {
        report += ": " + hex(location->offset - l1.l1_bytes()) + " bytes past the end of " +
                  l1_core_name(location->core, grid_x) + "'s L1";
    } else {
        report += ": that is " + l1_core_name(location->core, grid_x) + "'s L1 at offset " + hex(location->offset);
    }
    return report + " (use the NOC to reach another core's L1); the run was aborted";
}

// "core (x,y) <role> [<kernel>]: kernel fault at <file>:<line>: <signal> at address 0x...: <what>".
std::string fault_report(const KernelThread& thread, const Fault& fault) {
    if (fault.signal == SIGILL && thread.ctx.stray_access.pc != 0)
        return stray_access_report(thread, thread.ctx.stray_access);
    std::string report = describe_at(thread, "kernel fault", fault.pc) + ": " + signal_description(fault.signal);
    if (fault.signal == SIGSEGV || fault.signal == SIGBUS)
        report += " at address " + hex(fault.address);
    const L1& l1 = *thread.run->l1;
    const auto location = l1.locate(fault.address);
    if (fault.stack_overflow) {
        report += ": stack overflow (unbounded recursion, or locals larger than the kernel thread's stack)";
    } else if ((fault.signal == SIGSEGV || fault.signal == SIGBUS) && location && location->offset >= l1.l1_bytes()) {
        const uint32_t grid_x = thread.run->arch->grid_x;
        report += ": access past the end of " + l1_core_name(location->core, grid_x) + "'s L1 at offset " +
                  hex(location->offset) + " (its L1 is " + hex(l1.l1_bytes()) +
                  " bytes; use the NOC to reach another core's L1)";
    }
    return report + "; the run was aborted";
}

// Runs one kernel as `job`.
void thread_main(KernelThread& thread, KernelJob& job) {
    RunState& run = *thread.run;
    {
        std::lock_guard<std::mutex> lock(run.mutex);
        thread.job = &job;
    }
    std::string error;
    ErrorKind kind = ErrorKind::Protocol;
    try {
        PublishedGuard published(thread, job.guard());
        const std::optional<Fault> fault = job.guard().run(thread.entry, &thread.ctx, thread.code);
        if (fault && !fault->interrupted) {
            kind = ErrorKind::Fault;
            error = fault_report(thread, *fault);
        } else if (!fault && thread.role == KernelRole::Compute &&
                   thread.ctx.compute.dst_state != kernel_abi::DstState::Free) {
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
        // The kernel's own `throw` noted the object and its place (kernel_resume.h); a library's did not.
        const bool thrown_by_kernel = thread.ctx.thrown_object == dynamic_cast<const void*>(&e);
        error = (thrown_by_kernel ? describe_at(thread, "kernel", thread.ctx.throw_pc)
                                  : describe(thread, "kernel", CallSite{"", 0})) +
                ": uncaught exception: " + e.what();
    }
    {
        std::lock_guard<std::mutex> lock(run.mutex);
        thread.finished = true;
        run.live--;
        run.blocking.fetch_add(kTransition);
        if (!error.empty())
            abort_run_locked(run, kind, error);
        run.done.notify_all();
    }
    check_deadlock(run);
}

uint64_t total_progress(const RunState& run) {
    uint64_t sum = 0;
    for (const auto& thread : run.threads)
        sum += thread->ctx.progress.load(std::memory_order_relaxed);
    return sum;
}

// Where each thread that runs outside the API is ("file:line", or empty when unknown), indexed like
// run.threads: each is interrupted a few times and the line most of its interrupts land on is the one
// reported (a spin loop's odd instruction can belong to another line). Called with `lock` held; releases
// it while waiting and while looking up lines.
std::vector<std::string> locate_running_threads(RunState& run, std::unique_lock<std::mutex>& lock) {
    constexpr size_t kSamples = 5;  // interrupts that landed in a thread's code (or its memory check)
    const size_t n = run.threads.size();
    std::vector<std::vector<uintptr_t>> pcs(n);
    // A kernel interrupted outside its own code has no line of its own there: inside the race detector,
    // its memory check noted the accessing instruction (checking_pc); elsewhere (the C library, ld.so's TLS
    // lookup a memory check makes) the interrupt does not count and it is interrupted again.
    for (int attempt = 0; attempt < 12; attempt++) {
        std::vector<uint64_t> before(n, 0);
        bool any = false;
        for (size_t i = 0; i < n; i++) {
            KernelThread& thread = *run.threads[i];
            if (pcs[i].size() < kSamples && !thread.finished && thread.guard != nullptr &&
                blocked_state(thread).kind == BlockedOn::Kind::None) {
                before[i] = thread.guard->interrupts();
                thread.guard->interrupt(false);
                any = true;
            }
        }
        if (!any)
            break;
        run.done.wait_for(lock, std::chrono::milliseconds(attempt == 0 ? 50 : 10));
        for (size_t i = 0; i < n; i++) {
            const KernelThread& thread = *run.threads[i];
            if (pcs[i].size() >= kSamples || thread.guard == nullptr || thread.guard->interrupts() <= before[i])
                continue;
            const uintptr_t checking = __atomic_load_n(&thread.ctx.checking_pc, __ATOMIC_RELAXED);
            if (thread.code.contains(thread.guard->interrupted_pc()))
                pcs[i].push_back(thread.guard->interrupted_pc());
            else if (checking != 0)
                pcs[i].push_back(checking);
        }
    }
    lock.unlock();
    std::vector<std::string> lines(n);
    for (size_t i = 0; i < n; i++) {
        std::map<uintptr_t, std::string> line_of;  // each distinct instruction looked up once
        std::map<std::string, size_t> votes;
        for (uintptr_t pc : pcs[i]) {
            auto it = line_of.find(pc);
            if (it == line_of.end())
                it = line_of.emplace(pc, source_line_of(run.threads[i]->code, pc, run.threads[i]->source_path)).first;
            if (!it->second.empty() && ++votes[it->second] > votes[lines[i]])
                lines[i] = it->second;
        }
    }
    lock.lock();
    return lines;
}

std::string stall_report(RunState& run, double seconds, const std::vector<std::string>& running_at) {
    std::ostringstream out;
    out << "no kernel made progress for " << seconds
        << " s (a kernel spinning outside the API, e.g. on a volatile L1 word; use noc_semaphore_wait). "
           "Kernels still running:";
    for (size_t i = 0; i < run.threads.size(); i++) {
        KernelThread& thread = *run.threads[i];
        if (thread.finished)
            continue;
        const BlockedOn what = blocked_state(thread);
        if (what.kind == BlockedOn::Kind::None && !running_at[i].empty()) {
            out << "\n  " << describe(thread, "running", CallSite{"", 0}) << " at " << running_at[i];
        } else {
            out << "\n" << blocked_description(thread, what);
        }
    }
    out << "\n(set RUNTIME_MOCK_WATCHDOG_SECONDS to allow longer stalls)";
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
        case ErrorKind::Fault:
            throw KernelFaultError(message);
        case ErrorKind::Race:
            throw DataRaceError(message);
        case ErrorKind::Protocol:
            throw DeviceError(message);
    }
    throw DeviceError(message);
}

// After an abort, threads blocked in the API unwind by themselves (Aborted); threads running kernel code
// are interrupted until they stop. Returns whether every thread finished within the grace period.
bool stop_threads(RunState& run, std::unique_lock<std::mutex>& lock) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    while (run.live > 0 && std::chrono::steady_clock::now() < deadline) {
        for (const auto& thread : run.threads) {
            if (!thread->finished && thread->guard != nullptr && blocked_state(*thread).kind == BlockedOn::Kind::None)
                thread->guard->interrupt(true);
        }
        run.done.wait_for(lock, std::chrono::milliseconds(20), [&] { return run.live == 0; });
    }
    return run.live == 0;
}

}  // namespace

void execute(std::unique_ptr<RunState>& owner, double watchdog_seconds) {
    using Clock = std::chrono::steady_clock;
    RunState& run = *owner;
    install_fault_handlers();
    for (auto& thread : run.threads)
        thread->code = kernel_code_of(reinterpret_cast<const void*>(thread->entry));
    // A core's kernels share a lane; the cores that run kernels are dealt to one lane per usable CPU.
    std::map<size_t, size_t> core_order;  // core position -> its rank among the cores that run kernels
    for (auto& thread : run.threads)
        core_order.emplace(thread->core->position, core_order.size());
    // A seeded run is one lane: its interleaving is then the seed's alone.
    const size_t lanes = run.schedule_seed ? 1 : std::max<size_t>(1, std::min(config::lanes(), core_order.size()));
    std::vector<KernelJob::Body> jobs;
    std::vector<size_t> lane_of;
    for (auto& thread : run.threads) {
        jobs.push_back([t = thread.get()](KernelJob& job) { thread_main(*t, job); });
        lane_of.push_back(core_order.at(thread->core->position) % lanes);
    }
    {
        std::lock_guard<std::mutex> lock(run.mutex);
        run.live = run.threads.size();
    }
    std::string start_error;
    const std::shared_ptr<KernelBatch> batch =
        KernelBatch::start(std::move(jobs), lane_of, start_error, run.schedule_seed);
    if (batch->started() < run.threads.size()) {
        // The threads already started are told to stop; the others never count as live.
        std::lock_guard<std::mutex> lock(run.mutex);
        run.live -= run.threads.size() - batch->started();
        run.blocking.fetch_add(kTransition);
        abort_run_locked(run, ErrorKind::Protocol, start_error);
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
            const std::vector<std::string> running_at = locate_running_threads(run, lock);
            if (!run.aborted.load() && total_progress(run) == progress)
                abort_run_locked(run, ErrorKind::Deadlock, stall_report(run, watchdog_seconds, running_at));
        }
    }
    const bool abandoned = !stop_threads(run, lock);
    std::vector<bool> finished;
    for (const auto& thread : run.threads)
        finished.push_back(thread->finished);
    lock.unlock();
    for (size_t i = 0; i < batch->started(); i++) {
        if (finished[i]) {
            batch->wait_returned(i);
        } else {
            batch->abandon(i);
        }
    }
    const ErrorKind kind = run.error_kind;
    std::string error = run.error;
    if (abandoned) {
        // Threads that could not be stopped keep using the run's state and the device's L1: both stay alive
        // until they return (the batch goes when its last job has), and the device's L1 address range
        // is then free for later devices.
        batch->keep_while_jobs_run(run.l1->share_mapping());
        batch->keep_while_jobs_run(std::shared_ptr<RunState>(owner.release()));
        run.dram->never_recycle();
        error +=
            "\n(kernel threads that did not stop within 2 s, e.g. inside a system call, were abandoned; this "
            "device's L1 stays mapped until they return and the device refuses further runs: create a new "
            "Device)";
    }
    if (!error.empty())
        throw_error(kind, error);
}

}  // namespace runtime_mock
