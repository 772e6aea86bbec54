// Every memory access of a kernel's own code is checked against its core's L1 window.
//
// Kernels dereference uint32 L1 addresses, and every device's L1 lives in the process's low address space
// (kLowAddressSpaceBegin..End, kernel_context.h), one core after another. A raw pointer
// that runs past a core's L1 therefore lands in a neighbour's L1 (or another device's), which silicon never
// allows and which no guard page between the cores can cover for every distance. So kernels are built with
// g++'s address instrumentation in its callback form (-fsanitize=kernel-address, kernel_build_flags.hpp):
// every load and store of the kernel's own code calls one of the __asan_* functions below with its address
// and size, and this object's definitions check it. Accesses outside the low address space (the kernel's
// stack, the heap, the runtime's structures) pass at the cost of one comparison; an access inside it must
// lie in the calling kernel's own core's L1. One that does not is noted in the kernel's context (the
// address, size, direction and the calling instruction) and ends the kernel with a trap, which the runtime's
// fault handler turns into a located KernelFaultError (scheduler.cpp, fault_report). A trap rather than an
// exception, because the check runs inside any function, `noexcept` ones included.
//
// The kernel's own calls of memcpy, memmove and memset reach this object's __wrap_* definitions (the link's
// --wrap), which check both ranges before they call the C library's.
//
// Under race detection (KernelContext::race_detection) each access of the core's own L1 is also reported to
// the runtime's race detector (runtime_mock/src/race_detector.hpp).
//
// Not checked: the runtime's accesses (every NOC transfer and API call checks its addresses itself), and the
// kernel ABI's bulk tile conversions (tile_format.h), which read and write CB pages the runtime handed out.
// Included once, by kernel_resume.h.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime_mock/kernel_abi/kernel_context.h"

// The checks' code goes into a section of its own, so that the runtime can tell a kernel interrupted inside
// a check (a spin on a volatile L1 word spends its time there) and name the kernel's line that called it.
#define RUNTIME_MOCK_MEMORY_CHECK __attribute__((section("runtime_mock_memory_checks"), visibility("hidden")))

namespace runtime_mock::kernel_abi {

// Notes a stray access in the kernel's context and traps (the runtime reports it, at `pc`).
RUNTIME_MOCK_UNCHECKED RUNTIME_MOCK_MEMORY_CHECK [[noreturn]] __attribute__((noinline, cold)) void stop_at_stray_access(
    KernelContext* context, uintptr_t address, size_t size, bool write, uintptr_t pc) {
    context->stray_access = StrayAccess{address, uint64_t(size), uint32_t(write), pc};
    __builtin_trap();
}

// Checks an access of `size` bytes at `address` made by the instruction before `return_address`.
RUNTIME_MOCK_UNCHECKED __attribute__((always_inline)) inline void check_access(uintptr_t address, size_t size,
                                                                               bool write, void* return_address) {
    if (address - kLowAddressSpaceBegin >= kLowAddressSpaceEnd - kLowAddressSpaceBegin)
        return;
    KernelContext* context = current_context;
    if (context == nullptr || size == 0)
        return;
    const uint64_t offset = address - context->core->l1_base;
    if (offset < context->core->l1_size && size <= context->core->l1_size - offset) {
        if (context->race_detection) {
            const uintptr_t pc = uintptr_t(return_address) - 1;
            __atomic_store_n(&context->checking_pc, pc, __ATOMIC_RELAXED);
            context->fn->race_access(context, uint32_t(address), uint32_t(size), write ? 1 : 0, pc, nullptr,
                                     CallSite("", 0));
            __atomic_store_n(&context->checking_pc, uintptr_t(0), __ATOMIC_RELAXED);
        }
        return;
    }
    stop_at_stray_access(context, address, size, write, uintptr_t(return_address) - 1);
}

}  // namespace runtime_mock::kernel_abi

// The callbacks g++ emits for -fsanitize=kernel-address with asan-instrumentation-with-call-threshold=0.
#define RUNTIME_MOCK_ACCESS_CHECK(name, size, write)                                               \
    extern "C" RUNTIME_MOCK_MEMORY_CHECK RUNTIME_MOCK_UNCHECKED void name(uintptr_t address) {     \
        runtime_mock::kernel_abi::check_access(address, size, write, __builtin_return_address(0)); \
    }
