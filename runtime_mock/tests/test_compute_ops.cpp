// The compute API beyond plain element-wise math, on one core, checked against references computed here:
// transpose_wh (on Wormhole and Blackhole), the broadcast ops, binary_dest_reuse_tiles, tilize/untilize
// and matmul_block (plain and with transposed B tiles), and the packer's L1 accumulation.
#include "test_support.hpp"

using namespace runtime_mock;
using test::allocate;
using test::check_close;
using test::download;
using test::Tensor;
using test::upload;

namespace {

constexpr LogicalCore kCore{0, 0};

KernelSpec writer(const Tensor& out) {
    return test::kernel_on("writer_unary.cpp", KernelRole::DataMovement0, kCore,
                           {tt::CBIndex::c_16, test::kDramAccessor}, {uint32_t(out.address), out.tiles});
}

KernelSpec unary_reader(const Tensor& in) {
    return test::kernel_on("reader_unary.cpp", KernelRole::DataMovement1, kCore, {test::kDramAccessor},
                           {uint32_t(in.address), in.tiles});
}

KernelSpec binary_reader(const Tensor& a, const Tensor& b) {
    return test::kernel_on("reader_binary.cpp", KernelRole::DataMovement1, kCore,
                           {test::kDramAccessor, test::kDramAccessor},
                           {uint32_t(a.address), uint32_t(b.address), a.tiles});
}

// Tile `index` of a tilized bf16 tensor as 1024 row-major floats.
std::vector<float> tile_values(const std::vector<uint16_t>& tiles, uint32_t index) {
    return test::untilize_bf16(std::vector<uint16_t>(tiles.begin() + index * 1024, tiles.begin() + (index + 1) * 1024),
                               32, 32);
}

float round_bf16(float v) {
    return test::from_bf16(test::to_bf16(v));
}

// Runs a compute kernel that reads tile pairs (a, b) and writes `outputs` tiles per pair; returns the
// output tiles.
std::vector<uint16_t> run_pairwise(const std::string& kernel, const std::vector<uint16_t>& a,
                                   const std::vector<uint16_t>& b, uint32_t outputs) {
    Device device;
    const Tensor ta = upload(device, a), tb = upload(device, b);
    const Tensor out = allocate(device, ta.tiles * outputs);
    ProgramSpec program;
    program.kernels = {binary_reader(ta, tb), test::kernel_on(kernel, KernelRole::Compute, kCore, {ta.tiles}, {}),
                       writer(out)};
    program.circular_buffers = {test::bf16_cb(0, 2, {kCore}), test::bf16_cb(1, 2, {kCore}),
                                test::bf16_cb(16, outputs, {kCore})};
    device.run(program);
    return download(device, out);
}

}  // namespace

TEST(transpose_wh_on_wormhole_and_blackhole) {
    constexpr uint32_t R = 64, C = 32, tiles = R * C / 1024;
    const auto x = test::random_values(R * C, -2, 2, 11);
    for (const Arch arch : {Arch::Wormhole, Arch::Blackhole}) {
        Device device(arch);
        const Tensor in = upload(device, test::tilize_bf16(x, R, C)), out = allocate(device, tiles);
        ProgramSpec program;
        program.kernels = {unary_reader(in),
                           test::kernel_on("compute_transpose.cpp", KernelRole::Compute, kCore, {tiles}, {}),
                           writer(out)};
        program.circular_buffers = {test::bf16_cb(0, 2, {kCore}), test::bf16_cb(16, 2, {kCore})};
        device.run(program);
        const std::vector<uint16_t> got = download(device, out);
        std::vector<float> got_values, want;
        for (uint32_t t = 0; t < tiles; t++) {
            const std::vector<float> tile = tile_values(got, t);
            got_values.insert(got_values.end(), tile.begin(), tile.end());
            for (uint32_t r = 0; r < 32; r++)
                for (uint32_t c = 0; c < 32; c++)
                    want.push_back(x[(t * 32 + c) * C + r]);
        }
        check_close(got_values, want, 0.0f);
    }
}

