// Single-core matmul throughput at one math fidelity: core (0, 0) loads A (mt x kt tiles) and B (kt x nt)
// once and computes C = A x B `passes` times from them (kernels/compute/matmul_repeat.cpp), writing every
// pass's C over the last; the host checks C. Parameters: fidelity (lofi, hifi2, hifi3, hifi4), mt, nt
// (mt * nt <= 8, what DST holds), kt, passes.
// Tile products = passes x mt x nt x kt.
#include "calibration_host.hpp"

using namespace calibration;

int main(int argc, char** argv) {
    const Params params(argc, argv, {{"fidelity", "hifi4"}, {"mt", "4"}, {"nt", "2"}, {"kt", "16"}, {"passes", "8"}});
    const MathFidelity fidelity = fidelity_named(params.text("fidelity"));
    const uint32_t Mt = params.number("mt");
    const uint32_t Nt = params.number("nt");
    const uint32_t Kt = params.number("kt");
    const uint32_t passes = params.number("passes");
    TT_FATAL(Mt * Nt >= 1 && Mt * Nt <= 8 && Kt >= 1 && passes >= 1,
             "need 1 <= mt * nt <= 8 (DST holds 8 tiles), kt >= 1 and passes >= 1");
    const uint32_t M = Mt * 32, N = Nt * 32, K = Kt * 32;

    Mesh mesh;
    const std::vector<bfloat16> a = random_bf16(size_t{M} * K, -0.5f, 0.5f, 1);
    const std::vector<bfloat16> b = random_bf16(size_t{K} * N, -0.5f, 0.5f, 2);
    BufferPtr a_buffer = upload(mesh, tilize_nfaces(a, M, K), Mt * Kt, kTileBytes);
    BufferPtr b_buffer = upload(mesh, tilize_nfaces(b, K, N), Kt * Nt, kTileBytes);
    BufferPtr c_buffer = dram_buffer(mesh, Mt * Nt, kTileBytes);

    const CoreCoord core{0, 0};
    Program program = CreateProgram();
    page_cb(program, core, tt::CBIndex::c_0, Mt * Kt);  // all of A
    page_cb(program, core, tt::CBIndex::c_1, Kt * Nt);  // all of B
    page_cb(program, core, tt::CBIndex::c_16, 2 * Mt * Nt);
    std::vector<uint32_t> reader_args = {2};
    TensorAccessorArgs(*a_buffer).append_to(reader_args);
    TensorAccessorArgs(*b_buffer).append_to(reader_args);
    const KernelHandle reader = CreateKernel(program, params.kernels() + "/dataflow/reader_tiles.cpp", core,
                                             ReaderDataMovementConfig(reader_args));
    const KernelHandle writer = CreateKernel(program, params.kernels() + "/dataflow/writer_tile_blocks.cpp", core,
                                             WriterDataMovementConfig(accessor_args({c_buffer})));
    CreateKernel(program, params.kernels() + "/compute/matmul_repeat.cpp", core,
                 ComputeConfig{.math_fidelity = fidelity, .compile_args = {Mt, Nt, Kt, passes}});
    SetRuntimeArgs(program, reader, core, {address(a_buffer), Mt * Kt, address(b_buffer), Kt * Nt});
    SetRuntimeArgs(program, writer, core, {address(c_buffer), passes, Mt * Nt, 0});
    run(mesh, std::move(program));

    fmt::print("matmul_fidelity: {} x {} x {} tiles at {}, {} passes = {} tile products\n", Mt, Nt, Kt,
               params.text("fidelity"), passes, passes * Mt * Nt * Kt);
    return check_close("matmul_fidelity", download_matrix(mesh, c_buffer, M, N), matmul_reference(a, b, M, K, N), 2e-2f,
                       3e-2f);
}
