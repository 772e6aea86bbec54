// The kernel build cache: an object is rebuilt when any header the kernel includes changes, including
// headers outside the kernel's directory (found through the compiler's dependency list); a damaged cached
// object (truncated, corrupted, unloadable) is rebuilt; a warm read-only cache is used without writing; an
// unusable cache directory is an error naming it and RUNTIME_MOCK_CACHE_DIR; concurrent processes sharing
// one cold cache all get the right kernel; a kernel built against headers whose kernel ABI differs from the
// runtime's refuses to run.
//
// A process never truncates an object it has loaded (that would be SIGBUS in the test itself), so each
// run that must see a damaged cache happens in a fresh child process (fork).
#include <linux/capability.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "../src/cache_entry.hpp"
#include "test_support.hpp"

using namespace runtime_mock;
namespace fs = std::filesystem;

namespace {

constexpr uint32_t kExpected = 11;

void write_text(const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
}

fs::path test_root(const std::string& name) {
    const char* tmp = std::getenv("TEST_TMPDIR");
    const fs::path root = fs::path(tmp ? tmp : fs::temp_directory_path().string()) /
                          ("runtime_mock_jit_" + name + "_" + std::to_string(getpid()));
    fs::remove_all(root);
    fs::create_directories(root);
    return root;
}

// A kernel that writes kValue, from the headers it includes, to DRAM.
void write_value_kernel(const fs::path& kernel, const std::string& header) {
    write_text(kernel,
               "#include <cstdint>\n"
               "#include \"" +
                   header +
                   "\"\n"
                   "void kernel_main() {\n"
                   "    uint32_t dst_addr = get_arg_val<uint32_t>(0);\n"
                   "    cb_reserve_back(0, 1);\n"
                   "    uint32_t l1 = get_write_ptr(0);\n"
                   "    *reinterpret_cast<volatile uint32_t*>(l1) = kValue;\n"
                   "    noc_async_write(l1, get_noc_addr_from_bank_id<true>(0, dst_addr), 16);\n"
                   "    noc_async_write_barrier();\n"
                   "}\n");
}

// Runs `kernel` (which writes kValue from its headers to DRAM) and returns the value it wrote.
uint32_t run_value_kernel(const fs::path& kernel) {
    Device device;
    const uint64_t dst = device.allocate_dram(32, 32);
    const LogicalCore core{0, 0};
    KernelSpec k;
    k.source_path = kernel.string();
    k.role = KernelRole::DataMovement0;
    k.cores = {core};
    k.runtime_args[core] = {uint32_t(dst)};
    ProgramSpec program;
    program.kernels = {k};
    program.circular_buffers = {test::bf16_cb(0, 1, {core})};
    device.run(program);
    uint32_t value[8] = {};
    device.read_interleaved(dst, 32, value, sizeof(value));
    return value[0];
}

// A kernel writing kExpected, and a cache directory of its own (RUNTIME_MOCK_CACHE_DIR).
struct CacheCase {
    fs::path root;
    fs::path kernel;
    fs::path cache;

