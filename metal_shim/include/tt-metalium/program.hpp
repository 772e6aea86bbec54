// Program: the kernels, circular buffers and semaphores of one launch, with each kernel's runtime
// args. Host API calls (CreateKernel, SetRuntimeArgs, ...) fill it; spec() turns it into the plain
// tt_mock::ProgramSpec that tt_mock::Device::run executes. Move-only, like the SDK's.
//
// Runtime args live here, one vector per (kernel, core); once set, their count is fixed (as in the
// SDK), so views returned by GetRuntimeArgs stay valid and writes through them reach the next run.
#pragma once

#include <runtime_mock/program_spec.hpp>
#include <tt-metalium/circular_buffer_config.hpp>
#include <tt-metalium/core_coord.hpp>
#include <tt-metalium/kernel_types.hpp>
#include <tt-metalium/runtime_args_data.hpp>
#include <tt_stl/assert.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tt::tt_metal {

constexpr uint32_t NUM_SEMAPHORES = 8;

class Program {
public:
    struct Kernel {
        tt_mock::KernelSpec spec;  // everything but the runtime args, which are below
        std::string name;          // "<file> (RISCV_0)", for messages
        CoreRangeSet cores;
        std::map<CoreCoord, std::vector<uint32_t>> runtime_args;
        std::map<CoreCoord, RuntimeArgsData> runtime_args_views;
        std::vector<uint32_t> common_runtime_args;
        RuntimeArgsData common_runtime_args_view;
        std::vector<std::vector<RuntimeArgsData>> grid_views;
    };

    Program() = default;
    Program(Program&&) = default;
    Program& operator=(Program&&) = default;
    Program(const Program&) = delete;
    Program& operator=(const Program&) = delete;

    KernelHandle add_kernel(std::unique_ptr<Kernel> kernel) {
        for (const auto& other : kernels_) {
            if (other->spec.role != kernel->spec.role) {
                continue;
            }
            for (const CoreRange& range : kernel->cores.ranges()) {
                TT_FATAL(!other->cores.intersects(range),
                         "CreateKernel {}: cores {} already run {} on the same processor", kernel->name, range.str(),
                         other->name);
            }
        }
        kernels_.push_back(std::move(kernel));
        return static_cast<KernelHandle>(kernels_.size() - 1);
    }

    Kernel& kernel(KernelHandle id) const {
        TT_FATAL(id < kernels_.size(), "Kernel handle {} is not a kernel of this program ({} kernels)", id,
                 kernels_.size());
        return *kernels_[id];
    }

    CBHandle add_circular_buffer(const CoreRangeSet& cores, tt_mock::CircularBufferSpec cb) {
        for (const auto& [other_cores, other] : circular_buffers_) {
            for (const auto& index : cb.indices) {
                const bool same_index =
                    std::any_of(other.indices.begin(), other.indices.end(),
                                [&](const tt_mock::CircularBufferSpec::Index& i) { return i.index == index.index; });
                for (const CoreRange& range : cores.ranges()) {
                    TT_FATAL(!same_index || !other_cores.intersects(range),
                             "CreateCircularBuffer: circular buffer index {} is already in use on cores {}",
                             index.index, range.str());
                }
            }
        }
        cb.cores = logical_cores(cores);
        circular_buffers_.emplace_back(cores, std::move(cb));
        return static_cast<CBHandle>(circular_buffers_.size() - 1);
    }

    // The lowest semaphore id free on every given core.
    uint32_t add_semaphore(const CoreRangeSet& cores, uint32_t initial_value) {
        for (uint32_t id = 0; id < NUM_SEMAPHORES; ++id) {
            const bool taken = std::any_of(semaphores_.begin(), semaphores_.end(), [&](const auto& s) {
                return s.second.id == id && std::any_of(cores.ranges().begin(), cores.ranges().end(),
                                                        [&](const CoreRange& r) { return s.first.intersects(r); });
            });
            if (!taken) {
                semaphores_.emplace_back(cores, tt_mock::SemaphoreSpec{id, logical_cores(cores), initial_value});
                return id;
            }
        }
        TT_THROW("CreateSemaphore: all {} semaphores are in use on cores {}", NUM_SEMAPHORES, cores.str());
    }

    // The program as the mock device runs it.
    tt_mock::ProgramSpec spec() const {
        tt_mock::ProgramSpec program;
        for (const auto& kernel : kernels_) {
            tt_mock::KernelSpec spec = kernel->spec;
            for (const auto& [core, args] : kernel->runtime_args) {
                spec.runtime_args[logical_core(core)] = args;
            }
            spec.common_runtime_args = kernel->common_runtime_args;
            program.kernels.push_back(std::move(spec));
        }
        for (const auto& cb : circular_buffers_) {
            program.circular_buffers.push_back(cb.second);
        }
        for (const auto& semaphore : semaphores_) {
            program.semaphores.push_back(semaphore.second);
        }
        return program;
    }

    static tt_mock::LogicalCore logical_core(const CoreCoord& core) {
        return {static_cast<uint32_t>(core.x), static_cast<uint32_t>(core.y)};
    }

    static std::vector<tt_mock::LogicalCore> logical_cores(const CoreRangeSet& cores) {
        std::vector<tt_mock::LogicalCore> result;
        for (const CoreCoord& core : corerange_to_cores(cores, std::nullopt, true)) {
            result.push_back(logical_core(core));
        }
        return result;
    }

private:
    std::vector<std::unique_ptr<Kernel>> kernels_;
    std::vector<std::pair<CoreRangeSet, tt_mock::CircularBufferSpec>> circular_buffers_;
    std::vector<std::pair<CoreRangeSet, tt_mock::SemaphoreSpec>> semaphores_;
};

}  // namespace tt::tt_metal
