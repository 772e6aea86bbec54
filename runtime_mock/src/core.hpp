// A Tensix worker core during a run.
//
// On silicon a worker core has five RISC-Vs: BRISC and NCRISC move data (RISCV_0 and RISCV_1 kernels),
// and three TRISCs (unpack, math, pack) run the three sections of one compute kernel. Here a core runs
// at most one kernel per role, each as a KernelThread (a fiber; the scheduler, scheduler.hpp, decides
// when it runs): the compute kernel's three TRISC sections run in order in one thread, which owns the
// core's DST (dst.hpp). The core's state visible to kernels (coordinates, L1 slot, circular buffers,
// semaphores) is a kernel_abi::Core; the runtime adds, per core, the kernels themselves and the thread
// waiting on each side of each circular buffer. A kernel touches only its own core's L1 directly; other
// cores' L1 and DRAM only through the NOC (noc.hpp).
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "dst.hpp"
#include "fault_handler.hpp"
#include "kernel_loader.hpp"
#include "kernel_workers.hpp"
#include "runtime_mock/device.hpp"
#include "runtime_mock/kernel_abi/kernel_context.h"
#include "runtime_mock/kernel_abi/profile_event.h"

namespace runtime_mock {

using kernel_abi::CallSite;

// What a kernel thread waits for (None while it runs).
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

// An L1 range a NOC transfer issued by the kernel uses until its barrier.
struct PendingTransfer {
    uint32_t address;
    uint32_t size;
    CallSite site;
};

struct RunState;
struct CoreRun;

// One kernel on one RISC role of a core.
struct KernelThread {
    kernel_abi::KernelContext ctx{};
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
    DstRegisters dst;                              // a compute kernel's; empty for data movement
    uint32_t math_fidelity = 4;                    // the compute kernel's (MathFidelity value)
    std::vector<kernel_abi::ProfileEvent> events;  // the timing record, while ctx.recording
    uint32_t index = 0;                            // in RunState::threads
    std::vector<uint32_t> clock;                   // its vector clock, under race detection (race_detector.hpp)
};

// One core of the run.
struct CoreRun {
    kernel_abi::Core core{};
    uint32_t l1_index = 0;  // slot in the L1 pool
    size_t position = 0;    // index in RunState::cores (which host CPU its kernels share, cpu_placement.hpp)
    // The thread blocked on each side of each CB: [cb][0 = consumer, 1 = producer].
    std::atomic<KernelThread*> cb_waiters[kernel_abi::kMaxCircularBuffers][2] = {};
    // Its kernels: the only ones that can wait on a semaphore in its L1 (a kernel waits on its own core's).
    std::vector<KernelThread*> threads;
};

// The kernel thread a kernel's context belongs to.
KernelThread& thread_of(kernel_abi::KernelContext* ctx);
const char* role_name(KernelRole role);
// "core (x,y) <role> [<kernel file>]: <call> at <file>:<line>"
std::string describe(const KernelThread& thread, const char* call, CallSite site);
// "core (x,y)" of the core in slot `slot` of the L1 pool (row-major over a grid `grid_x` cores wide).
std::string l1_core_name(uint32_t slot, uint32_t grid_x);
// describe() of instruction `pc` of the thread's kernel: its source line, or no place when the kernel's
// object has no line for it.
std::string describe_at(const KernelThread& thread, const char* what, uintptr_t pc);

}  // namespace runtime_mock
