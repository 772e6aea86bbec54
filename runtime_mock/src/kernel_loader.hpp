// Loading built kernels: dlopen each shared object once per process (kernels are never unloaded, so a
// kernel abandoned by the watchdog can never run unmapped code) and find its two symbols (kernel_context.h):
// the entry point and the resume hook.
#pragma once

#include <string>

#include "runtime_mock/kernel_abi/kernel_context.h"

namespace runtime_mock {

using KernelEntry = void (*)(kernel_abi::KernelContext*);

struct LoadedKernel {
    KernelEntry entry = nullptr;   // runtime_mock_kernel_entry
    KernelEntry resume = nullptr;  // runtime_mock_kernel_resume
};

// Throws KernelBuildError naming the kernel source when the object cannot be loaded.
LoadedKernel load_kernel(const std::string& so_path, const std::string& source_path);

}  // namespace runtime_mock
