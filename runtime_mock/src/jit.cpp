#include "jit.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <numeric>
#include <optional>
#include <set>
#include <thread>

#include "cache_entry.hpp"
#include "config.hpp"
#include "kernel_build_flags.hpp"
#include "kernel_loader.hpp"
#include "runtime_mock/device.hpp"
#include "subprocess.hpp"

namespace runtime_mock {

namespace fs = std::filesystem;

namespace {

const std::string kCacheVariable = "RUNTIME_MOCK_CACHE_DIR";

// Hash of every file under the kernels' include roots (their paths relative to their root, and contents),
// computed once per process and set of roots.
std::string headers_hash(const std::vector<std::string>& include_dirs) {
    static std::mutex mutex;
    static std::map<std::vector<std::string>, std::string> cache;
    std::lock_guard<std::mutex> lock(mutex);
    auto it = cache.find(include_dirs);
    if (it != cache.end())
        return it->second;
    cache::Hasher hasher;
    for (const std::string& dir : include_dirs) {
        std::vector<fs::path> files;
        for (const auto& entry : fs::recursive_directory_iterator(dir)) {
            if (entry.is_regular_file())
                files.push_back(entry.path());
        }
        std::sort(files.begin(), files.end());
        hasher.add("root");
        for (const auto& file : files) {
            hasher.add(fs::relative(file, dir).string());
            hasher.add(cache::read_file(file));
        }
    }
    return cache[include_dirs] = hasher.hex();
}

std::string join(const std::vector<uint32_t>& values) {
    std::string out;
    for (size_t i = 0; i < values.size(); i++)
        out += (i ? "," : "") + std::to_string(values[i]);
    return out;
}

std::vector<std::string> compile_flags(const KernelBuild& build, const std::vector<std::string>& include_dirs) {
    const bool compute = build.role == KernelRole::Compute;
    std::vector<std::string> flags(std::begin(kKernelBuildFlags), std::end(kKernelBuildFlags));
    flags.push_back("-shared");
    // The kernel's calls of the C library's copy functions go to the checked ones of memory_check.h.
    flags.push_back("-Wl,--wrap=memcpy,--wrap=memmove,--wrap=memset");
    // The precompiled standard headers go first, where g++ looks for a .gch; it checks that the flags match
    // and otherwise parses the header's text, so the object is the same either way.
    if (auto header = config::kernel_precompiled_header(); header && fs::is_regular_file(*header + ".gch"))
        flags.insert(flags.end(), {"-include", *header});
    for (const std::string& dir : include_dirs)
        flags.push_back("-I" + dir);
    flags.insert(flags.end(), {"-I" + fs::path(build.source_path).parent_path().string(), "-include",
                               compute ? "runtime_mock/kernel_abi/compute_kernel_entry.h"
                                       : "runtime_mock/kernel_abi/dataflow_kernel_entry.h",
                               "-DKERNEL_COMPILE_TIME_ARGS=" + join(build.compile_args), "-DKERNEL_BUILD"});
    if (!build.named_compile_args.empty()) {
        std::string map;
        for (const auto& [name, value] : build.named_compile_args) {
            map += (map.empty() ? "" : ",") + std::string("{\"") + name + "\"," + std::to_string(value) + "}";
        }
        flags.push_back("-DKERNEL_COMPILE_TIME_ARG_MAP=" + map);
    }
    flags.push_back("-DRUNTIME_MOCK_CB_FORMATS=" +
                    join(std::vector<uint32_t>(build.cb_formats.begin(), build.cb_formats.end())));
    flags.push_back(build.arch == Arch::Wormhole ? "-DARCH_WORMHOLE" : "-DARCH_BLACKHOLE");
    if (compute) {
        flags.push_back("-DRUNTIME_MOCK_FP32_DEST_ACC=" + std::to_string(int(build.compute.fp32_dest_acc_en)));
        flags.push_back("-DRUNTIME_MOCK_DST_FULL_SYNC=" + std::to_string(int(build.compute.dst_full_sync_en)));
        flags.push_back("-DRUNTIME_MOCK_MATH_FIDELITY=" + std::to_string(build.compute.math_fidelity));
        flags.push_back("-DRUNTIME_MOCK_APPROX=" + std::to_string(int(build.compute.math_approx_mode)));
    } else {
        flags.push_back(build.role == KernelRole::DataMovement0 ? "-DCOMPILE_FOR_BRISC" : "-DCOMPILE_FOR_NCRISC");
    }
    for (const auto& [name, value] : build.defines)
        flags.push_back("-D" + name + (value.empty() ? "" : "=" + value));
    return flags;
}

// Runs the compiler; returns its exit status and combined output (read through a pipe, so that a warm
// read-only cache needs no writable directory).
std::pair<int, std::string> run_compiler(const std::string& compiler, const std::vector<std::string>& args) {
    return run_program(compiler, args, "the kernel compiler", StandardError::Capture);
}

// What identifies the compiler binary: its --version banner (the cache must not serve objects built
// by another compiler version). Computed once per process and compiler.
std::string compiler_identity(const std::string& compiler) {
    static std::mutex mutex;
    static std::map<std::string, std::string> cache;
    std::lock_guard<std::mutex> lock(mutex);
    auto it = cache.find(compiler);
    if (it != cache.end())
        return it->second;
    auto [status, output] = run_compiler(compiler, {"--version"});
    if (status != 0)
        throw KernelBuildError("cannot run the kernel compiler '" + compiler + " --version': " + output);
    return cache[compiler] = output;
}

// Key of everything known before compiling: compiler, the shim's and kernel ABI's headers, flags, the
// kernel source.
std::string source_key(const KernelBuild& build, const std::vector<std::string>& flags,
                       const std::vector<std::string>& include_dirs, const std::string& compiler_id) {
    cache::Hasher hasher;
    hasher.add("runtime_mock kernel v2");
    hasher.add(compiler_id);
    hasher.add(headers_hash(include_dirs));
    for (const auto& flag : flags)
        hasher.add(flag);
    hasher.add(build.source_path);
    hasher.add(cache::read_file(build.source_path));
    return hasher.hex();
}

// Key of the object: the source key plus the content of every other header the kernel included when it
// was last built (kernel-local headers, `../common.h`, ...). Any change to the set of included headers
// requires a change to the source or to one of these headers, so the key stays sound.
std::string object_key(const std::string& source_key, const std::vector<std::string>& dependencies) {
    cache::Hasher hasher;
    hasher.add(source_key);
    for (const auto& path : dependencies) {
        hasher.add(path);
        hasher.add(fs::is_regular_file(path) ? cache::read_file(path) : std::string("<missing>"));
    }
    return hasher.hex();
}

// The headers listed in a make-style depfile (-MMD), minus the source and the headers under the include
// roots (those are in the source key already).
std::vector<std::string> parse_depfile(const std::string& text, const std::string& source_path,
                                       const std::vector<std::string>& include_dirs) {
    std::vector<std::string> paths;
    std::string current;
    bool after_target = false;
    for (size_t i = 0; i < text.size(); i++) {
        const char c = text[i];
        if (c == '\\' && i + 1 < text.size() && (text[i + 1] == '\n' || text[i + 1] == ' ')) {
            if (text[i + 1] == ' ')
                current += ' ';
            i++;
            continue;
        }
        if (!after_target) {
            after_target = c == ':' && i + 1 < text.size() && std::isspace(static_cast<unsigned char>(text[i + 1]));
            continue;
        }
        if (std::isspace(static_cast<unsigned char>(c))) {
            if (!current.empty())
                paths.push_back(fs::absolute(current).lexically_normal().string());
            current.clear();
        } else {
            current += c;
        }
    }
    if (!current.empty())
        paths.push_back(fs::absolute(current).lexically_normal().string());
    const std::string source = fs::absolute(source_path).lexically_normal().string();
    std::vector<std::string> roots;
    for (const std::string& dir : include_dirs)
        roots.push_back(fs::absolute(dir).lexically_normal().string() + "/");
    std::vector<std::string> kept;
    for (const auto& path : paths) {
        const bool under_a_root =
            std::any_of(roots.begin(), roots.end(), [&](const std::string& root) { return path.rfind(root, 0) == 0; });
        if (path != source && !under_a_root)
            kept.push_back(path);
    }
    std::sort(kept.begin(), kept.end());
    kept.erase(std::unique(kept.begin(), kept.end()), kept.end());
    return kept;
}

std::vector<std::string> read_lines(const fs::path& path) {
    std::vector<std::string> lines;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) {
        if (!line.empty())
            lines.push_back(line);
    }
    return lines;
}

const char* role_name(KernelRole role) {
    switch (role) {
        case KernelRole::DataMovement0:
            return "data-movement (RISCV_0)";
        case KernelRole::DataMovement1:
            return "data-movement (RISCV_1)";
        case KernelRole::Compute:
            return "compute";
    }
    return "?";
}

// The object cached for `key`, if it is intact (cache_entry.hpp) and loads; nullopt means "build it".
std::optional<fs::path> usable_object(const fs::path& cache_dir, const std::string& key,
                                      const std::string& source_path) {
    std::error_code error;
    const fs::path deps_path = cache_dir / (key + ".deps");
    if (!fs::is_regular_file(deps_path, error))
        return std::nullopt;
    const fs::path so_path = cache_dir / (object_key(key, read_lines(deps_path)) + ".so");
    if (!cache::intact(so_path))
        return std::nullopt;
    try {
        load_kernel(so_path.string(), source_path);
    } catch (const KernelBuildError&) {
        return std::nullopt;  // a verified object that still does not load is rebuilt like a damaged one
    }
    return so_path;
}

// What build_one needs to find or make a kernel's object: its flags and cache key.
struct BuildKey {
    std::vector<std::string> include_dirs;
    std::string compiler;
    fs::path cache_dir;
    std::vector<std::string> flags;
    std::string key;
};

BuildKey build_key(const KernelBuild& build) {
    if (!fs::is_regular_file(build.source_path)) {
        throw KernelBuildError("kernel source not found: " + build.source_path);
    }
    BuildKey k{config::kernel_include_dirs(), config::kernel_compiler(), config::kernel_cache_dir(), {}, {}};
    k.flags = compile_flags(build, k.include_dirs);
    k.key = source_key(build, k.flags, k.include_dirs, compiler_identity(k.compiler));
    return k;
}

// Cache layout: <source key>.deps lists the headers the kernel included when last built; <object key>.so
// is the object, with its manifest and build lock (cache_entry.hpp). Every file is written by rename, so
// processes may share the directory. build_one compiles a kernel the cache did not hold when looked up
// (unless another process builds it meanwhile).
std::string build_one(const KernelBuild& build, const BuildKey& k) {
    const auto& [include_dirs, compiler, cache_dir, flags, key] = k;
    cache::make_directory(cache_dir, kCacheVariable);
    const cache::BuildLock lock(cache_dir / key, kCacheVariable);
    if (auto cached = usable_object(cache_dir, key, build.source_path))
        return cached->string();  // another process built it while this one waited for the lock
    static std::atomic<uint64_t> counter{0};
    const std::string unique = "." + std::to_string(getpid()) + "." + std::to_string(counter++);
    const fs::path tmp_path = cache_dir / (key + unique + ".so.tmp");
    const fs::path depfile_path = cache_dir / (key + unique + ".d");
    std::vector<std::string> args = flags;
    for (const std::string& arg : {std::string("-MMD"), std::string("-MF"), depfile_path.string(), std::string("-o"),
                                   tmp_path.string(), build.source_path})
        args.push_back(arg);
    auto [status, output] = run_compiler(compiler, args);
    std::error_code error;
    if (status != 0) {
        fs::remove(tmp_path, error);
        fs::remove(depfile_path, error);
        std::string command = compiler;
        for (const auto& arg : args)
            command += " " + arg;
        throw KernelBuildError("failed to build " + std::string(role_name(build.role)) + " kernel " +
                               build.source_path + ":\n" + output + "\ncommand: " + command);
    }
    const std::vector<std::string> dependencies =
        parse_depfile(cache::read_file(depfile_path), build.source_path, include_dirs);
    fs::remove(depfile_path, error);
    const fs::path so_path = cache_dir / (object_key(key, dependencies) + ".so");
    cache::publish(tmp_path, so_path, unique);
    std::string manifest;
    for (const auto& path : dependencies)
        manifest += path + "\n";
    cache::write_atomically(cache_dir / (key + ".deps"), manifest, unique);
    load_kernel(so_path.string(), build.source_path);
    return so_path.string();
}

}  // namespace

