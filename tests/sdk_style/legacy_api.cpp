// The single-device API (CreateDevice, CreateBuffer, the device's command queue, detail:: helpers) and
// GetRuntimeArgs: c = a + b on 8 tiles with one core, then the same program again after redirecting
// the writer to another buffer by editing its runtime args in place. main(argv: KERNEL_DIR) returns 0
// when both results are right.
#include <tt-metalium/bfloat16.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>
#include <tt-metalium/tt_metal.hpp>

#include <cstdint>
#include <string>
#include <vector>

using namespace tt::tt_metal;

int main(int argc, char** argv) {
    TT_FATAL(argc == 2, "usage: {} KERNEL_DIR", argv[0]);
    const std::string kernels(argv[1]);
    constexpr uint32_t num_tiles = 8;
    constexpr uint32_t tile_bytes = 2048;
    IDevice* device = CreateDevice(0);
    CommandQueue& cq = device->command_queue();

    const InterleavedBufferConfig config{
        .device = device, .size = num_tiles * tile_bytes, .page_size = tile_bytes, .buffer_type = BufferType::DRAM};
    std::shared_ptr<Buffer> a = CreateBuffer(config);
    std::shared_ptr<Buffer> b = CreateBuffer(config);
    std::shared_ptr<Buffer> c = CreateBuffer(config);
    std::shared_ptr<Buffer> d = CreateBuffer(config);
    std::vector<bfloat16> a_data(num_tiles * 1024), b_data(num_tiles * 1024);
    for (size_t i = 0; i < a_data.size(); ++i) {
        a_data[i] = bfloat16(static_cast<float>(i % 64));
        b_data[i] = bfloat16(0.5f);
    }
    EnqueueWriteBuffer(cq, a, a_data, false);
    detail::WriteToBuffer(b, b_data);

    Program program = CreateProgram();
    const CoreCoord core{0, 0};
    for (tt::CBIndex cb : {tt::CBIndex::c_0, tt::CBIndex::c_1, tt::CBIndex::c_16}) {
        CreateCircularBuffer(
            program, core,
            CircularBufferConfig(2 * tile_bytes, {{cb, tt::DataFormat::Float16_b}}).set_page_size(cb, tile_bytes));
    }
    std::vector<uint32_t> reader_args = {2};
    TensorAccessorArgs(a).append_to(reader_args);
    TensorAccessorArgs(b).append_to(reader_args);
    std::vector<uint32_t> writer_args;
    TensorAccessorArgs(*c).append_to(writer_args);
    const KernelHandle reader =
        CreateKernel(program, kernels + "/dataflow/reader_tiles.cpp", core, ReaderDataMovementConfig(reader_args));
    const KernelHandle writer =
        CreateKernel(program, kernels + "/dataflow/writer_tiles.cpp", core, WriterDataMovementConfig(writer_args));
    const KernelHandle compute =
        CreateKernel(program, kernels + "/compute/eltwise_binary.cpp", core, ComputeConfig{.compile_args = {0}});
    SetRuntimeArgs(program, reader, core, {a->address(), b->address(), 0, num_tiles});
    SetRuntimeArgs(program, writer, core, {c->address(), 0, num_tiles});
    SetRuntimeArgs(program, compute, core, {num_tiles});
    EnqueueProgram(cq, program, false);
    Finish(cq);

    // Same program, output redirected through the writer's runtime args.
    GetRuntimeArgs(program, writer, core)[0] = d->address();
    detail::LaunchProgram(device, program);

    bool pass = GetRuntimeArgs(program, writer)[0][0][0] == d->address();
    for (const std::shared_ptr<Buffer>& out : {c, d}) {
        std::vector<bfloat16> result;
        if (out == c) {
            EnqueueReadBuffer(cq, out, result, true);
        } else {
            detail::ReadFromBuffer(out, result);
        }
        for (size_t i = 0; i < result.size(); ++i) {
            pass &= static_cast<float>(result[i]) == static_cast<float>(a_data[i]) + 0.5f;
        }
    }
    pass &= CloseDevice(device);
    fmt::print("legacy_api: {}\n", pass ? "pass" : "FAIL");
    return pass ? 0 : 1;
}
