// The host API (tt-metalium/host_api.hpp) over a Program's record and the simulated chip: kernels with their
// build specs, circular buffers and semaphores, runtime args with the SDK's per-core limit and fixed counts,
// and the single-device command queue, whose commands run when they are enqueued.
#include <runtime_mock/device.hpp>
#include <tt-metalium/host_api.hpp>

#include <algorithm>

#include "kernel_path.hpp"
#include "program_record.hpp"

namespace tt::tt_metal {

namespace {

using Kernel = Program::Record::Kernel;

// The cores of a CoreSpec (or of the CoreRange / CoreRangeSet variant CreateSemaphore takes).
template <typename Variant>
CoreRangeSet core_range_set(const Variant& core_spec) {
    return std::visit([](const auto& spec) { return CoreRangeSet(spec); }, core_spec);
}

void check_arg_count(const Kernel& kernel, size_t unique, size_t common) {
    TT_FATAL(unique + common <= max_runtime_args,
             "Kernel {}: {} unique + {} common runtime args exceed the limit of {} per core", kernel.name, unique,
             common, max_runtime_args);
}

void set_runtime_args(const Program& program, KernelHandle kernel_id, const CoreCoord& core, const uint32_t* args,
                      size_t count) {
    Kernel& kernel = program.record().kernel(kernel_id);
    TT_FATAL(kernel.cores.contains(core), "SetRuntimeArgs: kernel {} does not run on core {}", kernel.name, core.str());
    check_arg_count(kernel, count, kernel.common_runtime_args.size());
    auto [it, inserted] = kernel.runtime_args.try_emplace(core, args, args + count);
    if (!inserted) {
        TT_FATAL(it->second.size() == count,
                 "SetRuntimeArgs: kernel {} on core {}: the number of runtime args cannot change from {} to {}",
                 kernel.name, core.str(), it->second.size(), count);
        std::copy(args, args + count, it->second.begin());
    }
    kernel.runtime_args_views[core] = RuntimeArgsData{it->second.data(), it->second.size()};
}

void set_runtime_args(const Program& program, KernelHandle kernel_id, const CoreSpec& core_spec, const uint32_t* args,
                      size_t count) {
    const CoreRangeSet cores = core_range_set(core_spec);
    for (const CoreRange& range : cores.ranges()) {
        for (const CoreCoord& core : range) {
            set_runtime_args(program, kernel_id, core, args, count);
        }
    }
}

runtime_mock::KernelRole data_movement_role(DataMovementProcessor processor) {
    switch (processor) {
        case DataMovementProcessor::RISCV_0:
            return runtime_mock::KernelRole::DataMovement0;
        case DataMovementProcessor::RISCV_1:
            return runtime_mock::KernelRole::DataMovement1;
        default:
            TT_THROW("DataMovementProcessor::RISCV_{} does not exist on Tensix cores (only RISCV_0 and RISCV_1)",
                     static_cast<int>(processor));
    }
}

}  // namespace

IDevice* CreateDevice(ChipId device_id, uint8_t num_hw_cqs, size_t l1_small_size, size_t trace_region_size) {
    TT_FATAL(num_hw_cqs == 1, "The mock device has one command queue, not {}", num_hw_cqs);
    (void)l1_small_size;
    (void)trace_region_size;
    return new IDevice(device_id);
}

bool CloseDevice(IDevice* device) {
    TT_FATAL(device != nullptr, "CloseDevice: device is null");
    const bool closed = device->close();
    delete device;
    return closed;
}

Program CreateProgram() {
    return Program();
}

KernelHandle CreateKernel(Program& program, const std::string& file_name, const CoreSpec& core_spec,
                          const std::variant<DataMovementConfig, ComputeConfig>& config) {
    auto kernel = std::make_unique<Kernel>();
    kernel->cores = core_range_set(core_spec);
    kernel->spec.source_path = host_detail::resolve_kernel_path(file_name);
    kernel->spec.cores = Program::Record::logical_cores(kernel->cores);
    if (const auto* dm = std::get_if<DataMovementConfig>(&config)) {
        kernel->spec.role = data_movement_role(dm->processor);
        kernel->spec.noc = static_cast<uint8_t>(dm->noc);
        kernel->spec.compile_args = dm->compile_args;
        kernel->spec.defines = dm->defines;
        kernel->spec.named_compile_args.insert(dm->named_compile_args.begin(), dm->named_compile_args.end());
        kernel->name = fmt::format("{} (RISCV_{})", file_name, static_cast<int>(dm->processor));
    } else {
        const ComputeConfig& compute = std::get<ComputeConfig>(config);
        kernel->spec.role = runtime_mock::KernelRole::Compute;
        kernel->spec.compile_args = compute.compile_args;
        kernel->spec.defines = compute.defines;
        kernel->spec.named_compile_args.insert(compute.named_compile_args.begin(), compute.named_compile_args.end());
        kernel->spec.compute.math_fidelity = static_cast<int>(compute.math_fidelity);
        kernel->spec.compute.fp32_dest_acc_en = compute.fp32_dest_acc_en;
        kernel->spec.compute.dst_full_sync_en = compute.dst_full_sync_en;
        kernel->spec.compute.math_approx_mode = compute.math_approx_mode;
        kernel->name = fmt::format("{} (compute)", file_name);
    }
    return program.record().add_kernel(std::move(kernel));
}

KernelHandle CreateKernel(Program& program, const std::string& file_name, const CoreSpec& core_spec,
                          const EthernetConfig& config) {
    (void)program;
    (void)core_spec;
    (void)config;
    TT_THROW("CreateKernel {}: Ethernet kernels are not supported by the mock device", file_name);
}

CBHandle CreateCircularBuffer(Program& program, const CoreSpec& core_spec, const CircularBufferConfig& config) {
    runtime_mock::CircularBufferSpec cb;
    cb.total_size = config.total_size();
    TT_FATAL(!config.buffer_indices().empty(), "CreateCircularBuffer: the config names no buffer index");
    for (uint8_t index : config.buffer_indices()) {
        const auto& format = config.data_formats()[index];
        const auto& page_size = config.page_sizes()[index];
        TT_FATAL(format.has_value(), "CreateCircularBuffer: no data format for buffer index {}", index);
        TT_FATAL(page_size.has_value(), "CreateCircularBuffer: no page size for buffer index {} (use set_page_size)",
                 index);
        TT_FATAL(runtime_mock::kernel_abi::modelled_by_the_device(*format),
                 "Data format {} is not supported by the mock device", tt::data_format_name(*format));
        cb.indices.push_back({index, *format, *page_size});
    }
    cb.buffer_address = config.globally_allocated_address().value_or(0);
    return program.record().add_circular_buffer(core_range_set(core_spec), std::move(cb));
}

uint32_t CreateSemaphore(Program& program, const std::variant<CoreRange, CoreRangeSet>& core_spec,
                         uint32_t initial_value, CoreType core_type) {
    TT_FATAL(core_type == CoreType::WORKER, "CreateSemaphore: the mock device only has worker cores");
    return program.record().add_semaphore(core_range_set(core_spec), initial_value);
}

std::shared_ptr<Buffer> CreateBuffer(const InterleavedBufferConfig& config) {
    return Buffer::create(config.device, config.size, config.page_size, config.buffer_type);
}

std::shared_ptr<Buffer> CreateBuffer(const ShardedBufferConfig& config) {
    return Buffer::create(config.device, config.size, config.page_size, config.buffer_type,
                          BufferShardingArgs(config.shard_parameters, config.buffer_layout));
}

void DeallocateBuffer(Buffer& buffer) {
    buffer.deallocate();
}

void SetRuntimeArgs(const Program& program, KernelHandle kernel, const CoreSpec& core_spec,
                    std::span<const uint32_t> runtime_args) {
    set_runtime_args(program, kernel, core_spec, runtime_args.data(), runtime_args.size());
}

void host_detail::set_runtime_args(const Program& program, KernelHandle kernel, const CoreSpec& core_spec,
                                   stl::Span<const uint32_t> runtime_args) {
    SetRuntimeArgs(program, kernel, core_spec, std::span<const uint32_t>(runtime_args.data(), runtime_args.size()));
}

void SetRuntimeArgs(const Program& program, KernelHandle kernel, const CoreSpec& core_spec,
                    std::initializer_list<uint32_t> runtime_args) {
    set_runtime_args(program, kernel, core_spec, runtime_args.begin(), runtime_args.size());
}

void SetRuntimeArgs(const Program& program, KernelHandle kernel, const std::vector<CoreCoord>& core_spec,
                    const std::vector<std::vector<uint32_t>>& runtime_args) {
    TT_FATAL(core_spec.size() == runtime_args.size(), "SetRuntimeArgs: {} cores but {} lists of runtime args",
             core_spec.size(), runtime_args.size());
    for (size_t i = 0; i < core_spec.size(); ++i) {
        set_runtime_args(program, kernel, core_spec[i], runtime_args[i].data(), runtime_args[i].size());
    }
}

void SetCommonRuntimeArgs(const Program& program, KernelHandle kernel_id, std::span<const uint32_t> runtime_args) {
    Kernel& kernel = program.record().kernel(kernel_id);
    for (const auto& [core, args] : kernel.runtime_args) {
        check_arg_count(kernel, args.size(), runtime_args.size());
    }
    TT_FATAL(kernel.common_runtime_args.empty() || kernel.common_runtime_args.size() == runtime_args.size(),
             "SetCommonRuntimeArgs: kernel {}: the number of common runtime args cannot change from {} to {}",
             kernel.name, kernel.common_runtime_args.size(), runtime_args.size());
    kernel.common_runtime_args.assign(runtime_args.begin(), runtime_args.end());
    kernel.common_runtime_args_view = RuntimeArgsData{kernel.common_runtime_args.data(), runtime_args.size()};
}

void SetCommonRuntimeArgs(const Program& program, KernelHandle kernel, std::initializer_list<uint32_t> runtime_args) {
    SetCommonRuntimeArgs(program, kernel, std::span<const uint32_t>(runtime_args.begin(), runtime_args.size()));
}

void host_detail::set_common_runtime_args(const Program& program, KernelHandle kernel,
                                          stl::Span<const uint32_t> runtime_args) {
    SetCommonRuntimeArgs(program, kernel, std::span<const uint32_t>(runtime_args.data(), runtime_args.size()));
}

RuntimeArgsData& GetRuntimeArgs(const Program& program, KernelHandle kernel_id, const CoreCoord& core) {
    Kernel& kernel = program.record().kernel(kernel_id);
    TT_FATAL(kernel.cores.contains(core), "GetRuntimeArgs: kernel {} does not run on core {}", kernel.name, core.str());
    return kernel.runtime_args_views[core];
}

std::vector<std::vector<RuntimeArgsData>>& GetRuntimeArgs(const Program& program, KernelHandle kernel_id) {
    Kernel& kernel = program.record().kernel(kernel_id);
    const CoreRange box = kernel.cores.bounding_box();
    kernel.grid_views.assign(box.end_coord.x + 1, std::vector<RuntimeArgsData>(box.end_coord.y + 1));
    for (const auto& [core, view] : kernel.runtime_args_views) {
        kernel.grid_views[core.x][core.y] = view;
    }
    return kernel.grid_views;
}

RuntimeArgsData& GetCommonRuntimeArgs(const Program& program, KernelHandle kernel_id) {
    return program.record().kernel(kernel_id).common_runtime_args_view;
}

Buffer& host_detail::buffer_of(const BufferRef& buffer) {
    if (const auto* ref = std::get_if<std::reference_wrapper<Buffer>>(&buffer)) {
        return ref->get();
    }
    const auto& shared = std::get<std::shared_ptr<Buffer>>(buffer);
    TT_FATAL(shared != nullptr, "Buffer is null");
    return *shared;
}

void EnqueueWriteBuffer(CommandQueue& cq, const BufferRef& buffer, const void* src, bool blocking) {
    (void)cq;
    (void)blocking;
    Buffer& target = host_detail::buffer_of(buffer);
    host_detail::write_buffer(target, src, target.size());
}

void EnqueueReadBuffer(CommandQueue& cq, const BufferRef& buffer, void* dst, bool blocking) {
    (void)cq;
    (void)blocking;
    Buffer& source = host_detail::buffer_of(buffer);
    host_detail::read_buffer(source, dst, source.size());
}

void EnqueueProgram(CommandQueue& cq, Program& program, bool blocking) {
    (void)blocking;
    cq.device()->mock().run(program.record().spec());
}

void Finish(CommandQueue& cq) {
    (void)cq;
}

}  // namespace tt::tt_metal
