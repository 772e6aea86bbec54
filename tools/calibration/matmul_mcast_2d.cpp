// 2-D multicast matmul, C = A x B in bf16, blocked as the SDK's matmul_multicore_reuse_mcast example: the
// grid_x x grid_y cores each compute a per_core_M x per_core_N block of C (core (x, y): tile rows from
// y * per_core_M, columns from x * per_core_N), walking K in blocks of in0_block_w tiles. Column 0 reads A
// from DRAM and multicasts each A block along its row (kernels/dataflow/reader_in0_mcast.cpp); row 0
// reads B and multicasts each B block down its column, and every core writes its C
// (kernels/dataflow/reader_in1_mcast_writer.cpp); semaphores pace the hand-shake (mcast_block.hpp); the
// compute kernel works in out subblocks chosen as the SDK does (kernels/compute/matmul_mcast_blocks.cpp).
// The host checks C against an fp32 reference: every element, or 65536 sampled ones when M*N*K > 2^30.
// Parameters: m, k, n (multiples of 32, m and n divisible into the grid), grid_x, grid_y (default: the
// device's grid), in0_block_w, fidelity.
#include "calibration_host.hpp"

using namespace calibration;

namespace {

// The out subblock (h, w) of the SDK's matmul examples: the first of these that divides the core's block.
std::pair<uint32_t, uint32_t> out_subblock(uint32_t per_core_M, uint32_t per_core_N) {
    constexpr std::pair<uint32_t, uint32_t> choices[] = {{4, 2}, {2, 4}, {8, 1}, {1, 8}, {7, 1}, {1, 7}, {3, 2},
                                                         {2, 3}, {6, 1}, {1, 6}, {5, 1}, {1, 5}, {2, 2}, {4, 1},
                                                         {1, 4}, {3, 1}, {1, 3}, {2, 1}, {1, 2}, {1, 1}};
    for (const auto& [h, w] : choices) {
        if (per_core_M % h == 0 && per_core_N % w == 0) {
            return {h, w};
        }
    }
    return {1, 1};
}

// `count` row-major indices of elements of an m x n matrix, drawn with a fixed seed.
std::vector<size_t> sampled_elements(uint32_t m, uint32_t n, size_t count) {
    std::vector<size_t> elements;
    std::mt19937 random(5);
    for (size_t s = 0; s < count; ++s) {
        elements.push_back(random() % (size_t{m} * n));
    }
    return elements;
}

}  // namespace

