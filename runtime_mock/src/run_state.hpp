// The state of one Device::run: the cores taking part, one KernelThread per (core, role), and the
// synchronisation that ties them together.
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
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "dram.hpp"
#include "fault_handler.hpp"
#include "kernel_loader.hpp"
#include "kernel_workers.hpp"
#include "l1.hpp"
#include "runtime_mock/device.hpp"
#include "runtime_mock/kernel_abi/kernel_context.h"
#include "runtime_mock/kernel_abi/profile_event.h"

namespace runtime_mock {

using runtime_mock::kernel_abi::CallSite;
using runtime_mock::kernel_abi::ErrorKind;

// Thrown through a kernel to report misuse; the message already names core, role and call site.
struct KernelFault {
    ErrorKind kind;
    std::string message;
};

// Thrown through a kernel when the run is aborted by another thread's error.
struct Aborted {};

struct BlockedOn {
    enum class Kind { None, CbFree, CbFilled, Semaphore } kind = Kind::None;
    uint32_t cb = 0;
    uint32_t pages = 0;
    volatile uint32_t* semaphore = nullptr;
    uint32_t value = 0;
    bool at_least = false;
    const char* call = "";
    CallSite site{"", 0};
};

struct PendingTransfer {
    uint32_t address;
    uint32_t size;
    CallSite site;
};

struct RunState;
struct CoreRun;

struct KernelThread {
    runtime_mock::kernel_abi::KernelContext ctx{};
    RunState* run = nullptr;
    CoreRun* core = nullptr;
    KernelRole role = KernelRole::DataMovement0;
    std::string source_path;
    KernelEntry entry = nullptr;
    KernelEntry resume = nullptr;  // the kernel object's resume hook (kernel_resume.h)
    KernelCode code;               // where `entry`'s object is loaded, for fault reports
    KernelJob* job = nullptr;      // its fiber, set (under the run mutex) when it starts, kept for the run
    FaultGuard* guard = nullptr;   // its job's, set (under the run mutex) while the kernel can be interrupted
    std::mutex park;               // guards `blocked`
    BlockedOn blocked;
    std::atomic<bool> on_semaphore{false};     // blocked on a semaphore (woken by L1 writes to it)
    std::atomic<uintptr_t> semaphore_word{0};  // the word it waits on, set before on_semaphore
    std::atomic<bool> finished{false};         // set under the run mutex
    std::vector<PendingTransfer> pending_reads, pending_writes;
    std::unique_ptr<float[]> dst;
    uint32_t math_fidelity = 4;                                  // the compute kernel's (MathFidelity value)
    std::vector<runtime_mock::kernel_abi::ProfileEvent> events;  // the timing record, while ctx.recording
};

struct CoreRun {
    runtime_mock::kernel_abi::Core core{};
    uint32_t l1_index = 0;  // slot in the L1 pool
    size_t position = 0;    // index in RunState::cores (which host CPU its kernels share, cpu_placement.hpp)
    // The thread blocked on each side of each CB: [cb][0 = consumer, 1 = producer].
    std::atomic<KernelThread*> cb_waiters[runtime_mock::kernel_abi::kMaxCircularBuffers][2] = {};
    // Its kernels: the only ones that can wait on a semaphore in its L1 (a kernel waits on its own core's).
    std::vector<KernelThread*> threads;
};

struct RunState {
    const ArchSpec* arch = nullptr;
    L1* l1 = nullptr;
    Dram* dram = nullptr;
    runtime_mock::kernel_abi::RuntimeFunctions functions{};
    std::vector<std::unique_ptr<CoreRun>> cores;
    std::vector<CoreRun*> core_at_l1_slot;  // by slot of the L1 pool; nullptr for a core not in the run
    std::vector<std::unique_ptr<KernelThread>> threads;

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

KernelThread& thread_of(runtime_mock::kernel_abi::KernelContext* ctx);
const char* role_name(KernelRole role);
// "core (x,y) <role> [<kernel file>]: <call> at <file>:<line>"
std::string describe(const KernelThread& thread, const char* call, CallSite site);

// Records the first error and aborts the run (the mutex must be held).
void abort_run_locked(RunState& run, ErrorKind kind, const std::string& message);

// Whether what the thread waits for has happened.
bool is_satisfied(const KernelThread& thread, const BlockedOn& what);

// What the thread waits for now (None while it runs), read under its park mutex.
BlockedOn blocked_state(KernelThread& thread);

// Blocks the calling kernel thread until what it waits for has happened; records DeadlockError when every
// live thread is blocked for good; throws Aborted when the run is aborted.
void block_until_satisfied(KernelThread& thread, const BlockedOn& what);

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

// The RuntimeFunctions table given to kernels.
runtime_mock::kernel_abi::RuntimeFunctions runtime_functions();

// Starts every kernel thread, waits for all of them (watching for stalls), and throws the run's first
// error as the matching DeviceError subclass. If threads never return (spinning after an abort), the
// run state is released from `run` and kept alive for them.
void execute(std::unique_ptr<RunState>& run, double watchdog_seconds);

}  // namespace runtime_mock
