// One negative test per error class: each provokes the misuse with a small kernel and checks the error
// type and that the message names the core, the role and the kernel file:line of the offending call.
// Misuse that silicon tolerates (push or pack without reserve into free pages, release_dst on a free
// DST) must instead run and warn once per call site.
#include "test_support.hpp"

using namespace runtime_mock;

namespace {

constexpr LogicalCore kCore{0, 0};

void run_dataflow_misuse(const std::string& name, Device& device) {
    const uint64_t src = device.allocate_dram(test::kTileBytes, test::kTileBytes);
    KernelSpec k = test::kernel_on("misuse_dataflow.cpp", KernelRole::DataMovement1, kCore, {test::kDramAccessor},
                                   {uint32_t(src), device.spec().l1_bytes});
    k.defines = {{"MISUSE_" + name, "1"}};
    ProgramSpec program;
    program.kernels = {k};
    program.circular_buffers = {test::bf16_cb(0, 2, {kCore})};
    program.semaphores = {{0, {kCore}, 0}};
    device.run(program);
}

void run_dataflow_misuse(const std::string& name) {
    Device device;
    run_dataflow_misuse(name, device);
}

template <typename Error>
void expect_dataflow(const std::string& name, std::vector<std::string> needles) {
    needles.push_back("core (0,0) RISCV_1 (NCRISC)");
    needles.push_back(test::marked_line("misuse_dataflow.cpp", name));
    test::expect_error<Error>([&] { run_dataflow_misuse(name); }, needles);
}

void run_compute_misuse(const std::string& name) {
    Device device;
    KernelSpec k = test::kernel_on("misuse_compute.cpp", KernelRole::Compute, kCore, {}, {});
    k.defines = {{"MISUSE_" + name, "1"}};
    ProgramSpec program;
    program.kernels = {k};
    program.circular_buffers = {test::bf16_cb(16, 2, {kCore})};
    device.run(program);
}

}  // namespace

TEST(deadlock_lists_blocked_kernels) {
    expect_dataflow<DeadlockError>("DEADLOCK", {"deadlock", "cb_wait_front", "waits for 2 filled pages of CB 0"});
}

// Deadlock detection is exact while other cores stream: 63 cores move tiles through 2-page CBs (each
// wait and wake a transition between blocked and running) and finish; only then is every live kernel
// blocked, and the report names the one kernel on core (0,0) and no other.
TEST(deadlock_on_one_core_while_the_others_stream) {
    Device device;
    const uint32_t banks = device.spec().dram_banks, tiles_per_core = banks;
    const uint32_t grid_x = device.spec().grid_x, grid_y = device.spec().grid_y;
    const uint32_t streaming = grid_x * grid_y - 1;
    const uint64_t src =
        device.allocate_dram(uint64_t(streaming) * tiles_per_core * test::kTileBytes, test::kTileBytes);
    const uint64_t dst =
        device.allocate_dram(uint64_t(streaming) * tiles_per_core * test::kTileBytes, test::kTileBytes);
    ProgramSpec program;
    KernelSpec deadlock = test::kernel_on("misuse_dataflow.cpp", KernelRole::DataMovement1, kCore,
                                          {test::kDramAccessor}, {uint32_t(src), device.spec().l1_bytes});
    deadlock.defines = {{"MISUSE_DEADLOCK", "1"}};
    test::Loopback loopback = test::loopback_kernels();
    std::vector<LogicalCore> all = {kCore};
    for (uint32_t i = 1; i <= streaming; i++) {
        const LogicalCore core{i % grid_x, i / grid_x};
        const uint32_t offset = (i - 1) * test::kTileBytes;  // one row of banks per core
        loopback.add_core(core, uint32_t(src) + offset, uint32_t(dst) + offset, tiles_per_core);
        all.push_back(core);
    }
    program.kernels = {deadlock, loopback.reader, loopback.writer};
    program.circular_buffers = {test::bf16_cb(0, 2, all)};
    program.semaphores = {{0, {kCore}, 0}};
    std::string message;
    try {
        device.run(program);
    } catch (const DeadlockError& e) {
        message = e.what();
    }
    CHECK(message.find("core (0,0) RISCV_1 (NCRISC)") != std::string::npos);
    CHECK(message.find("waits for 2 filled pages of CB 0") != std::string::npos);
    CHECK(message.find("core (1,0)") == std::string::npos);
    CHECK(message.find("RISCV_0") == std::string::npos);
}

