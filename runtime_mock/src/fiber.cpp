#include "fiber.hpp"

#include <sys/mman.h>

#include <mutex>
#include <new>
#include <vector>

#if !defined(__x86_64__)
#include <ucontext.h>
#endif

namespace runtime_mock {

namespace {

constexpr size_t kMappingBytes = Fiber::kGuardBytes + Fiber::kStackBytes;

// Stacks of ended fibers, for the next ones. Never unmapped: a process's fibers peak at a few hundred.
struct StackPool {
    std::mutex mutex;
    std::vector<void*> free;
};

StackPool& stack_pool() {
    static StackPool* pool = new StackPool;  // outlives static destructors that might end fibers
    return *pool;
}

void* take_stack() {
    {
        StackPool& pool = stack_pool();
        std::lock_guard<std::mutex> lock(pool.mutex);
        if (!pool.free.empty()) {
            void* stack = pool.free.back();
            pool.free.pop_back();
            return stack;
        }
    }
    void* stack = mmap(nullptr, kMappingBytes, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (stack == MAP_FAILED)
        throw std::bad_alloc();
    if (mprotect(stack, Fiber::kGuardBytes, PROT_NONE) != 0) {
        munmap(stack, kMappingBytes);
        throw std::bad_alloc();
    }
    return stack;
}

void give_back_stack(void* stack) {
    StackPool& pool = stack_pool();
    std::lock_guard<std::mutex> lock(pool.mutex);
    pool.free.push_back(stack);
}

}  // namespace

#if defined(__x86_64__)

// Saves the callee-saved registers (System V: rbx, rbp, r12-r15) and the SSE/x87 control words on the
// current stack, stores the stack pointer in *save, and continues on stack `load` by popping the same
// frame there. A new fiber's stack is laid out as such a frame whose return address is
// runtime_mock_fiber_start, which calls r13(r12).
extern "C" void runtime_mock_fiber_switch(void** save, void* load);
extern "C" void runtime_mock_fiber_start();

asm(R"(
    .text
    .globl runtime_mock_fiber_switch
    .hidden runtime_mock_fiber_switch
    .type runtime_mock_fiber_switch, @function
runtime_mock_fiber_switch:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    subq $8, %rsp
    stmxcsr (%rsp)
    fnstcw 4(%rsp)
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    ldmxcsr (%rsp)
    fldcw 4(%rsp)
    addq $8, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .size runtime_mock_fiber_switch, .-runtime_mock_fiber_switch

    .globl runtime_mock_fiber_start
    .hidden runtime_mock_fiber_start
    .type runtime_mock_fiber_start, @function
runtime_mock_fiber_start:
    .cfi_startproc
    .cfi_undefined rip
    movq %r12, %rdi
    callq *%r13
    ud2
    .cfi_endproc
    .size runtime_mock_fiber_start, .-runtime_mock_fiber_start
)");

struct Fiber::Context {
    void* stack_pointer = nullptr;
};

void Fiber::start(void (*body)(void*), void* argument) {
    body_ = body;
    argument_ = argument;
    finished_ = false;
    // The frame runtime_mock_fiber_switch pops, at a 16-byte aligned address so that runtime_mock_fiber_start's
    // call leaves the stack aligned as the ABI wants.
    auto top = (reinterpret_cast<uintptr_t>(stack_) + kMappingBytes) & ~uintptr_t(15);
    auto* frame = reinterpret_cast<uint64_t*>(top - 10 * sizeof(uint64_t));
    uint32_t mxcsr = 0;
    uint16_t fpu_control = 0;
    asm volatile("stmxcsr %0" : "=m"(mxcsr));
    asm volatile("fnstcw %0" : "=m"(fpu_control));
    frame[0] = uint64_t(mxcsr) | (uint64_t(fpu_control) << 32);
    frame[1] = 0;                                                      // r15
    frame[2] = 0;                                                      // r14
    frame[3] = reinterpret_cast<uint64_t>(&Fiber::entry);              // r13: what runtime_mock_fiber_start calls
    frame[4] = reinterpret_cast<uint64_t>(this);                       // r12: its argument
    frame[5] = 0;                                                      // rbx
    frame[6] = 0;                                                      // rbp
    frame[7] = reinterpret_cast<uint64_t>(&runtime_mock_fiber_start);  // return address
    fiber_side_->stack_pointer = frame;
}

void Fiber::resume() {
    runtime_mock_fiber_switch(&caller_side_->stack_pointer, fiber_side_->stack_pointer);
}

void Fiber::suspend() {
    runtime_mock_fiber_switch(&fiber_side_->stack_pointer, caller_side_->stack_pointer);
}

#else

struct Fiber::Context {
    ucontext_t context;
};

namespace {

// makecontext passes int arguments only: the Fiber pointer arrives in two halves.
void start_from_halves(int high, int low) {
    const uintptr_t address = (uintptr_t(uint32_t(high)) << 32) | uint32_t(low);
    Fiber::entry(reinterpret_cast<Fiber*>(address));
}

}  // namespace

void Fiber::start(void (*body)(void*), void* argument) {
    body_ = body;
    argument_ = argument;
    finished_ = false;
    getcontext(&fiber_side_->context);
    fiber_side_->context.uc_stack.ss_sp = static_cast<char*>(stack_) + kGuardBytes;
    fiber_side_->context.uc_stack.ss_size = kStackBytes;
    fiber_side_->context.uc_link = nullptr;
    const auto address = reinterpret_cast<uintptr_t>(this);
    makecontext(&fiber_side_->context, reinterpret_cast<void (*)()>(start_from_halves), 2, int(address >> 32),
                int(address & 0xffffffffu));
}

void Fiber::resume() {
    swapcontext(&caller_side_->context, &fiber_side_->context);
}

void Fiber::suspend() {
    swapcontext(&fiber_side_->context, &caller_side_->context);
}

#endif

Fiber::Fiber() : stack_(take_stack()), fiber_side_(new Context), caller_side_(new Context) {}

Fiber::~Fiber() {
    give_back_stack(stack_);
    delete fiber_side_;
    delete caller_side_;
}

void Fiber::entry(Fiber* fiber) {
    fiber->body_(fiber->argument_);
    fiber->finished_ = true;
    fiber->suspend();
    __builtin_unreachable();  // a finished fiber is never resumed
}

}  // namespace runtime_mock
