// Force-included (-include) into every data-movement kernel, like the SDK firmware's brisck.cc /
// ncrisck.cc: the whole dataflow API plus the entry point the runtime calls on the kernel's thread.
#pragma once

#include "api/dataflow/dataflow_api.h"
#include "tt_mock_device/kernel_resume.h"

void kernel_main() __attribute__((weak));

extern "C" __attribute__((visibility("default"))) void tt_mock_kernel_entry(tt_mock_device::KernelContext* context) {
    tt_mock_device::check_kernel_abi(context);
    tt_mock_device::current_context = context;
    if (!kernel_main) {
        tt_mock_device::fail(tt_mock_device::ErrorKind::Protocol, "kernel_main",
                             "the data-movement kernel defines no `void kernel_main()`", tt_mock_device::CallSite());
    }
    kernel_main();
    tt_mock_device::flush_print_line();
}