RUNTIME_MOCK_ACCESS_CHECK(__asan_load1_noabort, 1, false)
RUNTIME_MOCK_ACCESS_CHECK(__asan_load2_noabort, 2, false)
RUNTIME_MOCK_ACCESS_CHECK(__asan_load4_noabort, 4, false)
RUNTIME_MOCK_ACCESS_CHECK(__asan_load8_noabort, 8, false)
RUNTIME_MOCK_ACCESS_CHECK(__asan_load16_noabort, 16, false)
RUNTIME_MOCK_ACCESS_CHECK(__asan_store1_noabort, 1, true)
RUNTIME_MOCK_ACCESS_CHECK(__asan_store2_noabort, 2, true)
RUNTIME_MOCK_ACCESS_CHECK(__asan_store4_noabort, 4, true)
RUNTIME_MOCK_ACCESS_CHECK(__asan_store8_noabort, 8, true)
RUNTIME_MOCK_ACCESS_CHECK(__asan_store16_noabort, 16, true)
#undef RUNTIME_MOCK_ACCESS_CHECK

extern "C" RUNTIME_MOCK_MEMORY_CHECK RUNTIME_MOCK_UNCHECKED void __asan_loadN_noabort(uintptr_t address, size_t size) {
    runtime_mock::kernel_abi::check_access(address, size, false, __builtin_return_address(0));
}
extern "C" RUNTIME_MOCK_MEMORY_CHECK RUNTIME_MOCK_UNCHECKED void __asan_storeN_noabort(uintptr_t address, size_t size) {
    runtime_mock::kernel_abi::check_access(address, size, true, __builtin_return_address(0));
}
// Emitted before a call that does not return (a throw); the checker keeps no state to unwind.
extern "C" RUNTIME_MOCK_MEMORY_CHECK void __asan_handle_no_return() {}

// The kernel object is linked with --wrap for memcpy, memmove and memset (jit.cpp): its calls of them reach
// these definitions, and __real_* names the C library's.
extern "C" void* __real_memcpy(void* destination, const void* source, size_t bytes);
extern "C" void* __real_memmove(void* destination, const void* source, size_t bytes);
extern "C" void* __real_memset(void* destination, int value, size_t bytes);

extern "C" RUNTIME_MOCK_MEMORY_CHECK RUNTIME_MOCK_UNCHECKED void* __wrap_memcpy(void* destination, const void* source,
                                                                                size_t bytes) {
    runtime_mock::kernel_abi::check_access(uintptr_t(source), bytes, false, __builtin_return_address(0));
    runtime_mock::kernel_abi::check_access(uintptr_t(destination), bytes, true, __builtin_return_address(0));
    return __real_memcpy(destination, source, bytes);
}
extern "C" RUNTIME_MOCK_MEMORY_CHECK RUNTIME_MOCK_UNCHECKED void* __wrap_memmove(void* destination, const void* source,
                                                                                 size_t bytes) {
    runtime_mock::kernel_abi::check_access(uintptr_t(source), bytes, false, __builtin_return_address(0));
    runtime_mock::kernel_abi::check_access(uintptr_t(destination), bytes, true, __builtin_return_address(0));
    return __real_memmove(destination, source, bytes);
}
extern "C" RUNTIME_MOCK_MEMORY_CHECK RUNTIME_MOCK_UNCHECKED void* __wrap_memset(void* destination, int value,
                                                                                size_t bytes) {
    runtime_mock::kernel_abi::check_access(uintptr_t(destination), bytes, true, __builtin_return_address(0));
    return __real_memset(destination, value, bytes);
}

// The code range of the checks (the linker defines these bounds of their section), which the runtime looks
// up (runtime_mock/src/fault_handler.cpp, kernel_code_of).
extern "C" __attribute__((visibility("hidden"))) const char __start_runtime_mock_memory_checks[];
extern "C" __attribute__((visibility("hidden"))) const char __stop_runtime_mock_memory_checks[];
extern "C" __attribute__((visibility("default"))) void runtime_mock_memory_check_code(uintptr_t* begin,
                                                                                      uintptr_t* end) {
    *begin = uintptr_t(__start_runtime_mock_memory_checks);
    *end = uintptr_t(__stop_runtime_mock_memory_checks);
}