std::vector<std::string> build_kernels(const std::vector<KernelBuild>& builds) {
    std::vector<size_t> order(builds.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_partition(order.begin(), order.end(), [&](size_t i) { return builds[i].role == KernelRole::Compute; });
    std::vector<std::string> paths(builds.size());
    std::vector<std::exception_ptr> errors(builds.size());
    // A warm call finds every object in the cache: looked up here, without starting a thread.
    std::vector<BuildKey> keys(builds.size());
    std::vector<size_t> to_build;
    for (const size_t i : order) {
        try {
            keys[i] = build_key(builds[i]);
            if (auto cached = usable_object(keys[i].cache_dir, keys[i].key, builds[i].source_path))
                paths[i] = cached->string();
            else
                to_build.push_back(i);
        } catch (...) {
            errors[i] = std::current_exception();
        }
    }
    std::atomic<size_t> next{0};
    auto worker = [&] {
        for (size_t n = next++; n < to_build.size(); n = next++) {
            const size_t i = to_build[n];
            try {
                paths[i] = build_one(builds[i], keys[i]);
            } catch (...) {
                errors[i] = std::current_exception();
            }
        }
    };
    const size_t threads =
        std::min<size_t>(to_build.size(), std::max(1u, std::min(2u, std::thread::hardware_concurrency())));
    std::vector<std::thread> pool;
    for (size_t t = 1; t < threads; t++)
        pool.emplace_back(worker);
    worker();
    for (auto& thread : pool)
        thread.join();
    for (auto& error : errors) {
        if (error)
            std::rethrow_exception(error);
    }
    return paths;
}

std::vector<KernelBuild> kernel_builds(const ProgramSpec& program, const ArchSpec& arch) {
    std::vector<KernelBuild> builds;
    for (const KernelSpec& kernel : program.kernels) {
        KernelBuild build;
        build.source_path = kernel.source_path;
        build.role = kernel.role;
        build.compile_args = kernel.compile_args;
        build.named_compile_args = kernel.named_compile_args;
        build.defines = kernel.defines;
        build.compute = kernel.compute;
        build.arch = arch.arch;
        build.cb_formats.assign(arch.num_circular_buffers, 255);
        // format of each (CB index, core of this kernel) some CB configures
        const std::set<LogicalCore> cores(kernel.cores.begin(), kernel.cores.end());
        std::vector<std::map<LogicalCore, uint32_t>> configured(arch.num_circular_buffers);
        for (const CircularBufferSpec& cb : program.circular_buffers) {
            for (const CircularBufferSpec::Index& entry : cb.indices) {
                for (LogicalCore core : cb.cores) {
                    if (entry.index < arch.num_circular_buffers && cores.count(core))
                        configured[entry.index][core] = uint32_t(entry.format);
                }
            }
        }
        for (uint32_t index = 0; index < arch.num_circular_buffers; index++) {
            std::set<uint32_t> formats;
            for (LogicalCore core : cores) {
                auto it = configured[index].find(core);
                formats.insert(it == configured[index].end() ? 255u : it->second);
            }
            if (formats.size() == 1)
                build.cb_formats[index] = uint8_t(*formats.begin());
        }
        builds.push_back(build);
    }
    return builds;
}

void build_program_kernels(const ProgramSpec& program, Arch arch) {
    build_kernels(kernel_builds(program, arch_spec(arch)));
}

}  // namespace runtime_mock
