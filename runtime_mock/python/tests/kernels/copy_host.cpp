// A minimal SDK-style host program (mesh API) with the compiler's tilelang_tt_run entry point:
// copies tensor 0 (n bf16 values, n a multiple of 1024) into tensor 1 with kernel_dir/dram_copy.cpp.
// main() runs the same copy on a ramp and returns 0 when the copy is exact. COPY_CB_FORMAT (default
// Float16_b) is the circular buffer's tt::DataFormat.
#include <tt-metalium/distributed.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#ifndef COPY_CB_FORMAT
#define COPY_CB_FORMAT Float16_b
#endif

using namespace tt::tt_metal;

namespace {

constexpr uint32_t kPageSize = 2048;

std::vector<uint16_t> copy_on_device(const std::string& kernel_dir, const std::vector<uint16_t>& input) {
    auto mesh_device = distributed::MeshDevice::create_unit_mesh(0);
    distributed::MeshCommandQueue& cq = mesh_device->mesh_command_queue();
    const uint32_t bytes = input.size() * sizeof(uint16_t);
    const distributed::DeviceLocalBufferConfig dram{.page_size = kPageSize, .buffer_type = BufferType::DRAM};
    const distributed::ReplicatedBufferConfig size{.size = bytes};
    auto src = distributed::MeshBuffer::create(size, dram, mesh_device.get());
    auto dst = distributed::MeshBuffer::create(size, dram, mesh_device.get());
    distributed::EnqueueWriteMeshBuffer(cq, src, input, false);

    Program program = CreateProgram();
    const CoreCoord core{0, 0};
    CreateCircularBuffer(program, core,
                         CircularBufferConfig(2 * kPageSize, {{tt::CBIndex::c_0, tt::DataFormat::COPY_CB_FORMAT}})
                             .set_page_size(tt::CBIndex::c_0, kPageSize));
    std::vector<uint32_t> compile_args;
    TensorAccessorArgs(*src).append_to(compile_args);
    TensorAccessorArgs(*dst).append_to(compile_args);
    const KernelHandle copy = CreateKernel(
        program, kernel_dir + "/dram_copy.cpp", core,
        DataMovementConfig{
            .processor = DataMovementProcessor::RISCV_0, .noc = NOC::RISCV_0_default, .compile_args = compile_args});
    SetRuntimeArgs(
        program, copy, core,
        {static_cast<uint32_t>(src->address()), static_cast<uint32_t>(dst->address()), bytes / kPageSize, kPageSize});

    distributed::MeshWorkload workload;
    workload.add_program(distributed::MeshCoordinateRange(mesh_device->shape()), std::move(program));
    distributed::EnqueueMeshWorkload(cq, workload, false);
    std::vector<uint16_t> output;
    distributed::EnqueueReadMeshBuffer(cq, output, dst, true);
    mesh_device->close();
    return output;
}

}  // namespace

extern "C" void tilelang_tt_run(const char* kernel_dir, void* const* tensors, int num_tensors,
                                const uint32_t* /*sizes*/, int /*num_sizes*/) {
    TT_FATAL(num_tensors == 2, "copy_host expects 2 tensors, got {}", num_tensors);
    std::vector<uint16_t> input(static_cast<const uint16_t*>(tensors[0]),
                                static_cast<const uint16_t*>(tensors[0]) + COPY_ELEMENTS);
    const std::vector<uint16_t> output = copy_on_device(kernel_dir, input);
    std::memcpy(tensors[1], output.data(), output.size() * sizeof(uint16_t));
}

int main(int argc, char** argv) {
    TT_FATAL(argc == 2, "usage: {} KERNEL_DIR", argv[0]);
    std::vector<uint16_t> ramp(COPY_ELEMENTS);
    for (size_t i = 0; i < ramp.size(); ++i) {
        ramp[i] = static_cast<uint16_t>(i);
    }
    const bool exact = copy_on_device(argv[1], ramp) == ramp;
    fmt::print("copy_host: {}\n", exact ? "exact" : "MISMATCH");
    return exact ? 0 : 3;
}
