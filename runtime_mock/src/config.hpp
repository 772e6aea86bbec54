// Every environment variable the simulator reads, in one place.
//
//   TT_METAL_MOCK_ARCH              default arch of new devices (wormhole | blackhole)
//   TT_METAL_MOCK_SHIM_INCLUDE      metal_shim/include, the SDK headers kernels are compiled against (required)
//   TT_METAL_MOCK_KERNEL_ABI_INCLUDE  runtime_mock/kernel_abi, the simulator's kernel ABI those headers forward
//                                   to, the kernels' second include root (required)
//   TT_METAL_MOCK_CACHE_DIR         kernel build cache (default ~/.cache/tilelang_tt/kernels)
//   TT_METAL_MOCK_CXX               compiler for kernels (default g++)
//   TT_METAL_MOCK_WATCHDOG_SECONDS  how long no kernel may make progress before a run fails (default 5)
//   TT_METAL_MOCK_PROFILE           1: every run records and replays the timing model (profile.hpp)
//   TT_METAL_MOCK_L1_WAIT_SECONDS   how long a new device waits for L1 address space below 4 GiB that other
//                                   devices of the process hold (default 30)
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace tt_mock::config {

std::optional<std::string> arch_name();
// The include roots kernels are compiled against: metal_shim/include, then runtime_mock/kernel_abi. Throws
// KernelBuildError naming the variable that is unset.
std::vector<std::string> kernel_include_dirs();
std::string kernel_cache_dir();
std::string kernel_compiler();
double watchdog_seconds();
double l1_wait_seconds();
bool profile_every_run();

}  // namespace tt_mock::config
