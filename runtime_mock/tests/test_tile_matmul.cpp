// The tile matrix product (runtime_mock/src/tile_matmul.hpp): every code path this CPU supports gives the
// same bits as the definition C[i][j] = fma(A[i][k], B[k][j], C[i][j]) for k = 0..31, on tiles with
// mixed signs and magnitudes, cancellation and subnormal values. Paths the CPU lacks are reported as
// skipped in the log. Kernels reach the fastest path through RuntimeFunctions::tile_matmul, and their
// matmul_tile (tt_mock_device/tile_matmul.h) transposes B when asked.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "../src/run_state.hpp"
#include "../src/tile_matmul.hpp"
#include "test_support.hpp"
#include "tt_mock_device/tile_matmul.h"

namespace {

namespace tm = tt_mock::tile_matmul;
constexpr uint32_t kDim = tm::kDim;
constexpr uint32_t kElements = kDim * kDim;

using Tile = std::vector<float>;

// Values from about 1e-40 (subnormal) to 1e3, either sign, some exact zeros.
Tile random_tile(uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> mantissa(-1.0f, 1.0f);
    std::uniform_int_distribution<int> exponent(-135, 10);
    Tile tile(kElements);
    for (float& v : tile)
        v = rng() % 16 == 0 ? 0.0f : std::ldexp(mantissa(rng), exponent(rng));
    return tile;
}

Tile reference(Tile c, const Tile& a, const Tile& b, bool transpose_b) {
    for (uint32_t i = 0; i < kDim; i++)
        for (uint32_t j = 0; j < kDim; j++)
            for (uint32_t k = 0; k < kDim; k++) {
                const float bkj = transpose_b ? b[j * kDim + k] : b[k * kDim + j];
                c[i * kDim + j] = std::fma(a[i * kDim + k], bkj, c[i * kDim + j]);
            }
    return c;
}

// The first element whose bits differ, or -1.
int first_difference(const Tile& got, const Tile& want) {
    for (uint32_t i = 0; i < kElements; i++) {
        if (std::memcmp(&got[i], &want[i], sizeof(float)) != 0)
            return int(i);
    }
    return -1;
}

void check_same_bits(const Tile& got, const Tile& want, const std::string& what) {
    const int i = first_difference(got, want);
    if (i >= 0) {
        char message[256];
        std::snprintf(message, sizeof message, "%s: C[%d][%d] is %.9g, the definition gives %.9g", what.c_str(),
                      i / int(kDim), i % int(kDim), got[i], want[i]);
        throw std::runtime_error(message);
    }
}

// The inputs of case `seed`: C starts non-zero so that accumulation into DST is covered; even seeds make
// B's rows cancel A's (large partial sums that end near zero).
struct Inputs {
    Tile a, b, c;
};

Inputs inputs(uint32_t seed) {
    Inputs in{random_tile(3 * seed), random_tile(3 * seed + 1), random_tile(3 * seed + 2)};
    if (seed % 2 == 0) {
        for (uint32_t k = 0; k < kDim / 2; k++)
            for (uint32_t j = 0; j < kDim; j++)
                in.b[(kDim - 1 - k) * kDim + j] = -in.b[k * kDim + j];
    }
    return in;
}

}  // namespace

TEST(every_supported_path_gives_the_definition_bit_for_bit) {
    int tested = 0;
    for (tm::Path path : {tm::Path::Portable, tm::Path::Avx2, tm::Path::Avx512}) {
        if (!tm::supported(path)) {
            std::printf("  %s: not supported by this CPU, skipped\n", tm::path_name(path));
            continue;
        }
        for (uint32_t seed = 0; seed < 20; seed++) {
            const Inputs in = inputs(seed);
            Tile c = in.c;
            tm::function_of(path)(c.data(), in.a.data(), in.b.data());
            check_same_bits(c, reference(in.c, in.a, in.b, false),
                            std::string(tm::path_name(path)) + " path, case " + std::to_string(seed));
        }
        std::printf("  %s: 20 cases identical to the definition\n", tm::path_name(path));
        tested++;
    }
    CHECK(tested >= 1);
}

TEST(kernels_get_the_fastest_supported_path_and_matmul_tile_transposes_b) {
    const tm::Path fastest = tm::fastest_supported_path();
    CHECK(tm::supported(fastest));
    CHECK(tm::selected() == tm::function_of(fastest));
    const tt_mock_device::RuntimeFunctions functions = tt_mock::runtime_functions();
    CHECK(functions.tile_matmul == tm::selected());
    std::printf("  selected: %s\n", tm::path_name(fastest));
    tt_mock_device::KernelContext context{};
    context.fn = &functions;
    tt_mock_device::current_context = &context;
    for (bool transpose : {false, true}) {
        const Inputs in = inputs(7);
        Tile c = in.c;
        tt_mock_device::matmul_tile(c.data(), in.a.data(), in.b.data(), transpose);
        check_same_bits(c, reference(in.c, in.a, in.b, transpose),
                        std::string("matmul_tile, transpose_b = ") + (transpose ? "true" : "false"));
    }
    tt_mock_device::current_context = nullptr;
}

int main() {
    return test::run_all();
}
