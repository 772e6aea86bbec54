// Where CreateKernel finds a kernel source, in the SDK's order: an absolute path as given; else
// relative to the working directory, to $TT_METAL_KERNEL_PATH (run_sdk_program's --kernel-root sets
// it), then to $TT_METAL_HOME. A missing file is an error naming every place tried.
#pragma once

#include <string>

namespace tt::tt_metal::host_detail {

// The absolute path of the kernel source `file_name`; throws naming every place tried if there is none.
std::string resolve_kernel_path(const std::string& file_name);

}  // namespace tt::tt_metal::host_detail
