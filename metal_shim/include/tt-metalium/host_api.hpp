// The host API: devices, programs, kernels, circular buffers, semaphores, buffers, runtime args and
// the single-device command queue. Every command runs on the mock device when it is enqueued
// (blocking or not), so host data may be reused as soon as an Enqueue* call returns. Defined in
// metal_shim/src/host_api.cpp (the templates below forward to it).
#pragma once

#include <fmt/format.h>
#include <hostdevcommon/common_values.hpp>
#include <hostdevcommon/kernel_structs.h>
#include <tt-metalium/base_types.hpp>
#include <tt-metalium/buffer.hpp>
#include <tt-metalium/circular_buffer_config.hpp>
#include <tt-metalium/command_queue.hpp>
#include <tt-metalium/constants.hpp>
#include <tt-metalium/core_coord.hpp>
#include <tt-metalium/device.hpp>
#include <tt-metalium/kernel_types.hpp>
#include <tt-metalium/program.hpp>
#include <tt-metalium/runtime_args_data.hpp>
#include <tt-metalium/tt_backend_api_types.hpp>
#include <tt-metalium/host_buffer_memory.hpp>
#include <tt_stl/assert.hpp>
#include <tt_stl/span.hpp>

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <variant>
#include <vector>
#if __cplusplus >= 202002L
#include <span>
#endif

namespace tt::tt_metal {

using CoreSpec = std::variant<CoreCoord, CoreRange, CoreRangeSet>;

// Opens the mock chip. Only device 0 exists; the extra SDK parameters have no effect on the mock.
IDevice* CreateDevice(ChipId device_id, uint8_t num_hw_cqs = 1, size_t l1_small_size = DEFAULT_L1_SMALL_SIZE,
                      size_t trace_region_size = DEFAULT_TRACE_REGION_SIZE);

bool CloseDevice(IDevice* device);

Program CreateProgram();

// Adds a kernel (source file resolved like the SDK's: absolute, else relative to the working directory,
// $TT_METAL_KERNEL_PATH or $TT_METAL_HOME) on the given cores. RISCV_0/RISCV_1 data-movement kernels and
// compute kernels are supported.
KernelHandle CreateKernel(Program& program, const std::string& file_name, const CoreSpec& core_spec,
                          const std::variant<DataMovementConfig, ComputeConfig>& config);

// Ethernet kernels: the mock has no Ethernet cores, so this throws.
KernelHandle CreateKernel(Program& program, const std::string& file_name, const CoreSpec& core_spec,
                          const EthernetConfig& config);

CBHandle CreateCircularBuffer(Program& program, const CoreSpec& core_spec, const CircularBufferConfig& config);

// A 32-bit semaphore at the same L1 address on every core of the range; returns its id.
uint32_t CreateSemaphore(Program& program, const std::variant<CoreRange, CoreRangeSet>& core_spec,
                         uint32_t initial_value, CoreType core_type = CoreType::WORKER);

std::shared_ptr<Buffer> CreateBuffer(const InterleavedBufferConfig& config);
std::shared_ptr<Buffer> CreateBuffer(const ShardedBufferConfig& config);

void DeallocateBuffer(Buffer& buffer);

namespace host_detail {

// SetRuntimeArgs and SetCommonRuntimeArgs from a span, for C++17 programs (the shim's own entry points, see
// below).
void set_runtime_args(const Program& program, KernelHandle kernel, const CoreSpec& core_spec,
                      stl::Span<const uint32_t> runtime_args);
void set_common_runtime_args(const Program& program, KernelHandle kernel, stl::Span<const uint32_t> runtime_args);

}  // namespace host_detail

// The SDK's span signatures need C++20 (std::span), as its host API does; in C++17 programs the shim's
// tt::stl::Span takes their place, through the shim's own entry points.
#if __cplusplus >= 202002L
void SetRuntimeArgs(const Program& program, KernelHandle kernel, const CoreSpec& core_spec,
                    std::span<const uint32_t> runtime_args);
#else
inline void SetRuntimeArgs(const Program& program, KernelHandle kernel, const CoreSpec& core_spec,
                           stl::Span<const uint32_t> runtime_args) {
    host_detail::set_runtime_args(program, kernel, core_spec, runtime_args);
}
#endif

void SetRuntimeArgs(const Program& program, KernelHandle kernel, const CoreSpec& core_spec,
                    std::initializer_list<uint32_t> runtime_args);

// One list of args per core: runtime_args[i] goes to core_spec[i].
void SetRuntimeArgs(const Program& program, KernelHandle kernel, const std::vector<CoreCoord>& core_spec,
                    const std::vector<std::vector<uint32_t>>& runtime_args);

#if __cplusplus >= 202002L
void SetCommonRuntimeArgs(const Program& program, KernelHandle kernel_id, std::span<const uint32_t> runtime_args);
#else
inline void SetCommonRuntimeArgs(const Program& program, KernelHandle kernel_id,
                                 stl::Span<const uint32_t> runtime_args) {
    host_detail::set_common_runtime_args(program, kernel_id, runtime_args);
}
#endif

void SetCommonRuntimeArgs(const Program& program, KernelHandle kernel, std::initializer_list<uint32_t> runtime_args);

// The args of one core, writable in place (they are used by the next run of the program).
RuntimeArgsData& GetRuntimeArgs(const Program& program, KernelHandle kernel_id, const CoreCoord& core);

// The args of every core, indexed [x][y].
std::vector<std::vector<RuntimeArgsData>>& GetRuntimeArgs(const Program& program, KernelHandle kernel_id);

RuntimeArgsData& GetCommonRuntimeArgs(const Program& program, KernelHandle kernel_id);

using BufferRef = std::variant<std::reference_wrapper<Buffer>, std::shared_ptr<Buffer>>;

namespace host_detail {

// The buffer a BufferRef designates; throws for a null shared_ptr.
Buffer& buffer_of(const BufferRef& buffer);

}  // namespace host_detail

// Copies buffer.size() bytes from src into the buffer.
void EnqueueWriteBuffer(CommandQueue& cq, const BufferRef& buffer, const void* src, bool blocking);

template <typename DType>
void EnqueueWriteBuffer(CommandQueue& cq, const BufferRef& buffer, const std::vector<DType>& src, bool blocking) {
    (void)cq;
    (void)blocking;
    host_detail::write_buffer(host_detail::buffer_of(buffer), src.data(), src.size() * sizeof(DType));
}

// Copies the whole buffer into dst (which must hold buffer.size() bytes).
void EnqueueReadBuffer(CommandQueue& cq, const BufferRef& buffer, void* dst, bool blocking);

// Resizes dst to the buffer's size and copies the buffer into it.
template <typename DType>
void EnqueueReadBuffer(CommandQueue& cq, const BufferRef& buffer, std::vector<DType>& dst, bool blocking) {
    (void)cq;
    (void)blocking;
    Buffer& source = host_detail::buffer_of(buffer);
    tt::tt_metal::host_detail::resize_host_vector(dst, source.size() / sizeof(DType));
    host_detail::read_buffer(source, dst.data(), dst.size() * sizeof(DType));
}

void EnqueueProgram(CommandQueue& cq, Program& program, bool blocking);

void Finish(CommandQueue& cq);

}  // namespace tt::tt_metal