int main(int argc, char** argv) {
    Mesh mesh;
    const CoreCoord device_grid = mesh.grid();
    const Params params(argc, argv,
                        {{"m", "4096"},
                         {"k", "4096"},
                         {"n", "4096"},
                         {"grid_x", std::to_string(device_grid.x)},
                         {"grid_y", std::to_string(device_grid.y)},
                         {"in0_block_w", "4"},
                         {"fidelity", "hifi4"}});
    const uint32_t M = params.number("m"), K = params.number("k"), N = params.number("n");
    const uint32_t grid_x = params.number("grid_x"), grid_y = params.number("grid_y");
    const uint32_t in0_block_w = params.number("in0_block_w");
    const MathFidelity fidelity = fidelity_named(params.text("fidelity"));
    TT_FATAL(grid_x >= 1 && grid_y >= 1 && grid_x <= device_grid.x && grid_y <= device_grid.y,
             "grid {}x{} does not fit the device's {}x{}", grid_x, grid_y, device_grid.x, device_grid.y);
    TT_FATAL(M % 32 == 0 && K % 32 == 0 && N % 32 == 0, "m, k, n must be multiples of 32");
    const uint32_t Mt = M / 32, Kt = K / 32, Nt = N / 32;
    TT_FATAL(Mt % grid_y == 0 && Nt % grid_x == 0, "{} tile rows / {} tile columns do not split over a {}x{} grid", Mt,
             Nt, grid_x, grid_y);
    TT_FATAL(in0_block_w >= 1 && Kt % in0_block_w == 0, "Kt = {} is not a multiple of in0_block_w = {}", Kt,
             in0_block_w);
    const uint32_t per_core_M = Mt / grid_y, per_core_N = Nt / grid_x;
    const uint32_t num_blocks = Kt / in0_block_w;
    const auto [subblock_h, subblock_w] = out_subblock(per_core_M, per_core_N);

    const std::vector<bfloat16> a = random_bf16(size_t{M} * K, -0.5f, 0.5f, 1);
    const std::vector<bfloat16> b = random_bf16(size_t{K} * N, -0.5f, 0.5f, 2);
    BufferPtr a_buffer = upload(mesh, tilize_nfaces(a, M, K), Mt * Kt, kTileBytes);
    BufferPtr b_buffer = upload(mesh, tilize_nfaces(b, K, N), Kt * Nt, kTileBytes);
    BufferPtr c_buffer = dram_buffer(mesh, Mt * Nt, kTileBytes);

    Program program = CreateProgram();
    const CoreRange cores({0, 0}, {grid_x - 1, grid_y - 1});
    page_cb(program, cores, tt::CBIndex::c_0, 2 * per_core_M * in0_block_w);  // double-buffered A blocks
    page_cb(program, cores, tt::CBIndex::c_1, 2 * in0_block_w * per_core_N);  // double-buffered B blocks
    // C and its partial sums share one block of L1.
    CreateCircularBuffer(
        program, cores,
        CircularBufferConfig(per_core_M * per_core_N * kTileBytes, {{tt::CBIndex::c_16, tt::DataFormat::Float16_b},
                                                                    {tt::CBIndex::c_24, tt::DataFormat::Float16_b}})
            .set_page_size(tt::CBIndex::c_16, kTileBytes)
            .set_page_size(tt::CBIndex::c_24, kTileBytes));
    const uint32_t in0_sender_sem = CreateSemaphore(program, cores, INVALID);
    const uint32_t in0_receiver_sem = CreateSemaphore(program, cores, INVALID);
    const uint32_t in1_sender_sem = CreateSemaphore(program, cores, INVALID);
    const uint32_t in1_receiver_sem = CreateSemaphore(program, cores, INVALID);

    // A readers: senders in column 0, receivers elsewhere; B readers and C writers: senders in row 0.
    const std::string dataflow = params.kernels() + "/dataflow/";
    auto in0_reader = [&](const CoreRange& group, bool sender) {
        std::vector<uint32_t> args = {sender};
        TensorAccessorArgs(*a_buffer).append_to(args);
        return CreateKernel(
            program, dataflow + "reader_in0_mcast.cpp", group,
            DataMovementConfig{
                .processor = DataMovementProcessor::RISCV_1, .noc = NOC::RISCV_1_default, .compile_args = args});
    };
    auto in1_reader = [&](const CoreRange& group, bool sender) {
        std::vector<uint32_t> args = {sender};
        TensorAccessorArgs(*b_buffer).append_to(args);
        TensorAccessorArgs(*c_buffer).append_to(args);
        return CreateKernel(
            program, dataflow + "reader_in1_mcast_writer.cpp", group,
            DataMovementConfig{
                .processor = DataMovementProcessor::RISCV_0, .noc = NOC::RISCV_0_default, .compile_args = args});
    };
    const KernelHandle in0_sender = in0_reader(CoreRange({0, 0}, {0, grid_y - 1}), true);
    const KernelHandle in1_sender = in1_reader(CoreRange({0, 0}, {grid_x - 1, 0}), true);
    std::optional<KernelHandle> in0_receiver, in1_receiver;
    if (grid_x > 1) {
        in0_receiver = in0_reader(CoreRange({1, 0}, {grid_x - 1, grid_y - 1}), false);
    }
    if (grid_y > 1) {
        in1_receiver = in1_reader(CoreRange({0, 1}, {grid_x - 1, grid_y - 1}), false);
    }
    CreateKernel(program, params.kernels() + "/compute/matmul_mcast_blocks.cpp", cores,
                 ComputeConfig{.math_fidelity = fidelity,
                               .compile_args = {in0_block_w, per_core_M / subblock_h, per_core_N / subblock_w,
                                                num_blocks, subblock_h, subblock_w}});

    for (const CoreCoord& core : cores) {
        const uint32_t x = core.x, y = core.y;
        const uint32_t m0 = y * per_core_M, n0 = x * per_core_N;
        // A: (0, y) multicasts to (1 .. grid_x - 1, y) on NOC 0, whose rectangles run from the low corner.
        const CoreCoord in0_from = mesh.noc({0, y});
        const CoreCoord in0_first = mesh.noc({std::min(1u, grid_x - 1), y});
        const CoreCoord in0_last = mesh.noc({grid_x - 1, y});
        std::vector<uint32_t> in0_args = {address(a_buffer), Kt,         m0,         per_core_M,     in0_block_w,
                                          num_blocks,        in0_from.x, in0_from.y, in0_first.x,    in0_first.y,
                                          in0_last.x,        in0_last.y, grid_x - 1, in0_sender_sem, in0_receiver_sem};
        SetRuntimeArgs(program, x == 0 ? in0_sender : *in0_receiver, core, in0_args);
        // B: (x, 0) multicasts to (x, 1 .. grid_y - 1) on NOC 1, whose rectangles run from the high corner.
        const CoreCoord in1_from = mesh.noc({x, 0});
        const CoreCoord in1_first = mesh.noc({x, grid_y - 1});
        const CoreCoord in1_last = mesh.noc({x, std::min(1u, grid_y - 1)});
        std::vector<uint32_t> in1_args = {address(b_buffer), Nt,         n0,         per_core_N,     in0_block_w,
                                          num_blocks,        in1_from.x, in1_from.y, in1_first.x,    in1_first.y,
                                          in1_last.x,        in1_last.y, grid_y - 1, in1_sender_sem, in1_receiver_sem,
                                          address(c_buffer), m0,         per_core_M, subblock_h,     subblock_w};
        SetRuntimeArgs(program, y == 0 ? in1_sender : *in1_receiver, core, in1_args);
    }
    run(mesh, std::move(program));

    fmt::print("matmul_mcast_2d: {}x{}x{} on {}x{} cores, per core {}x{} tiles, in0_block_w {}, subblock {}x{}, {}\n",
               M, K, N, grid_x, grid_y, per_core_M, per_core_N, in0_block_w, subblock_h, subblock_w,
               params.text("fidelity"));
    const std::vector<float> c = download_matrix(mesh, c_buffer, M, N);
    std::vector<float> got, want;
    if (uint64_t{M} * N * K <= (uint64_t{1} << 30)) {
        got = c;
        want = matmul_reference(a, b, M, K, N);
    } else {
        for (const size_t element : sampled_elements(M, N, 65536)) {
            const size_t i = element / N, j = element % N;
            float sum = 0.0f;
            for (uint32_t p = 0; p < K; ++p) {
                sum += static_cast<float>(a[i * K + p]) * static_cast<float>(b[size_t{p} * N + j]);
            }
            got.push_back(c[element]);
            want.push_back(sum);
        }
    }
    // The partial sums are rounded to bf16 (relative error up to 2^-9) after each of num_blocks blocks: allow
    // five standard deviations of that random walk, at the scale (rms) of C.
    double square_sum = 0;
    for (const float value : want) {
        square_sum += double{value} * value;
    }
    const float rms = static_cast<float>(std::sqrt(square_sum / want.size()));
    const float atol = 5.0f * std::ldexp(1.0f, -9) * rms * std::sqrt(static_cast<float>(num_blocks));
    return check_close(got.size() == c.size() ? "matmul_mcast_2d" : "matmul_mcast_2d (65536 sampled elements)", got,
                       want, 2e-2f, atol);
}
