// A compute kernel written with only the released SDK's compute API (tt-metal 0.81: api/compute/ paths and
// names), on one core, checked against a reference computed here: matmul_block, add_tiles,
// add_tiles_bcast_rows and transpose_tile in one kernel (kernels/compute_released_api.cpp).
#include "test_support.hpp"

using namespace runtime_mock;

TEST(matmul_add_bcast_transpose) {
    constexpr LogicalCore core{0, 0};
    constexpr uint32_t Mt = 2, Kt = 3, Nt = 3, M = Mt * 32, K = Kt * 32, N = Nt * 32;
    const auto a = test::random_values(M * K, -1, 1, 21), b = test::random_values(K * N, -1, 1, 22);
    const auto c = test::random_values(M * N, -1, 1, 23), bias = test::random_values(32 * N, -1, 1, 24);
    // want = (A @ B + C + bias[0][:] on every row)^T, N x M.
    std::vector<float> want(N * M);
    for (uint32_t i = 0; i < M; i++) {
        for (uint32_t j = 0; j < N; j++) {
            float sum = c[i * N + j] + bias[j];
            for (uint32_t k = 0; k < K; k++)
                sum += a[i * K + k] * b[k * N + j];
            want[j * M + i] = sum;
        }
    }

    Device device;
    const test::Tensor ta = test::upload(device, test::tilize_bf16(a, M, K));
    const test::Tensor tb = test::upload(device, test::tilize_bf16(b, K, N));
    const test::Tensor tc = test::upload(device, test::tilize_bf16(c, M, N));
    const test::Tensor tbias = test::upload(device, test::tilize_bf16(bias, 32, N));
    const test::Tensor out = test::allocate(device, Mt * Nt);
    // The reader fills c_0..c_3 with A, B, C and bias: runtime args are the count, then address and tiles of each.
    std::vector<uint32_t> inputs = {4};
    for (const test::Tensor& tensor : {ta, tb, tc, tbias})
        inputs.insert(inputs.end(), {uint32_t(tensor.address), tensor.tiles});
    ProgramSpec program;
    program.kernels = {
        test::kernel_on("reader_tensors.cpp", KernelRole::DataMovement1, core, {test::kDramAccessor}, inputs),
        test::kernel_on("compute_released_api.cpp", KernelRole::Compute, core, {Mt, Kt, Nt}, {}),
        test::kernel_on("writer_unary.cpp", KernelRole::DataMovement0, core, {tt::CBIndex::c_16, test::kDramAccessor},
                        {uint32_t(out.address), out.tiles})};
    program.circular_buffers = {test::bf16_cb(0, Mt * Kt, {core}),  test::bf16_cb(1, Kt * Nt, {core}),
                                test::bf16_cb(2, Mt * Nt, {core}),  test::bf16_cb(3, Nt, {core}),
                                test::bf16_cb(16, Mt * Nt, {core}), test::bf16_cb(24, Mt * Nt, {core}),
                                test::bf16_cb(25, Mt * Nt, {core}), test::bf16_cb(26, Mt * Nt, {core})};
    device.run(program);
    test::check_close(test::untilize_bf16(test::download(device, out), N, M), want, 0.03f);
}

int main() {
    return test::run_all();
}
