// Kernel source lookup for CreateKernel (kernel_path.hpp), in the SDK's order.
#include "kernel_path.hpp"

#include <tt_stl/assert.hpp>

#include <cstdlib>
#include <filesystem>
#include <vector>

namespace tt::tt_metal::host_detail {

std::string resolve_kernel_path(const std::string& file_name) {
    namespace fs = std::filesystem;
    const fs::path given(file_name);
    std::vector<fs::path> candidates;
    if (given.is_absolute()) {
        candidates.push_back(given);
    } else {
        candidates.push_back(fs::current_path() / given);
        for (const char* variable : {"TT_METAL_KERNEL_PATH", "TT_METAL_HOME"}) {
            const char* root = std::getenv(variable);
            if (root != nullptr && *root != '\0') {
                candidates.push_back(fs::absolute(fs::path(root) / given));
            }
        }
    }
    std::string tried;
    for (const fs::path& candidate : candidates) {
        if (fs::is_regular_file(candidate)) {
            return candidate.lexically_normal().string();
        }
        tried += "\n  " + candidate.string();
    }
    TT_THROW(
        "CreateKernel: kernel file '{}' not found. Tried:{}\n(relative paths are looked up in the working directory, "
        "$TT_METAL_KERNEL_PATH and $TT_METAL_HOME)",
        file_name, tried);
}

}  // namespace tt::tt_metal::host_detail
