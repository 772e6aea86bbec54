// Program and its record (tt-metalium/program.hpp, program_record.hpp): adding kernels, circular buffers and
// semaphores under the SDK's rules, and the plain ProgramSpec the mock device runs.
#include "program_record.hpp"

#include <algorithm>

namespace tt::tt_metal {

Program::Program() : record_(std::make_unique<Record>()) {}
Program::~Program() = default;
Program::Program(Program&& other) noexcept = default;
Program& Program::operator=(Program&& other) noexcept = default;

Program::Record& Program::record() const {
    TT_FATAL(record_ != nullptr, "Program was moved from (to a MeshWorkload or another Program); use that one");
    return *record_;
}

KernelHandle Program::Record::add_kernel(std::unique_ptr<Kernel> kernel) {
    for (const auto& other : kernels) {
        if (other->spec.role != kernel->spec.role) {
            continue;
        }
        for (const CoreRange& range : kernel->cores.ranges()) {
            TT_FATAL(!other->cores.intersects(range), "CreateKernel {}: cores {} already run {} on the same processor",
                     kernel->name, range.str(), other->name);
        }
    }
    kernels.push_back(std::move(kernel));
    return static_cast<KernelHandle>(kernels.size() - 1);
}

Program::Record::Kernel& Program::Record::kernel(KernelHandle id) const {
    TT_FATAL(id < kernels.size(), "Kernel handle {} is not a kernel of this program ({} kernels)", id, kernels.size());
    return *kernels[id];
}

CBHandle Program::Record::add_circular_buffer(const CoreRangeSet& cores, runtime_mock::CircularBufferSpec cb) {
    for (const auto& [other_cores, other] : circular_buffers) {
        for (const auto& index : cb.indices) {
            const bool same_index =
                std::any_of(other.indices.begin(), other.indices.end(),
                            [&](const runtime_mock::CircularBufferSpec::Index& i) { return i.index == index.index; });
            for (const CoreRange& range : cores.ranges()) {
                TT_FATAL(!same_index || !other_cores.intersects(range),
                         "CreateCircularBuffer: circular buffer index {} is already in use on cores {}", index.index,
                         range.str());
            }
        }
    }
    cb.cores = logical_cores(cores);
    circular_buffers.emplace_back(cores, std::move(cb));
    return static_cast<CBHandle>(circular_buffers.size() - 1);
}

uint32_t Program::Record::add_semaphore(const CoreRangeSet& cores, uint32_t initial_value) {
    for (uint32_t id = 0; id < NUM_SEMAPHORES; ++id) {
        const bool taken = std::any_of(semaphores.begin(), semaphores.end(), [&](const auto& s) {
            return s.second.id == id && std::any_of(cores.ranges().begin(), cores.ranges().end(),
                                                    [&](const CoreRange& r) { return s.first.intersects(r); });
        });
        if (!taken) {
            semaphores.emplace_back(cores, runtime_mock::SemaphoreSpec{id, logical_cores(cores), initial_value});
            return id;
        }
    }
    TT_THROW("CreateSemaphore: all {} semaphores are in use on cores {}", NUM_SEMAPHORES, cores.str());
}

runtime_mock::ProgramSpec Program::Record::spec() const {
    runtime_mock::ProgramSpec program;
    for (const auto& kernel : kernels) {
        runtime_mock::KernelSpec spec = kernel->spec;
        for (const auto& [core, args] : kernel->runtime_args) {
            spec.runtime_args[logical_core(core)] = args;
        }
        spec.common_runtime_args = kernel->common_runtime_args;
        program.kernels.push_back(std::move(spec));
    }
    for (const auto& cb : circular_buffers) {
        program.circular_buffers.push_back(cb.second);
    }
    for (const auto& semaphore : semaphores) {
        program.semaphores.push_back(semaphore.second);
    }
    return program;
}

runtime_mock::LogicalCore Program::Record::logical_core(const CoreCoord& core) {
    return {static_cast<uint32_t>(core.x), static_cast<uint32_t>(core.y)};
}

std::vector<runtime_mock::LogicalCore> Program::Record::logical_cores(const CoreRangeSet& cores) {
    std::vector<runtime_mock::LogicalCore> result;
    for (const CoreCoord& core : corerange_to_cores(cores, std::nullopt, true)) {
        result.push_back(logical_core(core));
    }
    return result;
}

}  // namespace tt::tt_metal
