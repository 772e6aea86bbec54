// What both kernel entry headers share: the check that the kernel and the runtime agree on the kernel ABI,
// and the second symbol the runtime looks up in every kernel object, beside runtime_mock_kernel_entry.
//
// Kernels run as fibers (runtime_mock/src/fiber.hpp); fibers of many kernels share a worker thread, so
// the thread-local `current_context` of this object may hold another kernel's context when a fiber of
// this kernel is resumed. The runtime calls runtime_mock_kernel_resume before it returns into kernel code
// after a wait, which points it back at this kernel's context. Included once, by the kernel's entry header.
#pragma once

#include <dlfcn.h>

#include <cstdint>

#include "runtime_mock/kernel_abi/kernel_context.h"
#include "runtime_mock/kernel_abi/memory_check.h"

namespace runtime_mock::kernel_abi {

// Fails (with a Protocol error naming the cause) when the runtime was built from other versions of the shared
// structures than this kernel, e.g. RUNTIME_MOCK_KERNEL_ABI_INCLUDE points at headers of another build. Reads only
// the two fields whose place never changes.
inline void check_kernel_abi(KernelContext* context) {
    if (context->abi_layout == kKernelAbiLayout)
        return;
    context->fn->fail(
        context, ErrorKind::Protocol, "kernel start",
        "the kernel was compiled against a kernel ABI (runtime_mock/kernel_abi headers) that differs from this "
        "runtime's "
        "(RUNTIME_MOCK_KERNEL_ABI_INCLUDE must name the kernel ABI of the runtime_mock build that runs it)",
        CallSite("", 0));
}

}  // namespace runtime_mock::kernel_abi

extern "C" __attribute__((visibility("default"))) void runtime_mock_kernel_resume(
    runtime_mock::kernel_abi::KernelContext* context) {
    runtime_mock::kernel_abi::current_context = context;
}

// Every `throw` in the kernel's code calls this definition (hidden: only this object's calls bind to it). It
// notes the exception and where it was thrown, then throws it with the C++ runtime's own __cxa_throw. Its
// signature is the one g++ declares implicitly for a throw expression (the type as void*). Exceptions thrown
// inside the C++ library (std::vector::at) do not pass here and are reported without a line.
extern "C" __attribute__((visibility("hidden"), noreturn)) void __cxa_throw(void* object, void* type,
                                                                            void (*destroy)(void*)) {
    using Throw = void (*)(void*, void*, void (*)(void*));
    static const Throw next = reinterpret_cast<Throw>(dlsym(RTLD_NEXT, "__cxa_throw"));
    if (runtime_mock::kernel_abi::KernelContext* context = runtime_mock::kernel_abi::current_context) {
        context->thrown_object = object;
        context->throw_pc = uintptr_t(__builtin_return_address(0)) - 1;
    }
    next(object, type, destroy);
    __builtin_unreachable();
}
