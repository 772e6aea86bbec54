// An SDK-style host program (mesh API) that runs the crashing kernel runtime_mock/tests/kernels/faulting.cpp
// on core (0,0) with the crash its second argument names: main(FAULTING_KERNEL_PATH, FAULT) defines
// FAULT_<FAULT>. The kernel fault escapes main as runtime_mock::KernelFaultError.
#include <tt-metalium/distributed.hpp>
#include <tt-metalium/host_api.hpp>

#include <cstdint>
#include <string>

using namespace tt::tt_metal;

int main(int argc, char** argv) {
    TT_FATAL(argc == 3, "usage: {} FAULTING_KERNEL FAULT", argv[0]);
    auto mesh_device = distributed::MeshDevice::create_unit_mesh(0);
    constexpr uint32_t kPageSize = 2048;
    constexpr uint32_t kRecursionDepth = 1u << 30;

    Program program = CreateProgram();
    const CoreCoord core{0, 0};
    CreateCircularBuffer(program, core,
                         CircularBufferConfig(2 * kPageSize, {{tt::CBIndex::c_0, tt::DataFormat::Float16_b}})
                             .set_page_size(tt::CBIndex::c_0, kPageSize));
    CreateSemaphore(program, core, 0);
    const KernelHandle kernel = CreateKernel(program, argv[1], core,
                                             DataMovementConfig{.processor = DataMovementProcessor::RISCV_1,
                                                                .noc = NOC::RISCV_1_default,
                                                                .defines = {{std::string("FAULT_") + argv[2], "1"}}});
    // Runtime args: a zero the kernel's compiler cannot see, and the recursion depth of STACK_OVERFLOW.
    SetRuntimeArgs(program, kernel, core, {0u, kRecursionDepth});

    distributed::MeshWorkload workload;
    workload.add_program(distributed::MeshCoordinateRange(mesh_device->shape()), std::move(program));
    distributed::EnqueueMeshWorkload(mesh_device->mesh_command_queue(), workload, true);
    mesh_device->close();
    fmt::print("faulting_host: {} did not fault\n", argv[2]);
    return 0;
}
