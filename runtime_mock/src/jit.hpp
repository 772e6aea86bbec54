// JIT build of kernels: each (source, role, compile-time args, named args, defines, compute options,
// CB formats, arch) is compiled with the host C++ compiler into its own shared object, cached on disk
// under a content hash of the compiler's version banner, every flag, the source, every header under the
// two include roots (the shim's and the kernel ABI's) and every other header the kernel included (recorded
// from the compiler's -MMD depfile).
//
// Command: $RUNTIME_MOCK_CXX (g++) -std=c++17 -O3 -march=native -fPIC -shared
//          -I $RUNTIME_MOCK_SHIM_INCLUDE -I $RUNTIME_MOCK_KERNEL_ABI_INCLUDE -I <kernel dir>
//          -include runtime_mock/kernel_abi/<role>_kernel_entry.h
//          -DKERNEL_COMPILE_TIME_ARGS=... [-DKERNEL_COMPILE_TIME_ARG_MAP=...] -DRUNTIME_MOCK_CB_FORMATS=...
//          -DARCH_WORMHOLE|-DARCH_BLACKHOLE [compute: -DRUNTIME_MOCK_FP32_DEST_ACC= ...] <defines> <source>
// Output: <cache dir>/<object hash>.so with its manifest (size, content hash) and <cache dir>/<source
// hash>.deps (the included headers), each written atomically (temp file + rename), so processes may share
// the cache directory. A cached object is verified against its manifest and loaded before it is used; one
// that is damaged or does not load is rebuilt (cache_entry.hpp). The cache directory is
// $RUNTIME_MOCK_CACHE_DIR (config.hpp); a warm cache is only read.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "runtime_mock/arch.hpp"
#include "runtime_mock/program_spec.hpp"

namespace runtime_mock {

struct KernelBuild {
    std::string source_path;
    KernelRole role = KernelRole::DataMovement0;
    std::vector<uint32_t> compile_args;
    std::map<std::string, uint32_t> named_compile_args;
    std::map<std::string, std::string> defines;
    ComputeOptions compute;
    std::vector<uint8_t> cb_formats;  // DataFormat per CB index, 255 where unknown
    Arch arch = Arch::Wormhole;
};

// Builds (or finds intact in the cache) and loads (kernel_loader.hpp) every kernel, two compilations at a
// time, compute kernels first (they take about three times as long to compile as data-movement kernels, so
// starting them first keeps both compilers busy to the end); returns the .so paths in the given order. Throws
// KernelBuildError with the compiler's diagnostics and the kernel path, or naming the cache directory and
// RUNTIME_MOCK_CACHE_DIR when a cold cache is unusable.
std::vector<std::string> build_kernels(const std::vector<KernelBuild>& builds);

// What each kernel of `program` is built from on `arch`: its source, role, arguments, defines, compute
// options, and the data format of each CB index its cores configure (255 where they disagree or none
// does). A device run builds exactly these, so building them beforehand warms the cache for that run.
std::vector<KernelBuild> kernel_builds(const ProgramSpec& program, const ArchSpec& arch);

}  // namespace runtime_mock
