// Kernel faults: a signal raised by kernel code ends that kernel's run with an error, not the process.
//
// Model. Kernels run in-process as fibers (fiber.hpp) on worker threads that live across runs
// (kernel_workers.hpp). Each worker thread has a GuardedThread for its lifetime (an alternate signal stack, so a
// stack overflow is handled too, and a slot in a table the handlers find by thread id); each kernel has a FaultGuard,
// which the worker enters into its slot while it runs that kernel's fiber. A process-wide handler for SIGSEGV, SIGBUS,
// SIGFPE, SIGILL and SIGABRT (sigaction, SA_SIGINFO | SA_ONSTACK) looks at the thread it runs on. Inside
// FaultGuard::run of the kernel running there it records the signal, the fault address and the interrupted
// instruction, and siglongjmp's back to run() on that kernel's fiber, which returns the fault. On any other thread,
// between kernels, or for a signal sent from outside the process, it puts back the handler that was installed before
// it (Python's faulthandler, the default action) and replays the signal, so crashes outside kernels behave as before.
// install_fault_handlers() runs at every run and re-installs the handler if something (faulthandler.enable())
// replaced it.
//
// A second signal, kInterruptSignal (a real-time signal), lets the scheduler reach a kernel that runs
// outside the API: sent to its worker thread, it reaches the kernel running there; the handler records the
// interrupted instruction (the watchdog's report turns it into a source line), and once the run is aborted
// and the kernel executes its own code (not the runtime's or the C library's, which may hold locks) it
// siglongjmp's out of the kernel, so the kernel ends and its device's L1 can be unmapped.
//
// Limits: the jump skips the destructors of the kernel's frames, and nothing undoes what the faulting
// code damaged (the heap, a lock it held). README.md ("Kernel faults") explains the trade-off.
#pragma once

#include <pthread.h>

#include <atomic>
#include <csetjmp>
#include <csignal>
#include <cstdint>
#include <optional>
#include <string>

#include "runtime_mock/kernel_abi/kernel_context.h"

namespace runtime_mock {

// Where a kernel's shared object is loaded: its path and the address range of its executable code, and in
// it the range of the memory checks the kernel's own loads and stores call (kernel_abi/memory_check.h).
struct KernelCode {
    std::string object_path;
    uintptr_t load_base = 0;
    uintptr_t begin = 0, end = 0;
    uintptr_t checks_begin = 0, checks_end = 0;
    bool contains(uintptr_t pc) const { return pc >= begin && pc < end; }
    bool in_checks(uintptr_t pc) const { return pc >= checks_begin && pc < checks_end; }
};

// The code of the shared object that defines `function` (looked up once per object).
KernelCode kernel_code_of(const void* function);

// "file:line" of instruction `pc` in `code`, preferring the frame in `source_path` when the instruction
// belongs to a function inlined into it; empty when the object has no line table for it.
std::string source_line_of(const KernelCode& code, uintptr_t pc, const std::string& source_path);

// What ended a kernel inside FaultGuard::run.
struct Fault {
    int signal = 0;
    uintptr_t address = 0;        // si_addr: the faulting address (SIGSEGV, SIGBUS) or instruction
    uintptr_t pc = 0;             // the interrupted instruction
    bool stack_overflow = false;  // SIGSEGV just below the thread's stack
    bool interrupted = false;     // stopped by interrupt(stop=true) after the run was aborted
};

// "SIGSEGV (invalid memory access)", "SIGFPE (arithmetic error, e.g. integer division by zero)", ...
std::string signal_description(int signal);

// Installs the handlers, or re-installs them when another handler replaced them. Thread-safe.
void install_fault_handlers();

// Empties the thread → guard table the signal handlers read. For a child process made by fork(), which
// has none of its parent's threads (call it from a pthread_atfork child handler, before any new guard).
void forget_parent_guards();

class FaultGuard;

// One worker thread's part: its alternate signal stack and its slot in the handlers' table. Constructed
// and destroyed on that thread; throws DeviceError when either cannot be had.
class GuardedThread {
public:
    GuardedThread();
    ~GuardedThread();
    GuardedThread(const GuardedThread&) = delete;
    GuardedThread& operator=(const GuardedThread&) = delete;

    // The guard of the kernel this thread runs from now on, or nullptr between kernels.
    void enter(FaultGuard* guard);

private:
    void* alt_stack_ = nullptr;
    size_t slot_ = 0;  // in the thread -> guard table the signal handlers read
};

// One kernel's recovery point.
class FaultGuard {
public:
    // `thread`: the worker thread the kernel runs on; `stack_low`: the lowest address of the stack it runs
    // on (a SIGSEGV just below it is a stack overflow).
    FaultGuard(pthread_t thread, uintptr_t stack_low) : thread_(thread), stack_low_(stack_low) {}
    FaultGuard(const FaultGuard&) = delete;
    FaultGuard& operator=(const FaultGuard&) = delete;

    // Calls entry(context) for the kernel loaded as `code`; returns the fault that ended it, or nullopt
    // when it returned. Exceptions thrown by the kernel pass through. On the kernel's own stack, with
    // this guard entered in its thread's GuardedThread.
    std::optional<Fault> run(void (*entry)(kernel_abi::KernelContext*), kernel_abi::KernelContext* context,
                             const KernelCode& code);

    // From another thread while the kernel is inside run(): when it is the one running on its worker
    // thread, records where it is (interrupted_pc, bumps interrupts), and with `stop` also ends it once it
    // is in its own code. A stop request lasts until the end of that run().
    void interrupt(bool stop);
    uint64_t interrupts() const { return interrupts_.load(); }
    uintptr_t interrupted_pc() const { return interrupted_pc_.load(); }

private:
    friend void on_fault(int, siginfo_t*, void*);
    friend void on_interrupt(int, siginfo_t*, void*);

    sigjmp_buf jump_;
    std::atomic<bool> armed_{false};
    std::atomic<bool> stop_{false};
    std::atomic<uint64_t> interrupts_{0};
    std::atomic<uintptr_t> interrupted_pc_{0};
    Fault fault_;
    KernelCode code_;
    pthread_t thread_;
    uintptr_t stack_low_ = 0;
};

}  // namespace runtime_mock