    explicit CacheCase(const std::string& name) : root(test_root(name)), kernel(root / "kernels" / "value.cpp") {
        write_value_kernel(kernel, "value.h");
        write_text(root / "kernels" / "value.h", "constexpr uint32_t kValue = " + std::to_string(kExpected) + ";\n");
        use_cache(root / "cache");
    }
    void use_cache(const fs::path& dir) {
        cache = dir;
        setenv("RUNTIME_MOCK_CACHE_DIR", cache.c_str(), 1);
    }
    fs::path only_object() const {
        std::vector<fs::path> objects;
        for (const auto& entry : fs::directory_iterator(cache)) {
            if (entry.path().extension() == ".so")
                objects.push_back(entry.path());
        }
        if (objects.size() != 1)
            throw std::runtime_error("expected one cached object in " + cache.string());
        return objects[0];
    }
};

// Clears the capabilities that let root ignore file permissions (this thread and threads it creates), so
// that a directory without write permission is read-only for root too. False when they cannot be dropped.
bool drop_permission_override() {
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct data[2] = {};
    if (syscall(SYS_capget, &header, data) != 0)
        return false;
    for (int cap : {CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER}) {
        data[cap / 32].effective &= ~(1u << (cap % 32));
        data[cap / 32].permitted &= ~(1u << (cap % 32));
    }
    return syscall(SYS_capset, &header, data) == 0;
}

// Whether a file can be created in `dir` by this process.
bool can_write_in(const fs::path& dir) {
    const fs::path probe = dir / "write-probe";
    std::ofstream out(probe);
    const bool written = bool(out << "x" << std::flush);
    out.close();
    fs::remove(probe);
    return written && out.good();
}

enum ChildResult { kRightValue = 0, kWrongValue = 1, kBuildError = 2, kCannotMakeReadOnly = 3 };

// Runs the kernel in a fresh process (after dropping root's permission override if `read_only`); returns
// how it went. The child's error message goes to stderr, which the test log shows.
int run_in_child(const fs::path& kernel, bool read_only = false, const fs::path& read_only_dir = {}) {
    std::fflush(stdout);
    const pid_t pid = fork();
    if (pid == 0) {
        if (read_only && (!drop_permission_override() || can_write_in(read_only_dir)))
            _exit(kCannotMakeReadOnly);
        try {
            _exit(run_value_kernel(kernel) == kExpected ? kRightValue : kWrongValue);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "child: %s\n", e.what());
            _exit(kBuildError);
        }
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// Every file in `dir` with its size and modification time.
std::map<std::string, std::pair<uintmax_t, fs::file_time_type>> listing(const fs::path& dir) {
    std::map<std::string, std::pair<uintmax_t, fs::file_time_type>> files;
    for (const auto& entry : fs::directory_iterator(dir))
        files[entry.path().filename()] = {entry.file_size(), entry.last_write_time()};
    return files;
}

}  // namespace

TEST(cache_key_covers_included_headers) {
    const fs::path root = test_root("headers");
    const fs::path kernel = root / "kernels" / "write_value.cpp";
    write_value_kernel(kernel, "local_value.h");
    write_text(root / "kernels" / "local_value.h", "#include \"../shared/value.h\"\n");
    write_text(root / "shared" / "value.h", "constexpr uint32_t kValue = 11;\n");
    CHECK(run_value_kernel(kernel) == 11);
    CHECK(run_value_kernel(kernel) == 11);
    write_text(root / "shared" / "value.h", "constexpr uint32_t kValue = 22;\n");
    CHECK(run_value_kernel(kernel) == 22);
    write_text(root / "kernels" / "local_value.h", "constexpr uint32_t kValue = 33;\n");
    CHECK(run_value_kernel(kernel) == 33);
    fs::remove_all(root);
}

// RUNTIME_MOCK_KERNEL_ABI_INCLUDE naming the kernel ABI of another build (here: a copy whose KernelContext
// has one more field) gives a clear error, not a kernel reading the runtime's structures at the wrong offsets.
TEST(kernel_built_against_another_kernel_abi_is_refused) {
    const fs::path root = test_root("abi");
    const std::string abi = std::getenv("RUNTIME_MOCK_KERNEL_ABI_INCLUDE");
    const fs::path other = root / "kernel_abi";
    fs::copy(abi, other, fs::copy_options::recursive);
    const fs::path header = other / "runtime_mock" / "kernel_abi" / "kernel_context.h";
    std::ifstream in(header);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string anchor = "    const RuntimeFunctions* fn;\n";
    CHECK(text.find(anchor) != std::string::npos);
    text.replace(text.find(anchor), anchor.size(), anchor + "    uint32_t field_of_another_build;\n");
    fs::permissions(header, fs::perms::owner_write, fs::perm_options::add);
    write_text(header, text);
    const fs::path kernel = root / "kernels" / "write_value.cpp";
    write_value_kernel(kernel, "value.h");
    write_text(root / "kernels" / "value.h", "constexpr uint32_t kValue = 11;\n");
    setenv("RUNTIME_MOCK_KERNEL_ABI_INCLUDE", other.c_str(), 1);
    try {
        test::expect_error<DeviceError>(
            [&] { run_value_kernel(kernel); },
            {"kernel ABI (runtime_mock/kernel_abi headers) that differs from this runtime's",
             "RUNTIME_MOCK_KERNEL_ABI_INCLUDE"});
    } catch (...) {
        setenv("RUNTIME_MOCK_KERNEL_ABI_INCLUDE", abi.c_str(), 1);
        throw;
    }
    setenv("RUNTIME_MOCK_KERNEL_ABI_INCLUDE", abi.c_str(), 1);
    CHECK(run_value_kernel(kernel) == 11);
    fs::remove_all(root);
}

TEST(truncated_object_is_rebuilt) {
    CacheCase c("truncated");
    CHECK(run_in_child(c.kernel) == kRightValue);
    const fs::path object = c.only_object();
    const uintmax_t size = fs::file_size(object);
    fs::resize_file(object, size / 2);
    CHECK(run_in_child(c.kernel) == kRightValue);
    CHECK(fs::file_size(object) == size);
}

TEST(corrupted_object_is_rebuilt) {
    CacheCase c("corrupted");
    CHECK(run_in_child(c.kernel) == kRightValue);
    const fs::path object = c.only_object();
    std::string bytes = cache::read_file(object);
    for (size_t i = bytes.size() / 2; i < bytes.size() / 2 + 64; i++)
        bytes[i] = char(~bytes[i]);
    std::ofstream(object, std::ios::binary) << bytes;
    CHECK(run_in_child(c.kernel) == kRightValue);
    CHECK(cache::intact(object));
}

TEST(object_without_manifest_is_rebuilt) {
    CacheCase c("no_manifest");
    CHECK(run_in_child(c.kernel) == kRightValue);
    const fs::path object = c.only_object();
    fs::remove(object.string() + ".manifest");
    CHECK(!cache::intact(object));
    CHECK(run_in_child(c.kernel) == kRightValue);
    CHECK(cache::intact(object));
}

TEST(object_that_does_not_load_is_rebuilt) {
    CacheCase c("unloadable");
    CHECK(run_in_child(c.kernel) == kRightValue);
    const fs::path object = c.only_object();
    std::ofstream(object, std::ios::binary) << "not an ELF object";
    cache::write_atomically(object.string() + ".manifest", cache::manifest_of(object), ".test");
    CHECK(cache::intact(object));
    CHECK(run_in_child(c.kernel) == kRightValue);
}

TEST(warm_read_only_cache_is_used_without_writing) {
    CacheCase c("warm_read_only");
    CHECK(run_in_child(c.kernel) == kRightValue);
    const auto before = listing(c.cache);
    fs::permissions(c.cache, fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write,
                    fs::perm_options::remove);
    const int result = run_in_child(c.kernel, true, c.cache);
    fs::permissions(c.cache, fs::perms::owner_write, fs::perm_options::add);
    if (result == kCannotMakeReadOnly) {
        std::printf("  (write permission cannot be taken away here; checked only that nothing was written)\n");
        CHECK(run_in_child(c.kernel) == kRightValue);
    } else {
        CHECK(result == kRightValue);
    }
    CHECK(listing(c.cache) == before);
}

TEST(cold_read_only_cache_names_the_directory_and_variable) {
    CacheCase c("cold_read_only");
    fs::create_directories(c.cache);
    fs::permissions(c.cache, fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write,
                    fs::perm_options::remove);
    const std::string log = test::capture_stderr([&] {
        const int result = run_in_child(c.kernel, true, c.cache);
        if (result == kCannotMakeReadOnly)
            std::fprintf(stderr, "SKIPPED: write permission cannot be taken away here\n");
        else
            CHECK(result == kBuildError);
    });
    fs::permissions(c.cache, fs::perms::owner_write, fs::perm_options::add);
    if (log.find("SKIPPED") != std::string::npos) {
        std::printf("  (skipped: write permission cannot be taken away in this environment)\n");
        return;
    }
    for (const std::string& needle : {"kernel build cache directory '" + c.cache.string() + "' is not writable",
                                      std::string("RUNTIME_MOCK_CACHE_DIR")}) {
        if (log.find(needle) == std::string::npos)
            throw std::runtime_error("error lacks '" + needle + "':\n" + log);
    }
}

TEST(cache_path_that_is_a_file_names_the_directory_and_variable) {
    CacheCase c("file");
    write_text(c.root / "not_a_dir", "x");
    c.use_cache(c.root / "not_a_dir");
    test::expect_error<KernelBuildError>(
        [&] { run_value_kernel(c.kernel); },
        {"kernel build cache directory '" + c.cache.string() + "' is a file", "RUNTIME_MOCK_CACHE_DIR"});
    c.use_cache(c.root / "not_a_dir" / "kernels");
    test::expect_error<KernelBuildError>(
        [&] { run_value_kernel(c.kernel); },
        {"kernel build cache directory '" + c.cache.string() + "' cannot be created", "RUNTIME_MOCK_CACHE_DIR"});
}

TEST(twenty_processes_share_one_cold_cache) {
    CacheCase c("concurrent");
    constexpr int kProcesses = 20;
    std::vector<pid_t> children;
    std::fflush(stdout);
    for (int i = 0; i < kProcesses; i++) {
        const pid_t pid = fork();
        if (pid == 0) {
            try {
                _exit(run_value_kernel(c.kernel) == kExpected ? kRightValue : kWrongValue);
            } catch (const std::exception& e) {
                std::fprintf(stderr, "child %d: %s\n", i, e.what());
                _exit(kBuildError);
            }
        }
        children.push_back(pid);
    }
    int right = 0;
    for (pid_t pid : children) {
        int status = 0;
        waitpid(pid, &status, 0);
        right += WIFEXITED(status) && WEXITSTATUS(status) == kRightValue;
    }
    if (right != kProcesses)
        throw std::runtime_error(std::to_string(right) + " of " + std::to_string(kProcesses) +
                                 " processes sharing a cold cache got the right value");
    CHECK(cache::intact(c.only_object()));
}

int main() {
    return test::run_all();
}
