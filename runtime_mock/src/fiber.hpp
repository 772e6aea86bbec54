// Fibers: functions that run on their own stacks and hand the CPU over explicitly, on one OS thread.
//
// Model. A kernel of the simulated device blocks thousands of times per run (a CB page not yet pushed, a
// semaphore not yet set). As OS threads, each block and wake is a futex system call and a context switch
// in the kernel (~3 µs each); as fibers on one thread, a switch saves six callee-saved registers and the
// FPU control words and swaps the stack pointer (about 10 ns: a switch there and back measured 21 ns on the
// 2-core EPYC this was written on). A worker thread resume()s a fiber, which runs
// until it suspend()s (back to the resume() call) or its function returns.
//
// Each fiber owns a stack of kStackBytes of address space (committed as it is touched, like a thread's)
// with an inaccessible guard page below it, so an overflow faults instead of corrupting memory; stacks
// are kept for the next fiber (a run starts up to ~200 of them). A fiber never moves between threads
// once started, so thread-local storage it reads stays the thread's it started on.
//
// x86-64 switches with a few instructions of its own; other machines use ucontext (a system call per
// switch for the signal mask: correct, and slower).
#pragma once

#include <cstddef>
#include <cstdint>

namespace runtime_mock {

class Fiber {
public:
    static constexpr size_t kStackBytes = size_t(8) << 20;
    static constexpr size_t kGuardBytes = 4096;

    // Takes a stack from the pool (or maps a new one); throws std::bad_alloc when none can be mapped.
    Fiber();
    ~Fiber();  // returns the stack to the pool
    Fiber(const Fiber&) = delete;
    Fiber& operator=(const Fiber&) = delete;

    // Prepares to run body(argument) from the start at the next resume(); `body` must not throw. Only
    // when the fiber is not running.
    void start(void (*body)(void*), void* argument);

    // Runs the fiber from where it stopped until it suspends or its body returns. On the owning thread,
    // never from inside a fiber.
    void resume();

    // From inside the fiber: back to the resume() that ran it.
    void suspend();

    bool finished() const { return finished_; }

    // The lowest address of the usable stack (the guard page lies below it).
    uintptr_t stack_low() const { return reinterpret_cast<uintptr_t>(stack_) + kGuardBytes; }

    struct Context;  // the saved machine state of a suspended side

    // The bottom frame of every fiber: runs the body (which must not throw), then suspends for good.
    static void entry(Fiber* fiber);

private:
    void* stack_ = nullptr;  // kGuardBytes of guard, then the stack
    Context* fiber_side_ = nullptr;
    Context* caller_side_ = nullptr;
    void (*body_)(void*) = nullptr;
    void* argument_ = nullptr;
    bool finished_ = true;
};

}  // namespace runtime_mock
