// The contract between the host API (metal_shim's tt-metalium/*.hpp) and the simulated device.
//
// A host program builds a Program through the SDK's API; the shim records it as a ProgramSpec, a plain
// description with no behaviour: which kernel sources run on which cores in which RISC role, with which
// compile-time args, defines and runtime args; which circular buffers and semaphores each core has.
// Device::run(spec) executes it (see device.hpp).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <runtime_mock/kernel_abi/data_format.h>
#include <vector>

namespace runtime_mock {

// A logical Tensix core: x is the column, y the row of the compute grid (the SDK's CoreCoord).
struct LogicalCore {
    uint32_t x = 0;
    uint32_t y = 0;
    friend bool operator==(const LogicalCore& a, const LogicalCore& b) { return a.x == b.x && a.y == b.y; }
    friend bool operator<(const LogicalCore& a, const LogicalCore& b) { return a.y != b.y ? a.y < b.y : a.x < b.x; }
};

// Tile element formats: the SDK's tt::DataFormat (one enum for host, kernels and simulator).
using DataFormat = tt::DataFormat;
// The RISC processor a kernel runs on (one kernel per role per core): BRISC (RISCV_0) and NCRISC (RISCV_1) move data,
// the three TRISCs together run one compute kernel.
enum class KernelRole : uint8_t { DataMovement0, DataMovement1, Compute };

struct ComputeOptions {
    int math_fidelity = 4;  // LoFi=0, HiFi2=2, HiFi3=3, HiFi4=4 (the SDK's MathFidelity values)
    bool fp32_dest_acc_en = false;
    bool dst_full_sync_en = false;
    bool math_approx_mode = false;
};

struct KernelSpec {
    std::string source_path;  // absolute path of the kernel's .cpp, resolved by the host API
    KernelRole role = KernelRole::DataMovement0;
    uint8_t noc = 0;  // NOC the data-movement kernel uses (affects only NOC coordinate conventions)
    std::vector<LogicalCore> cores;
    std::vector<uint32_t> compile_args;
    std::map<std::string, uint32_t> named_compile_args;  // get_named_compile_time_arg_val("name")
    std::map<std::string, std::string> defines;
    ComputeOptions compute;
    std::map<LogicalCore, std::vector<uint32_t>> runtime_args;  // unique args, per core
    std::vector<uint32_t> common_runtime_args;                  // shared by every core of the kernel
};

// One CircularBufferConfig: a region of total_size bytes in each listed core's L1, shared by one or
// more CB indices (each with its own format and page size and its own read/write pointers).
struct CircularBufferSpec {
    struct Index {
        uint32_t index = 0;
        DataFormat format = DataFormat::Float16_b;
        uint32_t page_size = 0;
    };
    std::vector<LogicalCore> cores;
    uint32_t total_size = 0;
    std::vector<Index> indices;
    // A globally allocated CB (the SDK's set_globally_allocated_address): the address of the L1 buffer
    // (Device::allocate_l1 or allocate_l1_sharded) whose pages the CB uses on every listed core, so the
    // host's data is in the CB before any kernel runs. 0: the device places the CB above the others.
    uint64_t buffer_address = 0;
};

// A semaphore: one uint32 word at the same L1 address on every listed core, set to initial_value
// before the kernels start. id is what kernels pass to get_semaphore().
struct SemaphoreSpec {
    uint32_t id = 0;
    std::vector<LogicalCore> cores;
    uint32_t initial_value = 0;
};

struct ProgramSpec {
    std::vector<KernelSpec> kernels;
    std::vector<CircularBufferSpec> circular_buffers;
    std::vector<SemaphoreSpec> semaphores;
};

}  // namespace runtime_mock
