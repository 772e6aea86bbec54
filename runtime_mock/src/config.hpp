// Every environment variable the simulator reads, in one place.
//
//   RUNTIME_MOCK_ARCH              default arch of new devices (wormhole | blackhole)
//   RUNTIME_MOCK_SHIM_INCLUDE      metal_shim/include, the SDK headers kernels are compiled against (required)
//   RUNTIME_MOCK_KERNEL_ABI_INCLUDE  runtime_mock/include, the kernels' second include root: the simulator's
//                                   kernel ABI (runtime_mock/kernel_abi/*.h) those headers forward to (required)
//   RUNTIME_MOCK_CACHE_DIR         kernel build cache (default ~/.cache/tilelang_tt/kernels)
//   RUNTIME_MOCK_CXX               compiler for kernels (default g++)
//   RUNTIME_MOCK_KERNEL_PCH        a header every kernel force-includes first, used when its .gch lies beside
//                                   it (runtime_mock/pch/kernel_std.hpp, which the build precompiles; optional)
//   RUNTIME_MOCK_WATCHDOG_SECONDS  how long no kernel may make progress before a run fails (default 5)
//   RUNTIME_MOCK_PROFILE           1: every run records and replays the timing model (profile.hpp)
//   RUNTIME_MOCK_LANES             how many OS threads ("lanes") run a program's kernels (default one per CPU
//                                   this process may use; more than the CPUs makes the host preempt kernels
//                                   at any instruction, as a many-CPU machine interleaves them)
//   RUNTIME_MOCK_SCHEDULE_SEED     a number (0 to 2^64-1): every run's kernels share one lane and interleave
//                                   as drawn from it (which ready kernel runs next, and whether a kernel lets
//                                   another run after each NOC transfer or barrier, semaphore update and CB
//                                   wake-up), so one seed replays one interleaving exactly and other seeds
//                                   try others; unset (default): lanes interleave as the host runs them
//   RUNTIME_MOCK_L1_WAIT_SECONDS   how long a new device waits for L1 address space below 4 GiB that other
//                                   devices of the process hold (default 30)
//   RUNTIME_MOCK_L1_FILL           what a new device's L1 holds above the reserved area until something writes
//                                   it: zero (default) or poison (0xff bytes: NaN in every float format, so
//                                   a result that depends on never-written L1 is visibly wrong, as on silicon)
//   RUNTIME_MOCK_RACE_DETECTION    1: report two kernels' unordered accesses of the same L1 bytes, one a write
//                                   (DataRaceError; race_detector.hpp); 0 or unset (default): off
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace runtime_mock::config {

std::optional<std::string> arch_name();
// The include roots kernels are compiled against: metal_shim/include, then runtime_mock/include. Throws
// KernelBuildError naming the variable that is unset.
std::vector<std::string> kernel_include_dirs();
std::string kernel_cache_dir();
std::string kernel_compiler();
std::optional<std::string> kernel_precompiled_header();
double watchdog_seconds();
double l1_wait_seconds();
// The lane count a run uses at most (a run never has more lanes than cores with kernels).
size_t lanes();
bool profile_every_run();
// RUNTIME_MOCK_SCHEDULE_SEED, none when unset; throws ArgumentError naming the variable for a value that is
// not a 64-bit unsigned number.
std::optional<uint64_t> schedule_seed();
// RUNTIME_MOCK_L1_FILL=poison; throws ArgumentError naming the variable for a value other than zero/poison.
bool poison_fresh_l1();
// RUNTIME_MOCK_RACE_DETECTION=1 (0 or unset: off); throws ArgumentError for another value.
bool race_detection();

}  // namespace runtime_mock::config
