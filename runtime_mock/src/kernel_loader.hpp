// Loading built kernels: dlopen each shared object once per process (kernels are never unloaded, so a
// kernel thread abandoned by the watchdog can never run unmapped code) and find its entry point,
// `extern "C" void tt_mock_kernel_entry(tt_mock_device::KernelContext*)`.
#pragma once

#include <string>

#include "tt_mock_device/kernel_context.h"

namespace tt_mock {

using KernelEntry = void (*)(tt_mock_device::KernelContext*);

// Throws KernelBuildError naming the kernel source when the object cannot be loaded.
KernelEntry load_kernel(const std::string& so_path, const std::string& source_path);

}  // namespace tt_mock