TEST(cb_push_overflow) {
    expect_dataflow<CircularBufferError>("PUSH_OVERFLOW",
                                         {"cb_push_back", "only 0 are reserved and 0 are free", "not yet popped"});
}

TEST(cb_pop_without_wait) {
    expect_dataflow<CircularBufferError>("POP_WITHOUT_WAIT", {"cb_pop_front", "made only 0"});
}

TEST(cb_reserve_over_capacity) {
    expect_dataflow<CircularBufferError>("RESERVE_OVER_CAPACITY", {"cb_reserve_back", "holds only 2 pages"});
}

TEST(cb_push_with_pending_read) {
    expect_dataflow<CircularBufferError>("PUSH_PENDING_READ", {"cb_push_back", "noc_async_read_barrier"});
}

TEST(dram_out_of_bounds) {
    expect_dataflow<NocAccessError>(
        "DRAM_OUT_OF_BOUNDS",
        {"TensorAccessor::get_noc_addr", "page id 1000 is at or past the page count of the DRAM buffer #",
         " at bank address", "(page size 2048 B, 1 page)"});
}

TEST(misaligned_l1_address) {
    expect_dataflow<NocAccessError>("MISALIGNED", {"noc_async_read", "16-byte aligned"});
}

TEST(runtime_arg_out_of_range) {
    expect_dataflow<ArgumentError>("ARG_OUT_OF_RANGE", {"get_arg_val", "runtime argument 5", "set only 2"});
}

TEST(cb_not_configured) {
    expect_dataflow<CircularBufferError>("CB_NOT_CONFIGURED",
                                         {"cb_reserve_back", "circular buffer 7 is not configured"});
}

TEST(dst_over_capacity) {
    test::expect_error<DstError>(
        [] { run_compute_misuse("DST_OVER_CAPACITY"); },
        {"core (0,0) compute (TRISC)", test::marked_line("misuse_compute.cpp", "DST_OVER_CAPACITY"),
         "DST index 8 is over capacity", "8 DST tiles"});
}

TEST(matmul_block_whose_tile_count_overflows_32_bits) {
    test::expect_error<DstError>(
        [] { run_compute_misuse("MATMUL_BLOCK_WRAPS"); },
        {"core (0,0) compute (TRISC)", test::marked_line("misuse_compute.cpp", "MATMUL_BLOCK_WRAPS"), "matmul_block",
         "DST index 4294967295 is over capacity"});
}

TEST(pack_outside_tile_regs_wait) {
    test::expect_error<DstError>(
        [] { run_compute_misuse("PACK_OUTSIDE_WAIT"); },
        {"core (0,0) compute (TRISC)", test::marked_line("misuse_compute.cpp", "PACK_OUTSIDE_WAIT"), "pack_tile",
         "tile_regs_wait"});
}

TEST(cb_pop_more_than_waited) {
    expect_dataflow<CircularBufferError>("POP_OVER_WAITED", {"cb_pop_front", "pops 2 pages", "made only 1"});
}

TEST(cb_cumulative_wait_past_ring_end) {
    expect_dataflow<CircularBufferError>("CUMULATIVE_WAIT_WRAPS",
                                         {"cb_wait_front", "would wrap past the end of circular buffer 0"});
}

TEST(cb_index_over_arch_count) {
    expect_dataflow<CircularBufferError>(
        "CB_INDEX_OVER_ARCH", {"cb_wait_front", "circular buffer 40 is not configured", "has 32 CB indices"});
}

TEST(dram_read_misaligned) {
    expect_dataflow<NocAccessError>("DRAM_MISALIGNED", {"noc_async_read", "is not 32-byte aligned"});
}

TEST(l1_out_of_bounds_via_noc_address) {
    expect_dataflow<NocAccessError>("L1_OUT_OF_BOUNDS", {"noc_async_read", "is outside the core's 1499136-byte L1"});
}

TEST(noc_address_names_no_node) {
    expect_dataflow<NocAccessError>("NOC_NODE_OUTSIDE", {"noc_async_read", "names node (30,30)"});
}

TEST(multicast_outside_grid) {
    expect_dataflow<NocAccessError>("MCAST_OUT_OF_GRID",
                                    {"noc_async_write_multicast", "(1,1)-(20,1) contains nodes that are not worker"});
}

