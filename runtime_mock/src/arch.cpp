// The two simulated architectures' facts (generated from their data files), the process-wide default
// arch and its per-thread override.
#include "runtime_mock/arch.hpp"

#include <atomic>
#include <optional>
#include <stdexcept>

#include "config.hpp"
#include "runtime_mock/arch_data.hpp"

namespace runtime_mock {

namespace {

std::atomic<int> g_default_arch{-1};
thread_local int t_thread_arch = -1;

}  // namespace

const ArchSpec& arch_spec(Arch arch) {
    return arch == Arch::Wormhole ? kWormholeB0Spec : kBlackholeSpec;
}

Arch parse_arch(const std::string& name) {
    if (name == "wormhole" || name == "wormhole_b0")
        return Arch::Wormhole;
    if (name == "blackhole")
        return Arch::Blackhole;
    throw std::invalid_argument("unknown Tenstorrent arch '" + name +
                                "' (expected wormhole, wormhole_b0 or blackhole)");
}

Arch default_arch() {
    if (t_thread_arch >= 0)
        return Arch(t_thread_arch);
    const int chosen = g_default_arch.load();
    if (chosen >= 0)
        return Arch(chosen);
    const std::optional<std::string> env = config::arch_name();
    return env ? parse_arch(*env) : Arch::Wormhole;
}

void set_default_arch(Arch arch) {
    g_default_arch.store(int(arch));
}

ThreadArch::ThreadArch(Arch arch) : previous_(t_thread_arch) {
    t_thread_arch = int(arch);
}

ThreadArch::~ThreadArch() {
    t_thread_arch = previous_;
}

}  // namespace runtime_mock
