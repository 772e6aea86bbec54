// SFPU op chain throughput: core (0, 0) streams `tiles` tiles of x from DRAM through
// kernels/compute/sfpu_chain.cpp (exp, then recip, then sqrt: exp(-x / 2); with exp_only=1, exp alone),
// each tile `repeats` times over, and back to DRAM; the host checks every value.
// Parameters: tiles, repeats, exp_only.
#include "calibration_host.hpp"

using namespace calibration;

int main(int argc, char** argv) {
    const Params params(argc, argv, {{"tiles", "64"}, {"repeats", "1"}, {"exp_only", "0"}});
    const uint32_t num_tiles = params.number("tiles");
    const uint32_t repeats = params.number("repeats");
    const bool exp_only = params.number("exp_only") == 1;
    TT_FATAL(num_tiles >= 1 && repeats >= 1, "tiles and repeats must be at least 1");
    const uint32_t rows = 32, cols = 32 * num_tiles;

    Mesh mesh;
    const std::vector<bfloat16> x = random_bf16(size_t{rows} * cols, -2.0f, 2.0f, 3);
    BufferPtr x_buffer = upload(mesh, tilize_nfaces(x, rows, cols), num_tiles, kTileBytes);
    BufferPtr y_buffer = dram_buffer(mesh, num_tiles, kTileBytes);

    const CoreCoord core{0, 0};
    Program program = CreateProgram();
    page_cb(program, core, tt::CBIndex::c_0, 2);  // double-buffered
    page_cb(program, core, tt::CBIndex::c_16, 2);
    std::vector<uint32_t> reader_args = {1};
    TensorAccessorArgs(*x_buffer).append_to(reader_args);
    const KernelHandle reader = CreateKernel(program, params.kernels() + "/dataflow/reader_tiles.cpp", core,
                                             ReaderDataMovementConfig(reader_args));
    const KernelHandle writer = CreateKernel(program, params.kernels() + "/dataflow/writer_tile_blocks.cpp", core,
                                             WriterDataMovementConfig(accessor_args({y_buffer})));
    CreateKernel(program, params.kernels() + "/compute/sfpu_chain.cpp", core,
                 ComputeConfig{.compile_args = {num_tiles, repeats, exp_only ? 1u : 0u}});
    SetRuntimeArgs(program, reader, core, {address(x_buffer), num_tiles});
    SetRuntimeArgs(program, writer, core, {address(y_buffer), num_tiles, 1, 1});
    run(mesh, std::move(program));

    std::vector<float> want(x.size());
    for (size_t i = 0; i < x.size(); ++i) {
        want[i] = std::exp(exp_only ? static_cast<float>(x[i]) : -static_cast<float>(x[i]) / 2);
    }
    fmt::print("sfpu_chain: {} tiles of {}, {} times each\n", num_tiles, exp_only ? "exp" : "exp, recip, sqrt",
               repeats);
    return check_close("sfpu_chain", download_matrix(mesh, y_buffer, rows, cols), want, 2e-2f, 1e-2f);
}
