// A data-movement kernel that crashes in the way its FAULT_* define selects; the line of each crash
// carries a "// fault:<NAME>" marker that test_faults.cpp and test_kernel_faults.py look up to check the
// reported line. Runtime args: a zero the compiler cannot see (divisor, null address, spin flag value),
// and `n`: the recursion depth (STACK_OVERFLOW) or the bytes from CB c_0, the first CB, to the end of the
// core's L1 (L1_OVERRUN, L1_NEIGHBOUR, L1_MEMCPY).
#include <pthread.h>

#include <cassert>
#include <csignal>
#include <ctime>
#include <cstdint>
#include <cstring>
#include <stdexcept>

namespace {

// Recurses `depth` times with a frame the compiler cannot fold away; overflows the thread's stack.
uint32_t recurse(uint32_t depth) {
    volatile uint8_t frame[4096];
    frame[0] = uint8_t(depth);
    if (depth == 0)
        return frame[0];
    return recurse(depth - 1) + frame[0];  // fault:STACK_OVERFLOW
}

}  // namespace

void kernel_main() {
    const uint32_t zero = get_arg_val<uint32_t>(0);
    const uint32_t n = get_arg_val<uint32_t>(1);
    uint32_t result = 0;
#if defined(FAULT_NULL)
    result = *reinterpret_cast<volatile uint32_t*>(uintptr_t(zero));  // fault:NULL
#elif defined(FAULT_DIVIDE_BY_ZERO)
    result = n / zero;  // fault:DIVIDE_BY_ZERO
#elif defined(FAULT_ASSERT)
    assert(zero == 1);  // fault:ASSERT
#elif defined(FAULT_STACK_OVERFLOW)
    result = recurse(n);
#elif defined(FAULT_THROW)
    if (zero == 0)
        throw std::runtime_error("thrown by the kernel");  // fault:THROW
#elif defined(FAULT_TRAP)
    if (zero == 0)
        __builtin_trap();  // fault:TRAP
#elif defined(FAULT_L1_OVERRUN)
    // A word just past the end of this core's L1.
    const uint32_t l1_end = get_write_ptr(tt::CBIndex::c_0) + n;
    *reinterpret_cast<volatile uint32_t*>(uintptr_t(l1_end) + 0x100) = 1;  // fault:L1_OVERRUN
#elif defined(FAULT_L1_NEIGHBOUR)
    // 2 MiB past the end of this core's L1: past any guard, in another core's L1.
    const uint32_t l1_end = get_write_ptr(tt::CBIndex::c_0) + n;
    result = *reinterpret_cast<volatile uint32_t*>(uintptr_t(l1_end) + (2u << 20));  // fault:L1_NEIGHBOUR
#elif defined(FAULT_L1_MEMCPY)
    // A copy of a length the compiler cannot see (a call of memcpy) into another core's L1.
    const uint32_t l1_end = get_write_ptr(tt::CBIndex::c_0) + n;
    uint8_t bytes[64] = {};
    std::memcpy(reinterpret_cast<void*>(uintptr_t(l1_end) + (2u << 20)), bytes, zero + 64);  // fault:L1_MEMCPY
#elif defined(FAULT_UNSTOPPABLE)
    // Sleeps 5 s with every signal blocked, so the runtime cannot stop it after an abort and abandons it.
    sigset_t all, before;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &before);
    timespec left{5, 0};
    while (nanosleep(&left, &left) != 0) {
    }
    pthread_sigmask(SIG_SETMASK, &before, nullptr);
#elif defined(FAULT_SPIN)
    volatile tt_l1_ptr uint32_t* flag = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_semaphore(0));
    while (*flag == zero) {  // fault:SPIN
    }
#endif
    DPRINT << "faulting.cpp did not fault: " << result << ENDL();
}
