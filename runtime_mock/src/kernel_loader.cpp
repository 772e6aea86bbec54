#include "kernel_loader.hpp"

#include <dlfcn.h>

#include <map>
#include <mutex>

#include "runtime_mock/device.hpp"

namespace tt_mock {

KernelEntry load_kernel(const std::string& so_path, const std::string& source_path) {
    static std::mutex mutex;
    static std::map<std::string, KernelEntry> loaded;
    std::lock_guard<std::mutex> lock(mutex);
    auto it = loaded.find(so_path);
    if (it != loaded.end())
        return it->second;
    void* handle = dlopen(so_path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
        throw KernelBuildError("cannot load kernel " + source_path + " (" + so_path + "): " + dlerror());
    }
    auto entry = reinterpret_cast<KernelEntry>(dlsym(handle, "tt_mock_kernel_entry"));
    if (entry == nullptr) {
        throw KernelBuildError("kernel " + source_path + " has no tt_mock_kernel_entry symbol (" + so_path + ")");
    }
    return loaded[so_path] = entry;
}

}  // namespace tt_mock
