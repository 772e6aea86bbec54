// The second symbol the runtime looks up in every kernel shared object, beside tt_mock_kernel_entry.
//
// Kernels run as fibers (runtime_mock/src/fiber.hpp); fibers of many kernels share a worker thread, so
// the thread-local `current_context` of this object may hold another kernel's context when a fiber of
// this kernel is resumed. The runtime calls tt_mock_kernel_resume before it returns into kernel code
// after a wait, which points it back at this kernel's context. Included once, by the kernel's entry header.
#pragma once

#include "tt_mock_device/kernel_context.h"

extern "C" __attribute__((visibility("default"))) void tt_mock_kernel_resume(tt_mock_device::KernelContext* context) {
    tt_mock_device::current_context = context;
}
