#include "fault_handler.hpp"

#include <dlfcn.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>
#include <unwind.h>

#include <atomic>
#include <csignal>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "runtime_mock/device.hpp"
#include "subprocess.hpp"

namespace runtime_mock {

namespace {

constexpr int kFaultSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
constexpr size_t kAltStackBytes = size_t(64) << 10;
// A SIGSEGV this far below a kernel's stack is taken for a stack overflow (a frame may skip the guard).
constexpr uintptr_t kOverflowReach = uintptr_t(1) << 20;

// The guard of the kernel each worker thread runs, found by thread id from a signal handler. A table, not a
// thread_local: a signal handler must not touch the TLS of a dlopen'ed library (this one, under Python), which may be
// uninitialised for a thread that existed before the library was loaded, or allocate on first use.
struct GuardSlot {
    std::atomic<pid_t> thread{0};
    std::atomic<FaultGuard*> guard{nullptr};
};
constexpr size_t kGuardSlots = 8192;  // worker threads alive at once in one process
GuardSlot g_guards[kGuardSlots];

FaultGuard* guard_of_this_thread() {
    const pid_t me = pid_t(syscall(SYS_gettid));
    for (GuardSlot& slot : g_guards) {
        if (slot.thread.load(std::memory_order_acquire) == me)
            return slot.guard.load(std::memory_order_acquire);
    }
    return nullptr;
}

size_t register_thread() {
    const pid_t me = pid_t(syscall(SYS_gettid));
    for (size_t i = 0; i < kGuardSlots; i++) {
        pid_t expected = 0;
        if (g_guards[i].thread.compare_exchange_strong(expected, me))
            return i;
    }
    throw DeviceError("more than " + std::to_string(kGuardSlots) + " kernel worker threads at once in this process");
}

void unregister_thread(size_t slot) {
    g_guards[slot].guard.store(nullptr, std::memory_order_release);
    g_guards[slot].thread.store(0, std::memory_order_release);
}

// The handlers installed before ours, which signals outside kernels are passed back to.
struct sigaction g_previous[NSIG];

int interrupt_signal() {
    return SIGRTMIN + 3;
}

uintptr_t interrupted_instruction(void* context) {
    const auto* uc = static_cast<const ucontext_t*>(context);
#if defined(__x86_64__)
    return uintptr_t(uc->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
    return uintptr_t(uc->uc_mcontext.pc);
#else
    (void)uc;
    return 0;
#endif
}

// Whether the signal was raised by this thread's own execution: a hardware fault (si_code > 0), or
// abort() (a failed assert), which sends SIGABRT to the calling thread (SI_TKILL from this process).
// Linux does not say which thread sent an SI_TKILL signal, so any other signal a thread of this process
// sends (pthread_kill(worker, SIGSEGV)) is not taken for the kernel's own fault.
bool raised_by_thread(int signal, const siginfo_t* info) {
    return info->si_code > 0 || (signal == SIGABRT && info->si_code == SI_TKILL && info->si_pid == getpid());
}

// Outside a kernel: restore the previous handler and let the signal reach it. A hardware fault repeats
// when the handler returns; a raised signal is raised again (it stays pending until we return).
void pass_on(int signal, const siginfo_t* info) {
    sigaction(signal, &g_previous[signal], nullptr);
    // Should the previous handler put ours back and raise again, the default action ends the process.
    g_previous[signal] = {};
    g_previous[signal].sa_handler = SIG_DFL;
    if (info->si_code <= 0)
        raise(signal);
}

// The innermost return address on this thread's stack that lies in `code` outside its memory checks, minus
// one (inside the call instruction, so its line is the caller's), or 0. Walks the frames through the signal
// trampoline with the unwinder's tables; called only where the unwinder's locks are free: for a SIGABRT the
// kernel raised (abort() from a failed assert, the interrupted instruction in the C library) and for a
// kernel interrupted inside a memory check.
uintptr_t innermost_call_in(const KernelCode& code) {
    struct Search {
        const KernelCode* code;
        uintptr_t found;
    } search{&code, 0};
    _Unwind_Backtrace(
        [](_Unwind_Context* frame, void* argument) {
            auto* search = static_cast<Search*>(argument);
            const uintptr_t ip = _Unwind_GetIP(frame);
            if (ip != 0 && search->code->contains(ip - 1) && !search->code->in_checks(ip - 1)) {
                search->found = ip - 1;
                return _URC_END_OF_STACK;
            }
            return _URC_NO_REASON;
        },
        &search);
    return search.found;
}

void install(int signal, void (*handler)(int, siginfo_t*, void*), int flags) {
    struct sigaction current;
    sigaction(signal, nullptr, &current);
    if ((current.sa_flags & SA_SIGINFO) && current.sa_sigaction == handler)
        return;
    g_previous[signal] = current;
    struct sigaction ours = {};
    ours.sa_sigaction = handler;
    ours.sa_flags = SA_SIGINFO | SA_ONSTACK | flags;
    sigemptyset(&ours.sa_mask);
    sigaction(signal, &ours, nullptr);
}

}  // namespace

void on_fault(int signal, siginfo_t* info, void* context) {
    FaultGuard* guard = guard_of_this_thread();
    if (guard == nullptr || !guard->armed_.load() || !raised_by_thread(signal, info)) {
        pass_on(signal, info);
        return;
    }
    Fault& fault = guard->fault_;
    fault = Fault{};  // the guard lives across kernels: nothing of an earlier fault or stop carries over
    fault.signal = signal;
    fault.address = uintptr_t(info->si_addr);
    fault.pc = interrupted_instruction(context);
    if (signal == SIGABRT && !guard->code_.contains(fault.pc)) {
        if (const uintptr_t call = innermost_call_in(guard->code_))
            fault.pc = call;  // the kernel's line that called abort (its failed assert)
    }
    fault.stack_overflow = signal == SIGSEGV && fault.address < guard->stack_low_ + 4096 &&
                           fault.address + kOverflowReach >= guard->stack_low_;
    guard->armed_.store(false);
    siglongjmp(guard->jump_, 1);
}

void on_interrupt(int, siginfo_t*, void* context) {
    FaultGuard* guard = guard_of_this_thread();
    if (guard == nullptr || !guard->armed_.load())
        return;
    uintptr_t pc = interrupted_instruction(context);
    if (guard->code_.in_checks(pc)) {
        if (const uintptr_t call = innermost_call_in(guard->code_))
            pc = call;  // the kernel's line whose load or store is being checked
    }
    guard->interrupted_pc_.store(pc);
    guard->interrupts_.fetch_add(1);
    if (!guard->stop_.load() || !guard->code_.contains(pc))
        return;
    guard->fault_ = Fault{};
    guard->fault_.pc = pc;
    guard->fault_.interrupted = true;
    guard->armed_.store(false);
    siglongjmp(guard->jump_, 1);
}

void forget_parent_guards() {
    for (GuardSlot& slot : g_guards) {
        slot.guard.store(nullptr, std::memory_order_relaxed);
        slot.thread.store(0, std::memory_order_relaxed);
    }
}

void install_fault_handlers() {
    static std::mutex mutex;
    std::lock_guard<std::mutex> lock(mutex);
    for (int signal : kFaultSignals)
        install(signal, on_fault, 0);
    install(interrupt_signal(), on_interrupt, SA_RESTART);
}

GuardedThread::GuardedThread() {
    alt_stack_ = mmap(nullptr, kAltStackBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (alt_stack_ == MAP_FAILED)
        throw DeviceError("cannot allocate a signal stack for a kernel worker thread");
    stack_t stack = {};
    stack.ss_sp = alt_stack_;
    stack.ss_size = kAltStackBytes;
    sigaltstack(&stack, nullptr);
    try {
        slot_ = register_thread();
    } catch (...) {
        stack_t disable = {};
        disable.ss_flags = SS_DISABLE;
        sigaltstack(&disable, nullptr);
        munmap(alt_stack_, kAltStackBytes);
        throw;
    }
}

GuardedThread::~GuardedThread() {
    unregister_thread(slot_);
    stack_t disable = {};
    disable.ss_flags = SS_DISABLE;
    sigaltstack(&disable, nullptr);
    munmap(alt_stack_, kAltStackBytes);
}

void GuardedThread::enter(FaultGuard* guard) {
    // Only this thread writes its slot, and its own signal handlers read it.
    g_guards[slot_].guard.store(guard, std::memory_order_release);
}

std::optional<Fault> FaultGuard::run(void (*entry)(kernel_abi::KernelContext*), kernel_abi::KernelContext* context,
                                     const KernelCode& code) {
    code_ = code;
    stop_.store(false);  // a stop request for the previous kernel that arrived after it returned
    // sigsetjmp saves the signal mask, so the jump also unblocks the signal being handled.
    if (sigsetjmp(jump_, 1) != 0)
        return fault_;
    armed_.store(true);
    try {
        entry(context);
    } catch (...) {
        armed_.store(false);
        throw;
    }
    armed_.store(false);
    return std::nullopt;
}

void FaultGuard::interrupt(bool stop) {
    if (stop)
        stop_.store(true);
    pthread_kill(thread_, interrupt_signal());
}

std::string signal_description(int signal) {
    switch (signal) {
        case SIGSEGV:
            return "SIGSEGV (invalid memory access)";
        case SIGBUS:
            return "SIGBUS (bus error: misaligned or unbacked memory access)";
        case SIGFPE:
            return "SIGFPE (arithmetic error, e.g. integer division by zero)";
        case SIGILL:
            return "SIGILL (illegal instruction, e.g. __builtin_trap)";
        case SIGABRT:
            return "SIGABRT (abort, e.g. a failed assert; its message is on stderr)";
    }
    return "signal " + std::to_string(signal);
}

KernelCode kernel_code_of(const void* function) {
    static std::mutex mutex;
    static std::map<std::string, KernelCode> known;
    Dl_info info;
    if (dladdr(function, &info) == 0 || info.dli_fname == nullptr)
        return {};
    std::lock_guard<std::mutex> lock(mutex);
    auto it = known.find(info.dli_fname);
    if (it != known.end() && it->second.load_base == uintptr_t(info.dli_fbase))
        return it->second;
    KernelCode code;
    code.object_path = info.dli_fname;
    auto visit = [](dl_phdr_info* object, size_t, void* data) {
        auto* code = static_cast<KernelCode*>(data);
        if (object->dlpi_name == nullptr || code->object_path != object->dlpi_name)
            return 0;
        for (int i = 0; i < object->dlpi_phnum; i++) {
            const ElfW(Phdr)& segment = object->dlpi_phdr[i];
            if (segment.p_type == PT_LOAD && (segment.p_flags & PF_X)) {
                code->load_base = object->dlpi_addr;
                code->begin = object->dlpi_addr + segment.p_vaddr;
                code->end = code->begin + segment.p_memsz;
            }
        }
        return 1;
    };
    dl_iterate_phdr(visit, &code);
    if (void* object = dlopen(code.object_path.c_str(), RTLD_LAZY | RTLD_NOLOAD)) {
        using Range = void (*)(uintptr_t*, uintptr_t*);
        if (auto range = reinterpret_cast<Range>(dlsym(object, "runtime_mock_memory_check_code")))
            range(&code.checks_begin, &code.checks_end);
        dlclose(object);
    }
    return known[code.object_path] = code;
}

std::string source_line_of(const KernelCode& code, uintptr_t pc, const std::string& source_path) {
    if (!code.contains(pc))
        return "";
    std::ostringstream address;
    address << "0x" << std::hex << (pc - code.load_base);
    const auto [status, output] =
        run_program("addr2line", {"-i", "-e", code.object_path, address.str()}, "addr2line", StandardError::Discard);
    if (status != 0)
        return "";
    std::vector<std::string> frames;  // innermost first
    std::istringstream lines(output);
    for (std::string frame; std::getline(lines, frame);) {
        if (!frame.empty() && frame.back() == '\r')
            frame.pop_back();
        if (const size_t paren = frame.find(" ("); paren != std::string::npos)
            frame.erase(paren);  // "(discriminator N)"
        if (!frame.empty() && frame.front() != '?')
            frames.push_back(frame);
    }
    for (const std::string& frame : frames) {
        if (frame.rfind(source_path + ":", 0) == 0)
            return frame;
    }
    return frames.empty() ? "" : frames.front();
}

}  // namespace runtime_mock
