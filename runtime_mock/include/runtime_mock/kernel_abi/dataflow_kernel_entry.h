// Force-included (-include) into every data-movement kernel, like the SDK firmware's brisck.cc /
// ncrisck.cc: the whole dataflow API plus the entry point the runtime calls on the kernel's thread.
#pragma once

#include "api/dataflow/dataflow_api.h"
#include "runtime_mock/kernel_abi/kernel_resume.h"

void kernel_main() __attribute__((weak));

extern "C" __attribute__((visibility("default"))) void runtime_mock_kernel_entry(
    runtime_mock::kernel_abi::KernelContext* context) {
    runtime_mock::kernel_abi::check_kernel_abi(context);
    runtime_mock::kernel_abi::current_context = context;
    if (!kernel_main) {
        runtime_mock::kernel_abi::fail(runtime_mock::kernel_abi::ErrorKind::Protocol, "kernel_main",
                                       "the data-movement kernel defines no `void kernel_main()`",
                                       runtime_mock::kernel_abi::CallSite());
    }
    kernel_main();
    runtime_mock::kernel_abi::flush_print_line();
}