TEST(broadcast_rows_cols_scalar) {
    constexpr uint32_t R = 64, C = 64, tiles = R * C / 1024;
    const auto a = test::random_values(R * C, -4, 4, 12), b = test::random_values(R * C, -4, 4, 13);
    const std::vector<uint16_t> ta = test::tilize_bf16(a, R, C), tb = test::tilize_bf16(b, R, C);
    const std::vector<uint16_t> got = run_pairwise("compute_bcast.cpp", ta, tb, 9);
    // Output k of a pair is op k / 3 (add, sub, mul) with broadcast k % 3 (rows, cols, scalar): B's first
    // row, first column, or [0][0]; the rest of the B tile must be ignored.
    float (*const ops[])(float, float) = {[](float x, float y) { return x + y; },
                                          [](float x, float y) { return x - y; },
                                          [](float x, float y) { return x * y; }};
    std::vector<float> got_values, want;
    for (uint32_t t = 0; t < tiles; t++) {
        const std::vector<float> at = tile_values(ta, t), bt = tile_values(tb, t);
        for (uint32_t k = 0; k < 9; k++) {
            const std::vector<float> tile = tile_values(got, t * 9 + k);
            got_values.insert(got_values.end(), tile.begin(), tile.end());
            for (uint32_t r = 0; r < 32; r++) {
                for (uint32_t c = 0; c < 32; c++) {
                    const float bv = k % 3 == 0 ? bt[c] : k % 3 == 1 ? bt[r * 32] : bt[0];
                    want.push_back(round_bf16(ops[k / 3](at[r * 32 + c], bv)));
                }
            }
        }
    }
    check_close(got_values, want, 0.0f);
}

TEST(binary_dest_reuse_srca_and_srcb) {
    constexpr uint32_t R = 32, C = 64, tiles = R * C / 1024;
    const auto a = test::random_values(R * C, -4, 4, 14), b = test::random_values(R * C, -4, 4, 15);
    const std::vector<uint16_t> got =
        run_pairwise("compute_dest_reuse.cpp", test::tilize_bf16(a, R, C), test::tilize_bf16(b, R, C), 3);
    // Outputs per pair: a - b (DST as SRCA), b - a (DST as SRCB), a * b; DST was loaded with a.
    std::vector<float> got_values, want;
    for (uint32_t t = 0; t < tiles; t++) {
        for (uint32_t k = 0; k < 3; k++) {
            const std::vector<float> tile = tile_values(got, t * 3 + k);
            got_values.insert(got_values.end(), tile.begin(), tile.end());
            for (uint32_t r = 0; r < 32; r++) {
                for (uint32_t c = 0; c < 32; c++) {
                    const float x = a[r * C + t * 32 + c], y = b[r * C + t * 32 + c];
                    want.push_back(round_bf16(k == 0 ? x - y : k == 1 ? y - x : x * y));
                }
            }
        }
    }
    check_close(got_values, want, 0.0f);
}

TEST(tilize_and_untilize_blocks) {
    constexpr uint32_t R = 64, C = 96, rows = R / 32, width = C / 32;
    const auto x = test::random_values(R * C, -2, 2, 16);
    std::vector<uint16_t> row_major(R * C);
    for (size_t i = 0; i < row_major.size(); i++)
        row_major[i] = test::to_bf16(x[i]);
    for (const bool untilize : {false, true}) {
        Device device;
        // A stripe of 32 rows is `width` consecutive 1024-element pages of the row-major tensor.
        const Tensor in = upload(device, untilize ? test::tilize_bf16(x, R, C) : row_major);
        const Tensor out = allocate(device, rows * width);
        ProgramSpec program;
        program.kernels = {
            unary_reader(in),
            test::kernel_on("compute_layout.cpp", KernelRole::Compute, kCore, {rows, width, uint32_t(untilize)}, {}),
            writer(out)};
        program.circular_buffers = {test::bf16_cb(0, 2 * width, {kCore}), test::bf16_cb(16, 2 * width, {kCore})};
        device.run(program);
        const std::vector<uint16_t> got = download(device, out);
        if (untilize) {
            CHECK(got == row_major);
        } else {
            check_close(test::untilize_bf16(got, R, C), x, 0.0f);
        }
    }
}

