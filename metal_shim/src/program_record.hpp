// What a Program records (tt-metalium/program.hpp): each kernel with its build spec, cores and runtime args,
// each circular-buffer config and each semaphore, with the SDK's rules checked as they are added (one kernel
// per processor per core, one config per CB index per core, at most NUM_SEMAPHORES semaphores per core).
//
// Runtime args live here, one vector per (kernel, core); once set, their count is fixed (as in the SDK), so
// views returned by GetRuntimeArgs stay valid and writes through them reach the next run. spec() is the
// program as the mock device runs it.
#pragma once

#include <runtime_mock/program_spec.hpp>
#include <tt-metalium/program.hpp>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace tt::tt_metal {

struct Program::Record {
    struct Kernel {
        runtime_mock::KernelSpec spec;  // everything but the runtime args, which are below
        std::string name;               // "<file> (RISCV_0)", for messages
        CoreRangeSet cores;
        std::map<CoreCoord, std::vector<uint32_t>> runtime_args;
        std::map<CoreCoord, RuntimeArgsData> runtime_args_views;
        std::vector<uint32_t> common_runtime_args;
        RuntimeArgsData common_runtime_args_view;
        std::vector<std::vector<RuntimeArgsData>> grid_views;
    };

    // Throws if another kernel runs on the same processor of one of its cores.
    KernelHandle add_kernel(std::unique_ptr<Kernel> kernel);

    // Throws for a handle that is not a kernel of this program.
    Kernel& kernel(KernelHandle id) const;

    // Throws if one of the config's CB indices is already in use on one of the cores.
    CBHandle add_circular_buffer(const CoreRangeSet& cores, runtime_mock::CircularBufferSpec cb);

    // The lowest semaphore id free on every given core; throws if none is.
    uint32_t add_semaphore(const CoreRangeSet& cores, uint32_t initial_value);

    runtime_mock::ProgramSpec spec() const;

    static runtime_mock::LogicalCore logical_core(const CoreCoord& core);
    static std::vector<runtime_mock::LogicalCore> logical_cores(const CoreRangeSet& cores);

    std::vector<std::unique_ptr<Kernel>> kernels;
    std::vector<std::pair<CoreRangeSet, runtime_mock::CircularBufferSpec>> circular_buffers;
    std::vector<std::pair<CoreRangeSet, runtime_mock::SemaphoreSpec>> semaphores;
};

}  // namespace tt::tt_metal
