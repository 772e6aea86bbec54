// Kernel faults and the resources of aborted runs. Each crash of faulting.cpp (null dereference, division
// by zero, failed assert, stack overflow, illegal instruction, a raw write past the core's L1) must raise
// KernelFaultError naming the signal, core, RISC and kernel file:line, and leave the process able to run
// the next program. A kernel spinning outside the API is reported by the watchdog with its line and then
// stopped, so its thread and L1 go away; devices on many threads at once share the L1 address space.
#include <dirent.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include "test_support.hpp"

using namespace runtime_mock;

namespace {

constexpr LogicalCore kCore{0, 0};
const std::string kKernel = "faulting.cpp";

// "faulting.cpp:<line>" of the line marked "// fault:<name>".
std::string fault_line(const std::string& name) {
    std::ifstream in(test::kernel(kKernel));
    std::string line;
    for (int n = 1; std::getline(in, line); n++) {
        if (line.find("// fault:" + name) != std::string::npos)
            return kKernel + ":" + std::to_string(n);
    }
    throw std::runtime_error("no marker fault:" + name + " in " + kKernel);
}

// faulting.cpp with FAULT_<fault> (none: it runs to the end) on each of `cores`.
ProgramSpec faulting_program(const Device& device, const std::vector<std::pair<LogicalCore, std::string>>& cores) {
    ProgramSpec program;
    for (const auto& [core, fault] : cores) {
        // L1_OVERRUN: the bytes from the first CB (c_0) to the end of the core's L1.
        const uint32_t n =
            fault == "STACK_OVERFLOW" ? 1u << 30 : device.spec().l1_bytes - device.spec().l1_reserved_bytes;
        KernelSpec k = test::kernel_on(kKernel, KernelRole::DataMovement1, core, {}, {0, n});
        if (!fault.empty())
            k.defines = {{"FAULT_" + fault, "1"}};
        program.kernels.push_back(k);
        program.circular_buffers.push_back(test::bf16_cb(0, 2, {core}));
        program.semaphores.push_back({0, {core}, 0});
    }
    return program;
}

void run_fault(const std::string& fault, Arch arch = Arch::Wormhole) {
    Device device(arch);
    device.run(faulting_program(device, {{kCore, fault}}));
}

size_t thread_count() {
    size_t n = 0;
    DIR* tasks = opendir("/proc/self/task");
    while (dirent* entry = readdir(tasks))
        n += entry->d_name[0] != '.';
    closedir(tasks);
    return n;
}

// Bytes mapped between 1 GiB and 4 GiB, where devices keep their L1.
// Bytes mapped in [1 GiB, 4 GiB) once the scrubber is idle: it unmaps retired L1 pools beyond the two it
// keeps as it finishes zeroing them, so before that the figure depends on its timing.
uint64_t low_mapped_bytes() {
    wait_for_scrubber();
    std::ifstream maps("/proc/self/maps");
    uint64_t total = 0;
    std::string line;
    while (std::getline(maps, line)) {
        uint64_t start = 0, end = 0;
        char dash;
        std::istringstream(line) >> std::hex >> start >> dash >> end;
        if (start >= (uint64_t(1) << 30) && start < (uint64_t(1) << 32))
            total += std::min(end, uint64_t(1) << 32) - start;
    }
    return total;
}

// The fault test, then a good run in the same process (the fault did not damage the runtime).
void expect_fault(const std::string& fault, std::vector<std::string> needles) {
    needles.push_back("core (0,0) RISCV_1 (NCRISC) [" + test::kernel(kKernel) + "]: kernel fault");
    needles.push_back("the run was aborted");
    test::expect_error<KernelFaultError>([&] { run_fault(fault); }, needles);
    run_fault("");
}

}  // namespace

TEST(null_dereference_is_a_kernel_fault) {
    expect_fault("NULL", {"SIGSEGV (invalid memory access) at address 0x0", fault_line("NULL")});
}

// The fault's line comes from the kernel's object in the build cache, whatever characters its path has.
TEST(fault_line_found_in_a_cache_directory_with_a_quote) {
    const std::string cache = std::getenv("RUNTIME_MOCK_CACHE_DIR");
    setenv("RUNTIME_MOCK_CACHE_DIR", (cache + "/it's here").c_str(), 1);
    try {
        test::expect_error<KernelFaultError>([] { run_fault("NULL"); }, {fault_line("NULL")});
    } catch (...) {
        setenv("RUNTIME_MOCK_CACHE_DIR", cache.c_str(), 1);
        throw;
    }
    setenv("RUNTIME_MOCK_CACHE_DIR", cache.c_str(), 1);
}

TEST(division_by_zero_is_a_kernel_fault) {
    expect_fault("DIVIDE_BY_ZERO", {"SIGFPE", fault_line("DIVIDE_BY_ZERO")});
}

