// The kernel build cache: an object is rebuilt when any header the kernel includes changes, including
// headers outside the kernel's directory (found through the compiler's dependency list).
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "test_support.hpp"

using namespace tt_mock;
namespace fs = std::filesystem;

namespace {

void write_text(const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
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

}  // namespace

TEST(cache_key_covers_included_headers) {
    const char* tmp = std::getenv("TEST_TMPDIR");
    const fs::path root =
        fs::path(tmp ? tmp : fs::temp_directory_path().string()) / ("tt_mock_jit_" + std::to_string(getpid()));
    const fs::path kernel = root / "kernels" / "write_value.cpp";
    write_text(kernel,
               "#include <cstdint>\n"
               "#include \"local_value.h\"\n"
               "void kernel_main() {\n"
               "    uint32_t dst_addr = get_arg_val<uint32_t>(0);\n"
               "    cb_reserve_back(0, 1);\n"
               "    uint32_t l1 = get_write_ptr(0);\n"
               "    *reinterpret_cast<volatile uint32_t*>(l1) = kValue;\n"
               "    noc_async_write(l1, get_noc_addr_from_bank_id<true>(0, dst_addr), 16);\n"
               "    noc_async_write_barrier();\n"
               "}\n");
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

int main() {
    return test::run_all();
}