TEST(multicast_wrong_num_dests) {
    expect_dataflow<NocAccessError>("MCAST_NUM_DESTS", {"noc_async_write_multicast", "num_dests is 5", "has 2"});
}

TEST(semaphore_not_created) {
    expect_dataflow<ArgumentError>("SEMAPHORE_NOT_CREATED", {"get_semaphore", "semaphore 3 was not created"});
}

TEST(semaphore_wait_on_bad_address) {
    expect_dataflow<NocAccessError>("SEMAPHORE_BAD_ADDRESS", {"noc_semaphore_wait", "0x10 is not an aligned word"});
}

TEST(semaphore_deadlock) {
    expect_dataflow<DeadlockError>("SEMAPHORE_DEADLOCK", {"deadlock", "noc_semaphore_wait", "to be == 1 (now 0)"});
}

TEST(math_after_commit) {
    test::expect_error<DstError>(
        [] { run_compute_misuse("MATH_AFTER_COMMIT"); },
        {"core (0,0) compute (TRISC)", test::marked_line("misuse_compute.cpp", "MATH_AFTER_COMMIT"), "fill_tile"});
}

TEST(sfpu_vector_mode_other_than_rc) {
    test::expect_error<DeviceError>(
        [] { run_compute_misuse("SFPU_VECTOR_MODE"); },
        {"core (0,0) compute (TRISC)", test::marked_line("misuse_compute.cpp", "SFPU_VECTOR_MODE"), "binary_max_tile",
         "vector_mode 1 is not simulated", "VectorMode::RC"});
}

TEST(kernel_ends_with_dst_acquired) {
    test::expect_error<DstError>([] { run_compute_misuse("DST_NOT_RELEASED"); },
                                 {"core (0,0) compute (TRISC)", "finished with DST still acquired"});
}

TEST(pack_overflow) {
    test::expect_error<CircularBufferError>(
        [] { run_compute_misuse("PACK_OVERFLOW"); },
        {"core (0,0) compute (TRISC)", test::marked_line("misuse_compute.cpp", "PACK_OVERFLOW"), "pack_tile",
         "writes page 0 of circular buffer 16, which holds data not yet popped"});
}

namespace {

// Misuse that silicon tolerates runs, with one warning per call site naming core, role and file:line.
void expect_one_warning(const std::function<void()>& run, const std::string& file, const std::string& name,
                        const std::vector<std::string>& needles) {
    const std::string warnings = test::capture_stderr(run);
    const std::string site = test::marked_line(file, name);
    if (test::count(warnings, site + ":") != 1)
        throw std::runtime_error("expected one warning at " + site + ", got:\n" + warnings);
    for (const std::string& needle : needles) {
        if (warnings.find(needle) == std::string::npos)
            throw std::runtime_error("warning lacks '" + needle + "':\n" + warnings);
    }
}

}  // namespace

TEST(cb_push_without_reserve_warns) {
    expect_one_warning([] { run_dataflow_misuse("PUSH_WITHOUT_RESERVE"); }, "misuse_dataflow.cpp",
                       "PUSH_WITHOUT_RESERVE",
                       {"runtime_mock warning: core (0,0) RISCV_1 (NCRISC)",
                        "cb_push_back(0, 1) without cb_reserve_back at", "works only because the CB had room"});
}

TEST(pack_without_reserve_warns) {
    expect_one_warning([] { run_compute_misuse("PACK_WITHOUT_RESERVE"); }, "misuse_compute.cpp", "PACK_WITHOUT_RESERVE",
                       {"runtime_mock warning: core (0,0) compute (TRISC)", "pack_tile into page 0 of CB 16 without",
                        "works only because the page was free"});
}

TEST(release_dst_on_free_dst_warns) {
    expect_one_warning([] { run_compute_misuse("RELEASE_DST_TWICE"); }, "misuse_compute.cpp", "RELEASE_DST_TWICE",
                       {"runtime_mock warning: core (0,0) compute (TRISC)", "release_dst while DST is free at"});
}

TEST(kernel_build_error_names_kernel) {
    test::expect_error<KernelBuildError>([] { run_dataflow_misuse("BUILD_ERROR"); },
                                         {"misuse_dataflow.cpp", "this_does_not_compile"});
}

int main() {
    return test::run_all();
}
