// DPRINT keeps one line buffer and one set of manipulators per kernel: kernels of several cores share a host
// thread (they are fibers on one lane), and a kernel that waits in the middle of a line lets the others print
// meanwhile. Each line must still come out whole, under its own core, in its own base.
#include "test_support.hpp"

using namespace runtime_mock;

TEST(a_line_split_by_a_wait_comes_out_whole_under_its_core) {
    Device device(Arch::Wormhole);
    constexpr uint32_t kCores = 8;  // several per lane on any machine with fewer CPUs than this
    KernelSpec printer = test::kernel_on("dprint_split_line.cpp", KernelRole::DataMovement1, {0, 0}, {}, {});
    KernelSpec pusher = test::kernel_on("dprint_push_page.cpp", KernelRole::DataMovement0, {0, 0}, {}, {});
    std::vector<LogicalCore> cores;
    printer.cores.clear();
    printer.runtime_args.clear();
    pusher.cores.clear();
    pusher.runtime_args.clear();
    for (uint32_t i = 0; i < kCores; i++) {
        const LogicalCore core{i, 0};
        cores.push_back(core);
        printer.cores.push_back(core);
        printer.runtime_args[core] = {i};
        pusher.cores.push_back(core);
    }
    ProgramSpec program;
    program.kernels = {printer, pusher};  // the printers first: each starts its line before any page is pushed
    program.circular_buffers = {test::bf16_cb(0, 1, cores)};
    const std::string output = test::capture(stdout, [&] { device.run(program); });
    for (uint32_t i = 0; i < kCores; i++) {
        const std::string line = "[core (" + std::to_string(i) + ",0) RISCV_1 (NCRISC)] core " + std::to_string(i) +
                                 " starts, ff then ff ends core " + std::to_string(i) + "\n";
        if (test::count(output, line) != 1)
            throw std::runtime_error("expected the line\n  " + line + "exactly once; the output was:\n" + output);
    }
    if (test::count(output, "\n") != kCores)
        throw std::runtime_error("expected " + std::to_string(kCores) + " lines; the output was:\n" + output);
}

int main() {
    return test::run_all();
}
