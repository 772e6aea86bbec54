// The scheduler: the state of one Device::run (the cores taking part, core.hpp; one KernelThread per
// (core, role)) and the synchronisation that ties them together.
//
// A kernel thread is a fiber (kernel_workers.hpp): the three of a core share one lane (an OS thread), and
// the cores are dealt to as many lanes as the host has CPUs.
//
// Blocking model. A kernel thread that cannot proceed (CB full/empty, semaphore not reached) records
// what it waits for in `blocked` under its own `park` mutex, then parks its fiber; whoever changes what
// it waits for unparks it (CB push/pop through RuntimeFunctions::cb_wake to the one thread blocked on that
// side of that CB, any NOC write or semaphore update to the semaphore waiters). An unpark that comes
// before the park makes the park return at once, so no wake-up is lost; a resumed thread checks its
// condition again. So a wait and its wake lock only the waiter's mutex and its lane's: each CB side and
// each semaphore wait has one waiter, and nothing run-wide is locked.
//
// Deadlock detection stays exact: `blocking` counts blocked threads and every change of that count or
// of `live` (transitions). The thread that makes blocked == live scans every thread under its park
// mutex; the run is deadlocked when each live thread is blocked, none's condition holds, and no
// transition happened during the scan (nobody ran, so the scan saw one consistent state). A thread
// that leaves the blocked state later blocks again and scans again, so the last one to block always
// sees a true deadlock; the error lists every blocked thread.
//
// The run mutex guards the rest: the first error, `finished`, the published fault guards. Any error
// sets `aborted` and wakes everyone; blocked threads then unwind with Aborted, and threads running
// kernel code outside the API are interrupted until they leave it (fault_handler.hpp). A signal in
// kernel code (KernelFaultError) is an error like the others.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core.hpp"
#include "dram.hpp"
#include "l1.hpp"
#include "race_detector.hpp"
#include "runtime_mock/device.hpp"
#include "runtime_mock/kernel_abi/kernel_context.h"

namespace runtime_mock {

using kernel_abi::ErrorKind;

// Thrown through a kernel to report misuse; the message already names core, role and call site.
struct KernelFault {
    ErrorKind kind;
    std::string message;
};

// Thrown through a kernel when the run is aborted by another thread's error.
struct Aborted {};

struct RunState {
    const ArchSpec* arch = nullptr;
    L1* l1 = nullptr;
    Dram* dram = nullptr;
    kernel_abi::RuntimeFunctions functions{};
    // RUNTIME_MOCK_SCHEDULE_SEED when set: the kernels run on one lane in an order drawn from it, and the
    // calls other kernels can observe are schedule points (schedule_point).
    std::optional<uint64_t> schedule_seed;
    std::vector<std::unique_ptr<CoreRun>> cores;
    std::vector<CoreRun*> core_at_l1_slot;  // by slot of the L1 pool; nullptr for a core not in the run
    std::vector<std::unique_ptr<KernelThread>> threads;
    std::unique_ptr<RaceDetector> races;  // RUNTIME_MOCK_RACE_DETECTION=1: made once the threads are

    std::mutex mutex;
    std::condition_variable done;
    std::atomic<size_t> live{0};  // changed under the mutex, with a transition
    // Low 32 bits: threads blocked; high 32 bits: transitions (changes of the blocked count or of live).
    std::atomic<uint64_t> blocking{0};
    std::atomic<bool> aborted{false};
    std::atomic<uint32_t> semaphore_waiters{0};
    ErrorKind error_kind = ErrorKind::Protocol;
    std::string error;  // first error, empty if none

    std::mutex warnings_mutex;
    std::set<std::pair<std::string, int>> warned_sites;  // (file, line) of every warning printed this run
};

// Records the first error and aborts the run (the mutex must be held).
void abort_run_locked(RunState& run, ErrorKind kind, const std::string& message);

// Whether what the thread waits for has happened.
bool is_satisfied(const KernelThread& thread, const BlockedOn& what);

// What the thread waits for now (None while it runs), read under its park mutex.
BlockedOn blocked_state(KernelThread& thread);

// Blocks the calling kernel thread until what it waits for has happened; records DeadlockError when every
// live thread is blocked for good; throws Aborted when the run is aborted.
void block_until_satisfied(KernelThread& thread, const BlockedOn& what);

// In a seeded run, after a call another kernel can observe (a NOC transfer or barrier, a semaphore update,
// a CB wake-up): may let another kernel of the lane run first, as the seed draws it (throws Aborted when
// the run was aborted meanwhile). Does nothing in other runs.
void schedule_point(KernelThread& thread);

// block_until_satisfied, calling `enter` before and `leave` after the wait (also when it unwinds): the
// waiter registers where its wakers look for it.
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

// The RuntimeFunctions table given to kernels; `seeded` adds a schedule point after each call another
// kernel can observe (schedule_point).
kernel_abi::RuntimeFunctions runtime_functions(bool seeded);

// Starts every kernel thread, waits for all of them (watching for stalls), and throws the run's first
// error as the matching DeviceError subclass. If threads never return (spinning after an abort), the
// run state is released from `run` and kept alive for them.
void execute(std::unique_ptr<RunState>& run, double watchdog_seconds);

}  // namespace runtime_mock