TEST(matmul_block_plain_and_transposed) {
    constexpr uint32_t Mt = 2, Kt = 3, Nt = 3, M = Mt * 32, K = Kt * 32, N = Nt * 32;
    const auto a = test::random_values(M * K, -1, 1, 17), b = test::random_values(K * N, -1, 1, 18);
    std::vector<float> want(M * N, 0.0f);
    for (uint32_t i = 0; i < M; i++)
        for (uint32_t k = 0; k < K; k++)
            for (uint32_t j = 0; j < N; j++)
                want[i * N + j] += a[i * K + k] * b[k * N + j];
    // B with every 32x32 tile transposed in place: what matmul_block with transpose=1 expects.
    std::vector<float> b_tiles_transposed(K * N);
    for (uint32_t r = 0; r < K; r++)
        for (uint32_t c = 0; c < N; c++)
            b_tiles_transposed[r * N + c] = b[(r / 32 * 32 + c % 32) * N + c / 32 * 32 + r % 32];
    for (const bool transpose : {false, true}) {
        Device device;
        const Tensor ta = upload(device, test::tilize_bf16(a, M, K));
        const Tensor tb = upload(device, test::tilize_bf16(transpose ? b_tiles_transposed : b, K, N));
        const Tensor out = allocate(device, Mt * Nt);
        KernelSpec compute = test::kernel_on("compute_matmul_block.cpp", KernelRole::Compute, kCore, {Mt, Kt, Nt}, {});
        compute.defines = {{"TRANSPOSE_B", transpose ? "1" : "0"}};
        ProgramSpec program;
        program.kernels = {test::kernel_on("reader_blocks.cpp", KernelRole::DataMovement1, kCore,
                                           {test::kDramAccessor, test::kDramAccessor},
                                           {uint32_t(ta.address), ta.tiles, uint32_t(tb.address), tb.tiles}),
                           compute, writer(out)};
        program.circular_buffers = {test::bf16_cb(0, Mt * Kt, {kCore}), test::bf16_cb(1, Kt * Nt, {kCore}),
                                    test::bf16_cb(16, Mt * Nt, {kCore})};
        device.run(program);
        check_close(test::untilize_bf16(download(device, out), M, N), want, 0.02f);
    }
}

TEST(pack_l1_acc_adds_to_the_page_in_l1) {
    constexpr uint32_t tiles = 5;
    const auto x = test::random_values(tiles * 1024, -2, 2, 23);
    std::vector<float> want(1024, 0.0f);
    for (uint32_t t = 0; t < tiles; t++)
        for (uint32_t i = 0; i < 1024; i++)
            want[i] += round_bf16(x[t * 1024 + i]);  // the inputs are bf16; the sums float32
    for (float& v : want)
        v = round_bf16(v);
    Device device;
    const Tensor in = upload(device, test::tilize_bf16(x, tiles * 32, 32)), out = allocate(device, 1);
    runtime_mock::CircularBufferSpec sums;
    sums.cores = {kCore};
    sums.total_size = 4096;
    sums.indices = {{24, runtime_mock::DataFormat::Float32, 4096}};
    ProgramSpec program;
    program.kernels = {unary_reader(in),
                       test::kernel_on("compute_pack_l1_acc.cpp", KernelRole::Compute, kCore, {tiles}, {}),
                       writer(out)};
    program.circular_buffers = {test::bf16_cb(0, 2, {kCore}), sums, test::bf16_cb(16, 1, {kCore})};
    device.run(program);
    check_close(tile_values(download(device, out), 0), want, 0.0f);
}

int main() {
    return test::run_all();
}
