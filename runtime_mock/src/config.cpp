#include "config.hpp"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <string>

#include "cpu_placement.hpp"
#include "runtime_mock/device.hpp"

namespace runtime_mock::config {

namespace {

std::optional<std::string> env(const char* name) {
    const char* value = std::getenv(name);
    if (value == nullptr || *value == '\0')
        return std::nullopt;
    return std::string(value);
}

// A duration in seconds from the environment; a value that is not a non-negative number is an error
// naming the variable.
double seconds(const char* name, double fallback) {
    const std::optional<std::string> value = env(name);
    if (!value)
        return fallback;
    char* end = nullptr;
    const double parsed = std::strtod(value->c_str(), &end);
    if (end == value->c_str() || *end != '\0' || !(parsed >= 0))
        throw ArgumentError(std::string(name) + "='" + *value + "' is not a number of seconds");
    return parsed;
}

}  // namespace

std::optional<std::string> arch_name() {
    return env("RUNTIME_MOCK_ARCH");
}

std::vector<std::string> kernel_include_dirs() {
    std::vector<std::string> dirs;
    for (const auto& [variable, tree] : {std::pair{"RUNTIME_MOCK_SHIM_INCLUDE", "metal_shim/include"},
                                         std::pair{"RUNTIME_MOCK_KERNEL_ABI_INCLUDE", "runtime_mock/include"}}) {
        auto dir = env(variable);
        if (!dir) {
            throw KernelBuildError(std::string(variable) + " is not set: point it at " + tree +
                                   " so kernels can be compiled (the runtime_mock Python package and the tests set it "
                                   "from their runfiles)");
        }
        dirs.push_back(*dir);
    }
    return dirs;
}

std::string kernel_cache_dir() {
    if (auto dir = env("RUNTIME_MOCK_CACHE_DIR"))
        return *dir;
    if (auto home = env("HOME"))
        return *home + "/.cache/tilelang_tt/kernels";
    return "/tmp/tilelang_tt/kernels";
}

std::string kernel_compiler() {
    return env("RUNTIME_MOCK_CXX").value_or("g++");
}

std::optional<std::string> kernel_precompiled_header() {
    return env("RUNTIME_MOCK_KERNEL_PCH");
}

double watchdog_seconds() {
    return seconds("RUNTIME_MOCK_WATCHDOG_SECONDS", 5.0);
}

double l1_wait_seconds() {
    return seconds("RUNTIME_MOCK_L1_WAIT_SECONDS", 30.0);
}

size_t lanes() {
    const std::optional<std::string> value = env("RUNTIME_MOCK_LANES");
    if (!value)
        return usable_cpu_count();
    char* end = nullptr;
    const unsigned long parsed = std::strtoul(value->c_str(), &end, 10);
    if (end == value->c_str() || *end != '\0' || parsed == 0 || parsed > 4096 || value->front() == '-')
        throw ArgumentError("RUNTIME_MOCK_LANES='" + *value + "' is not a lane count from 1 to 4096");
    return parsed;
}

std::optional<uint64_t> schedule_seed() {
    const std::optional<std::string> value = env("RUNTIME_MOCK_SCHEDULE_SEED");
    if (!value)
        return std::nullopt;
    char* end = nullptr;
    errno = 0;
    const unsigned long long parsed = std::strtoull(value->c_str(), &end, 10);
    if (end == value->c_str() || *end != '\0' || errno == ERANGE || !std::isdigit(uint8_t(value->front())))
        throw ArgumentError("RUNTIME_MOCK_SCHEDULE_SEED='" + *value + "' is not a seed (a number from 0 to 2^64-1)");
    return uint64_t(parsed);
}

bool profile_every_run() {
    return env("RUNTIME_MOCK_PROFILE").value_or("") == "1";
}

bool poison_fresh_l1() {
    const std::string value = env("RUNTIME_MOCK_L1_FILL").value_or("zero");
    if (value != "zero" && value != "poison")
        throw ArgumentError("RUNTIME_MOCK_L1_FILL='" + value + "' is neither zero nor poison");
    return value == "poison";
}

bool race_detection() {
    const std::string value = env("RUNTIME_MOCK_RACE_DETECTION").value_or("0");
    if (value != "0" && value != "1")
        throw ArgumentError("RUNTIME_MOCK_RACE_DETECTION='" + value + "' is neither 0 nor 1");
    return value == "1";
}

}  // namespace runtime_mock::config
