#include "kernel_loader.hpp"

#include <dlfcn.h>

#include <map>
#include <mutex>
#include <utility>

#include "runtime_mock/device.hpp"

namespace runtime_mock {

LoadedKernel load_kernel(const std::string& so_path, const std::string& source_path) {
    static std::mutex mutex;
    static std::map<std::string, LoadedKernel> loaded;
    std::lock_guard<std::mutex> lock(mutex);
    auto it = loaded.find(so_path);
    if (it != loaded.end())
        return it->second;
    void* handle = dlopen(so_path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
        throw KernelBuildError("cannot load kernel " + source_path + " (" + so_path + "): " + dlerror());
    }
    LoadedKernel kernel;
    for (auto [symbol, address] : {std::pair{"runtime_mock_kernel_entry", &kernel.entry},
                                   std::pair{"runtime_mock_kernel_resume", &kernel.resume}}) {
        *address = reinterpret_cast<KernelEntry>(dlsym(handle, symbol));
        if (*address == nullptr)
            throw KernelBuildError("kernel " + source_path + " has no " + symbol + " symbol (" + so_path + ")");
    }
    return loaded[so_path] = kernel;
}

}  // namespace runtime_mock