TEST(failed_assert_is_a_kernel_fault) {
    const std::string stderr_text = test::capture_stderr(
        [] { expect_fault("ASSERT", {"SIGABRT (abort, e.g. a failed assert", fault_line("ASSERT")}); });
    CHECK(stderr_text.find("Assertion `zero == 1' failed") != std::string::npos);
}

TEST(stack_overflow_is_a_kernel_fault) {
    expect_fault("STACK_OVERFLOW", {"SIGSEGV", "stack overflow"});
}

// Not a signal: the exception unwinds the kernel, and the report names the kernel's `throw`.
TEST(uncaught_exception_names_the_throwing_line) {
    test::expect_error<DeviceError>([] { run_fault("THROW"); },
                                    {"uncaught exception: thrown by the kernel", fault_line("THROW")});
    run_fault("");
}

TEST(illegal_instruction_is_a_kernel_fault) {
    expect_fault("TRAP", {"SIGILL (illegal instruction", fault_line("TRAP")});
}

TEST(write_past_the_core_l1_is_a_kernel_fault) {
    for (Arch arch : {Arch::Wormhole, Arch::Blackhole}) {
        test::expect_error<KernelFaultError>([&] { run_fault("L1_OVERRUN", arch); },
                                             {"4-byte write at 0x", "outside this core's L1",
                                              "0x100 bytes past the end of core (0,0)'s L1", fault_line("L1_OVERRUN")});
    }
}

// Past every guard page: the instrumented access itself is stopped (kernel_abi/memory_check.h), before it
// reads or writes another core's L1.
TEST(access_to_another_core_l1_is_a_kernel_fault) {
    for (Arch arch : {Arch::Wormhole, Arch::Blackhole}) {
        test::expect_error<KernelFaultError>([&] { run_fault("L1_NEIGHBOUR", arch); },
                                             {"4-byte read at 0x", "outside this core's L1", "'s L1 at offset 0x",
                                              "use the NOC", fault_line("L1_NEIGHBOUR")});
        test::expect_error<KernelFaultError>(
            [&] { run_fault("L1_MEMCPY", arch); },
            {"64-byte write at 0x", "outside this core's L1", fault_line("L1_MEMCPY")});
        run_fault("", arch);
    }
}

// A fault on one core while the kernel of another spins outside the API: the spinning thread is stopped
// and returns to the kernel workers (which live across runs: the baseline is taken after a clean run).
TEST(fault_stops_the_other_kernels) {
    Device device;
    device.run(faulting_program(device, {{{0, 0}, ""}, {{1, 0}, ""}}));
    const size_t threads = thread_count();
    test::expect_error<KernelFaultError>(
        [&] { device.run(faulting_program(device, {{{0, 0}, "SPIN"}, {{1, 0}, "NULL"}})); },
        {"core (1,0) RISCV_1 (NCRISC)", "SIGSEGV", fault_line("NULL")});
    CHECK(thread_count() == threads);
    device.run(faulting_program(device, {{kCore, ""}}));
}

// Kernel workers live across runs: the worker whose spinning kernel the watchdog stopped runs the next
// kernel (the most recently returned worker is reused first) and reports its fault.
TEST(fault_on_the_worker_of_a_stopped_kernel) {
    setenv("RUNTIME_MOCK_WATCHDOG_SECONDS", "1", 1);
    test::expect_error<DeadlockError>([&] { run_fault("SPIN"); }, {"no kernel made progress"});
    unsetenv("RUNTIME_MOCK_WATCHDOG_SECONDS");
    test::expect_error<KernelFaultError>([&] { run_fault("DIVIDE_BY_ZERO"); },
                                         {"SIGFPE", fault_line("DIVIDE_BY_ZERO")});
}

TEST(watchdog_reports_spinning_kernel_line_and_releases_its_thread_and_l1) {
    run_fault("");  // kernel workers live across runs: the baseline has one
    const size_t threads = thread_count();
    const uint64_t mapped = low_mapped_bytes();
    setenv("RUNTIME_MOCK_WATCHDOG_SECONDS", "1", 1);
    {
        Device device;
        test::expect_error<DeadlockError>([&] { device.run(faulting_program(device, {{kCore, "SPIN"}})); },
                                          {"no kernel made progress for 1 s", "core (0,0) RISCV_1 (NCRISC)",
                                           "running at " + test::kernel(kKernel) + ":"});
        CHECK(thread_count() == threads);
        device.run(faulting_program(device, {{kCore, ""}}));
    }
    unsetenv("RUNTIME_MOCK_WATCHDOG_SECONDS");
    CHECK(low_mapped_bytes() == mapped);
}

