// The state of one Device::run: the cores taking part, one KernelThread per (core, role), and the
// synchronisation that ties them together.
//
// Blocking model: one run-wide mutex guards the blocked-thread accounting. A thread that cannot proceed
// (CB full/empty, semaphore not reached) records what it waits for in `blocked`, counts itself blocked
// and sleeps on its own condition variable. Whoever changes what it waits for wakes it (CB push/pop
// through RuntimeFunctions::cb_wake, any NOC write or semaphore update wakes semaphore waiters). When
// the last live thread blocks (or a thread exits leaving only blocked ones) and no blocked thread's
// condition holds, the run is deadlocked: the error lists every blocked thread. Any error sets
// `aborted` and wakes everyone; blocked threads then unwind with Aborted, and threads running kernel
// code outside the API are interrupted until they leave it (fault_handler.hpp). A signal in kernel code
// (KernelFaultError) is an error like the others.
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
#include "l1.hpp"
#include "runtime_mock/device.hpp"
#include "tt_mock_device/kernel_context.h"

namespace tt_mock {

using tt_mock_device::CallSite;
using tt_mock_device::ErrorKind;

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
    tt_mock_device::KernelContext ctx{};
    RunState* run = nullptr;
    CoreRun* core = nullptr;
    KernelRole role = KernelRole::DataMovement0;
    std::string source_path;
    KernelEntry entry = nullptr;
    KernelCode code;              // where `entry`'s object is loaded, for fault reports
    FaultGuard* guard = nullptr;  // its worker's, set (under the run mutex) while the kernel can be interrupted
    std::condition_variable cv;
    BlockedOn blocked;
    bool finished = false;
    std::vector<PendingTransfer> pending_reads, pending_writes;
    std::unique_ptr<float[]> dst;
};

struct CoreRun {
    tt_mock_device::Core core{};
    uint32_t l1_index = 0;                                                  // slot in the L1 pool
    KernelThread* cb_waiters[tt_mock_device::kMaxCircularBuffers][2] = {};  // [cb][0 = consumer, 1 = producer]
};

struct RunState {
    const ArchSpec* arch = nullptr;
    L1* l1 = nullptr;
    Dram* dram = nullptr;
    tt_mock_device::RuntimeFunctions functions{};
    std::vector<std::unique_ptr<CoreRun>> cores;
    std::vector<std::unique_ptr<KernelThread>> threads;

    std::mutex mutex;
    std::condition_variable done;
    size_t live = 0;
    size_t blocked = 0;
    std::atomic<bool> aborted{false};
    std::atomic<uint32_t> semaphore_waiters{0};
    ErrorKind error_kind = ErrorKind::Protocol;
    std::string error;  // first error, empty if none

    std::mutex warnings_mutex;
    std::set<std::pair<std::string, int>> warned_sites;  // (file, line) of every warning printed this run
};

KernelThread& thread_of(tt_mock_device::KernelContext* ctx);
const char* role_name(KernelRole role);
// "core (x,y) <role> [<kernel file>]: <call> at <file>:<line>"
std::string describe(const KernelThread& thread, const char* call, CallSite site);

// Records the first error and aborts the run (the mutex must be held).
void abort_run_locked(RunState& run, ErrorKind kind, const std::string& message);

// Whether what a blocked thread waits for has happened.
bool is_satisfied(const KernelThread& thread);

// Blocks the calling kernel thread (mutex held via `lock`) until what it waits for has happened; raises
// DeadlockError when every live thread is blocked for good, and Aborted when the run is aborted.
void block_until_satisfied(KernelThread& thread, std::unique_lock<std::mutex>& lock, const BlockedOn& what);

// Wakes threads blocked on a semaphore (called after any L1 write by NOC or semaphore operation).
void wake_semaphore_waiters(RunState& run);

// The RuntimeFunctions table given to kernels.
tt_mock_device::RuntimeFunctions runtime_functions();

// Starts every kernel thread, waits for all of them (watching for stalls), and throws the run's first
// error as the matching DeviceError subclass. If threads never return (spinning after an abort), the
// run state is released from `run` and kept alive for them.
void execute(std::unique_ptr<RunState>& run, double watchdog_seconds);

}  // namespace tt_mock