// A kernel the runtime cannot stop (it sleeps with signals blocked) is abandoned with its device; once it
// returns, the device's L1 address range is free again for later devices.
TEST(abandoned_kernel_gives_back_the_l1_range_when_it_returns) {
    run_fault("");
    const uint64_t mapped = low_mapped_bytes();
    setenv("RUNTIME_MOCK_WATCHDOG_SECONDS", "1", 1);
    {
        Device device;
        test::expect_error<DeadlockError>(
            [&] { device.run(faulting_program(device, {{kCore, "UNSTOPPABLE"}})); },
            {"no kernel made progress for 1 s", "were abandoned", "stays mapped until they return"});
        test::expect_error<DeviceError>([&] { device.run(faulting_program(device, {{kCore, ""}})); },
                                        {"create a new Device"});
    }
    unsetenv("RUNTIME_MOCK_WATCHDOG_SECONDS");
    for (int i = 0; i < 100 && low_mapped_bytes() != mapped; i++)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    CHECK(low_mapped_bytes() == mapped);
    run_fault("");
}

TEST(eight_threads_with_their_own_device_on_each_arch) {
    for (Arch arch : {Arch::Wormhole, Arch::Blackhole}) {
        std::vector<std::string> errors(8);
        std::vector<std::thread> threads;
        for (size_t i = 0; i < errors.size(); i++) {
            threads.emplace_back([&, i] {
                try {
                    run_fault("", arch);
                } catch (const std::exception& e) {
                    errors[i] = e.what();
                }
            });
        }
        for (std::thread& thread : threads)
            thread.join();
        for (const std::string& error : errors) {
            if (!error.empty())
                throw std::runtime_error(std::string(arch_spec(arch).name) + ": " + error);
        }
    }
}

// A SIGSEGV that another thread sends to a kernel's thread (pthread_kill) is not the kernel's fault: it
// reaches the handler installed before ours, here the default action, which ends the process. So the
// kernel spins in a child process while a second thread of the child sends the signal to the third, the
// kernel's worker (a child made by fork() starts with no workers).
TEST(segv_sent_by_another_thread_is_not_a_kernel_fault) {
    const pid_t child = fork();
    if (child == 0) {
        const rlimit no_core_dump{0, 0};
        setrlimit(RLIMIT_CORE, &no_core_dump);
        std::thread([] {
            const pid_t process = getpid(), sender = pid_t(syscall(SYS_gettid));
            for (pid_t worker = 0; worker == 0;) {
                DIR* tasks = opendir("/proc/self/task");
                while (dirent* entry = readdir(tasks)) {
                    const pid_t tid = pid_t(std::atoi(entry->d_name));
                    if (tid != 0 && tid != process && tid != sender)
                        worker = tid;
                }
                closedir(tasks);
                std::this_thread::sleep_for(std::chrono::milliseconds(worker == 0 ? 10 : 500));
                if (worker != 0)
                    syscall(SYS_tgkill, process, worker, SIGSEGV);
            }
        }).detach();
        setenv("RUNTIME_MOCK_WATCHDOG_SECONDS", "20", 1);
        try {
            run_fault("SPIN");
        } catch (const KernelFaultError&) {
            _exit(3);
        } catch (...) {
            _exit(4);
        }
        _exit(5);
    }
    int status = 0;
    CHECK(waitpid(child, &status, 0) == child);
    if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGSEGV) {
        throw std::runtime_error("the child should have died of the SIGSEGV another thread sent; it " +
                                 (WIFEXITED(status)
                                      ? "exited with " + std::to_string(WEXITSTATUS(status)) +
                                            " (3: the signal was reported as a KernelFaultError, 4: another error)"
                                      : "died of signal " + std::to_string(WTERMSIG(status))));
    }
}

// When the L1 of live devices fills the range below 4 GiB, a new device waits for one to be released.
TEST(new_device_waits_for_l1_address_space) {
    setenv("RUNTIME_MOCK_L1_WAIT_SECONDS", "0.2", 1);
    std::vector<std::unique_ptr<Device>> devices;
    test::expect_error<DeviceError>(
        [&] {
            while (true)
                devices.push_back(std::make_unique<Device>(Arch::Blackhole));
        },
        {"cannot map", "MiB of L1 below 4 GiB", "devices alive in this process", "RUNTIME_MOCK_L1_WAIT_SECONDS"});
    CHECK(!devices.empty());
    setenv("RUNTIME_MOCK_L1_WAIT_SECONDS", "10", 1);
    std::thread release([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        devices.pop_back();
    });
    Device waited(Arch::Blackhole);
    release.join();
    unsetenv("RUNTIME_MOCK_L1_WAIT_SECONDS");
}

int main() {
    return test::run_all();
}
