// The tile matrix product (runtime_mock/src/tile_matmul.hpp), both forms, every code path this CPU supports:
// - fp32: the same bits as the definition C[i][j] = fma(A[i][k], B[k][j], C[i][j]) for k = 0..31, on tiles
//   with mixed signs and magnitudes, cancellation and subnormal values;
// - bf16 (Float16_b tiles in L1 layout): each rule of the definition (k in pairs, odd first; subnormal inputs
//   read as zero; results tiny after rounding flushed; NaN results quiet) on hand-made cases, then the same
//   bits as the definition computed one element at a time with the CPU's own scalar FMA under MXCSR DAZ | FTZ,
//   on random tiles (wide magnitudes; products near the flush threshold; inf, NaN, huge and subnormal values),
//   blocks of several tiles, with and without transposed B; and end to end, a compute kernel's matmul_tiles
//   and matmul_block on bf16 CBs (DST packed to a Float32 CB) giving the definition's bits.
// Paths the CPU lacks are reported as skipped in the log. Kernels reach the fastest path through
// RuntimeFunctions, and their matmul_tile (runtime_mock/kernel_abi/tile_matmul.h) transposes B when asked.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "../src/scheduler.hpp"
#include "../src/tile_matmul.hpp"
#include "test_support.hpp"
#include "runtime_mock/kernel_abi/tile_matmul.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace {

namespace tm = runtime_mock::tile_matmul;
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

TEST(fp32_every_supported_path_gives_the_definition_bit_for_bit) {
    int tested = 0;
    for (tm::Path path : tm::kAllPaths) {
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
    const runtime_mock::kernel_abi::RuntimeFunctions functions = runtime_mock::runtime_functions(false);
    CHECK(functions.tile_matmul == tm::selected());
    CHECK(functions.tile_matmul_bf16 == tm::bf16_selected());
    std::printf("  selected: %s\n", tm::path_name(fastest));
    runtime_mock::kernel_abi::KernelContext context{};
    context.fn = &functions;
    runtime_mock::kernel_abi::current_context = &context;
    for (bool transpose : {false, true}) {
        const Inputs in = inputs(7);
        Tile c = in.c;
        runtime_mock::kernel_abi::matmul_tile(c.data(), in.a.data(), in.b.data(), transpose);
        check_same_bits(c, reference(in.c, in.a, in.b, transpose),
                        std::string("matmul_tile, transpose_b = ") + (transpose ? "true" : "false"));
    }
    runtime_mock::kernel_abi::current_context = nullptr;
}

// ---- bf16 tiles in L1 layout ----------------------------------------------------------------------------------

namespace {

using Bf16Tile = std::vector<uint16_t>;  // 1024 bf16 values in L1 tile layout (four 16x16 faces)

uint32_t tile_offset(uint32_t row, uint32_t col) {
    return ((row / 16) * 2 + col / 16) * 256 + (row % 16) * 16 + col % 16;
}

uint32_t bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

float value(uint32_t u) {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

uint16_t bf16_bits(float f) {
    const uint32_t u = bits(f);
    if ((u & 0xffffu) != 0)
        throw std::logic_error("test value " + std::to_string(f) + " is not a bf16 value");
    return uint16_t(u >> 16);
}

#if defined(__x86_64__)

// Runs `body` with MXCSR's DAZ and FTZ bits set. The asm statements clobber memory, so the body's loads and
// stores stay between them.
template <typename Body>
void with_daz_ftz(Body body) {
    uint32_t saved;
    asm volatile("stmxcsr %0" : "=m"(saved) : : "memory");
    const uint32_t flushing = saved | (1u << 6) | (1u << 15);
    asm volatile("ldmxcsr %0" : : "m"(flushing) : "memory");
    body();
    asm volatile("ldmxcsr %0" : : "m"(saved) : "memory");
}

__attribute__((target("fma"))) float scalar_fma(float a, float b, float c) {
    return _mm_cvtss_f32(_mm_fmadd_ss(_mm_set_ss(a), _mm_set_ss(b), _mm_set_ss(c)));
}

// The bf16 definition, one element at a time with the CPU's scalar FMA under DAZ | FTZ (the hardware's own
// flushing, independent of how the paths honour it): C[i][j] += A[i][31] * B[31][j] + A[i][30] * B[30][j] ...
// pairs p = 0..15, odd k first; NaN results written as 0x7fc00000.
Tile definition_bf16(Tile c, const Bf16Tile& a, const Bf16Tile& b, bool transpose_b) {
    const auto element = [](const Bf16Tile& tile, uint32_t row, uint32_t col) {
        return value(uint32_t(tile[tile_offset(row, col)]) << 16);
    };
    with_daz_ftz([&] {
        for (uint32_t i = 0; i < kDim; i++) {
            for (uint32_t j = 0; j < kDim; j++) {
                float acc = c[i * kDim + j];
                for (uint32_t step = 0; step < kDim; step++) {
                    const uint32_t k = step ^ 1u;
                    const float bkj = transpose_b ? element(b, j, k) : element(b, k, j);
                    acc = scalar_fma(element(a, i, k), bkj, acc);
                }
                c[i * kDim + j] = acc;
            }
        }
    });
    for (float& v : c)
        v = std::isnan(v) ? value(0x7fc00000u) : v;
    return c;
}

#endif

// Runs the bf16 code of `path` on one tile: returns C + A * B (or A * transpose(B)).
Tile bf16_product(tm::Path path, Tile c, const Bf16Tile& a, const Bf16Tile& b, bool transpose_b) {
    const uint16_t* a_tiles[] = {a.data()};
    const uint16_t* b_tiles[] = {b.data()};
    tm::bf16_function_of(path)(c.data(), a_tiles, 1, b_tiles, 1, transpose_b);
    return c;
}

// One rule of the definition on one element: C[0][0] starts at c, A[0][30], A[0][31], B[30][0], B[31][0] as
// given (the last pair of the order: k = 31, then 30), everything else zero; C[0][0] must end as `want`.
struct Rule {
    const char* what;
    float c;
    float a30, a31, b30, b31;
    uint32_t want;
    uint16_t raw_a30 = 0;  // when nonzero: A[0][30]'s bits instead of a30 (subnormals, NaN payloads)
};

std::vector<Rule> rules() {
    const float x = 1.5f * 0x1p-75f;
    return {
        {"pairs, odd k first: 1 + (-1 * 1) then + 2^-30", 1.0f, 0x1p-30f, -1.0f, 1.0f, 1.0f, bits(0x1p-30f)},
        {"each step rounds: 1 + 2^-24 + 2^-24 stays 1", 1.0f, 0x1p-24f, 0x1p-24f, 1.0f, 1.0f, bits(1.0f)},
        {"rounding is to nearest even: (1 + 2^-23) + 2^-24", 1.0f + 0x1p-23f, 0x1p-24f, 0, 1.0f, 0,
         bits(1.0f + 0x1p-22f)},
        {"subnormal A is zero: 0x0001 * 2^100", 0, 0, 0, 0x1p100f, 0, bits(0.0f), 0x0001},
        {"subnormal B is zero: 2^100 * subnormal", 0, 0x1p100f, 0, value(0x00010000u), 0, bits(0.0f)},
        {"subnormal C is zero: 2^-140 + 2^-126", 0x1p-140f, 0x1p-126f, 0, 1.0f, 0, bits(0x1p-126f)},
        {"a tiny result is flushed to zero of its sign: 0 - 2^-130", 0, -0x1p-65f, 0, 0x1p-65f, 0, 0x80000000u},
        {"tininess after rounding (flushed): 2^-126 - 1.5 * 2^-151", 0x1p-126f, x, 0, -0x1p-76f, 0, bits(0.0f)},
        {"tininess after rounding (kept): 2^-126 - 2^-152", 0x1p-126f, -0x1p-76f, 0, 0x1p-76f, 0, bits(0x1p-126f)},
        {"the product is exact, not flushed: 2^-125 - 2^-127", 0x1p-125f, 0x1p-63f, 0, -0x1p-64f, 0,
         bits(1.5f * 0x1p-126f)},
        {"the odd step's tiny result is flushed: (0 + 2^-130) + 2^-126", 0, 0x1p-126f, 0x1p-65f, 1.0f, 0x1p-65f,
         bits(0x1p-126f)},
        {"inf * 0 is the quiet NaN 0x7fc00000", 0, INFINITY, 0, 0, 0, 0x7fc00000u},
        {"a NaN operand gives 0x7fc00000: -NaN(0x45) * 1", 0, 0, 0, 1.0f, 0, 0x7fc00000u, 0xffc5},
        {"an overflowing step gives inf: 2^127 + 2^127 * 1, then + 2^127 * -4", 0x1p127f, 0x1p127f, 0x1p127f, -4.0f,
         1.0f, bits(INFINITY)},
    };
}

// Random bf16 tiles: "wide" (either sign, exponents from subnormal to 2^13, some zeros), "tiny" (|values|
// 2^-72..2^-56: products and sums around the flush threshold 2^-126) and "special" (wide, with inf, NaN,
// signalling NaN, the largest finite value, signed zeros and subnormals sprinkled in).
enum class Kind { Wide, Tiny, Special };

Bf16Tile random_bf16_tile(Kind kind, uint32_t seed) {
    std::mt19937 rng(seed);
    const uint16_t specials[] = {0x7f80, 0xff80, 0x7fc0, 0xffc1, 0x7f81, 0x7f7f,
                                 0xff7f, 0x0000, 0x8000, 0x0001, 0x807f};
    Bf16Tile tile(kElements);
    for (uint16_t& v : tile) {
        const uint32_t sign = rng() & 1u, mantissa = rng() & 0x7fu;
        uint32_t exponent = kind == Kind::Tiny ? 127 - 72 + rng() % 17 : rng() % 141;
        if (rng() % 16 == 0)
            exponent = 0;  // zero or subnormal
        v = uint16_t(sign << 15 | exponent << 7 | mantissa);
        if (kind == Kind::Special && rng() % 24 == 0)
            v = specials[rng() % (sizeof specials / sizeof specials[0])];
    }
    return tile;
}

// A DST tile to accumulate into: fp32 values of the kind's range, with fp32 subnormals (and NaN, inf for
// Special).
Tile random_dst_tile(Kind kind, uint32_t seed) {
    std::mt19937 rng(seed);
    Tile tile(kElements);
    for (float& v : tile) {
        const uint32_t sign = rng() & 1u, mantissa = rng() & 0x7fffffu;
        uint32_t exponent = kind == Kind::Tiny ? rng() % 4 : rng() % 141;
        if (rng() % 16 == 0)
            exponent = 0;
        v = value(sign << 31 | exponent << 23 | mantissa);
        if (kind == Kind::Special && rng() % 64 == 0)
            v = rng() % 2 ? INFINITY : value(0xffc00001u);
    }
    return tile;
}

const char* kind_name(Kind kind) {
    return kind == Kind::Wide ? "wide" : kind == Kind::Tiny ? "tiny" : "special";
}

std::vector<tm::Path> supported_paths() {
    std::vector<tm::Path> paths;
    for (tm::Path path : tm::kAllPaths) {
        if (tm::supported(path))
            paths.push_back(path);
        else
            std::printf("  %s: not supported by this CPU, skipped\n", tm::path_name(path));
    }
    return paths;
}

}  // namespace

TEST(bf16_each_rule_of_the_definition_holds_on_every_supported_path) {
    for (tm::Path path : supported_paths()) {
        for (const Rule& rule : rules()) {
            Bf16Tile a(kElements, 0), b(kElements, 0);
            a[tile_offset(0, 30)] = rule.raw_a30 != 0 ? rule.raw_a30 : bf16_bits(rule.a30);
            a[tile_offset(0, 31)] = bf16_bits(rule.a31);
            b[tile_offset(30, 0)] = bf16_bits(rule.b30);
            b[tile_offset(31, 0)] = bf16_bits(rule.b31);
            Tile c(kElements, 0.0f);
            c[0] = rule.c;
            for (bool transpose : {false, true}) {
                Bf16Tile b_given = b;
                if (transpose) {  // the same B, stored transposed
                    for (uint32_t r = 0; r < kDim; r++)
                        for (uint32_t col = 0; col < kDim; col++)
                            b_given[tile_offset(col, r)] = b[tile_offset(r, col)];
                }
                const uint32_t got = bits(bf16_product(path, c, a, b_given, transpose)[0]);
                if (got != rule.want) {
                    char message[320];
                    std::snprintf(message, sizeof message,
                                  "%s path%s: %s: C[0][0] is 0x%08x (%a), the definition gives 0x%08x (%a)",
                                  tm::path_name(path), transpose ? " (B transposed)" : "", rule.what, got, value(got),
                                  rule.want, value(rule.want));
                    throw std::runtime_error(message);
                }
            }
        }
        std::printf("  %s: %zu rules hold\n", tm::path_name(path), rules().size());
    }
}

#if defined(__x86_64__)

TEST(bf16_every_supported_path_gives_the_definition_bit_for_bit) {
    const std::vector<tm::Path> paths = supported_paths();
    for (Kind kind : {Kind::Wide, Kind::Tiny, Kind::Special}) {
        for (uint32_t seed = 0; seed < 6; seed++) {
            // A block of 2 x 3 tiles: A[r], B[j], DST tile r * 3 + j.
            constexpr uint32_t kRows = 2, kCols = 3;
            std::vector<Bf16Tile> a, b;
            for (uint32_t r = 0; r < kRows; r++)
                a.push_back(random_bf16_tile(kind, 100 * seed + r));
            for (uint32_t j = 0; j < kCols; j++)
                b.push_back(random_bf16_tile(kind, 100 * seed + 10 + j));
            Tile dst;
            for (uint32_t t = 0; t < kRows * kCols; t++) {
                const Tile tile = random_dst_tile(kind, 100 * seed + 20 + t);
                dst.insert(dst.end(), tile.begin(), tile.end());
            }
            const uint16_t* a_tiles[kRows] = {a[0].data(), a[1].data()};
            const uint16_t* b_tiles[kCols] = {b[0].data(), b[1].data(), b[2].data()};
            for (bool transpose : {false, true}) {
                for (tm::Path path : paths) {
                    Tile got = dst;
                    tm::bf16_function_of(path)(got.data(), a_tiles, kRows, b_tiles, kCols, transpose);
                    for (uint32_t r = 0; r < kRows; r++) {
                        for (uint32_t j = 0; j < kCols; j++) {
                            const uint32_t t = r * kCols + j;
                            const auto at = [t](const Tile& block) {
                                return Tile(block.begin() + t * kElements, block.begin() + (t + 1) * kElements);
                            };
                            check_same_bits(at(got), definition_bf16(at(dst), a[r], b[j], transpose),
                                            std::string(tm::path_name(path)) + " path, " + kind_name(kind) +
                                                " tiles, seed " + std::to_string(seed) + ", DST tile " +
                                                std::to_string(t) + (transpose ? ", B transposed" : ""));
                        }
                    }
                }
            }
        }
    }
    for (tm::Path path : paths)
        std::printf("  %s: 36 blocks of 2 x 3 tiles identical to the definition\n", tm::path_name(path));
}

// End to end: bf16 A (Mt x Kt tiles) and B (Kt x Nt tiles) in DRAM, a compute kernel accumulating the
// products in DST and packing it to a Float32 CB (no rounding), the result in DRAM; every output tile must
// have the bits of the definition applied tile by tile, kt = 0, 1, ... (from zero). compute_matmul.cpp uses
// matmul_tiles one output tile at a time; compute_matmul_block.cpp one matmul_block per kt over the whole
// block, plain and with transposed B tiles.
TEST(bf16_kernels_matmul_tiles_and_matmul_block_give_the_definitions_bits) {
    using namespace runtime_mock;
    constexpr LogicalCore kCore{0, 0};
    constexpr uint32_t Mt = 2, Kt = 3, Nt = 3, kFp32TileBytes = 4096;
    std::vector<uint16_t> a_tiles, b_tiles;  // row-major in tiles, each tile in L1 layout
    for (uint32_t t = 0; t < Mt * Kt; t++) {
        const Bf16Tile tile = random_bf16_tile(t % 2 ? Kind::Wide : Kind::Tiny, 500 + t);
        a_tiles.insert(a_tiles.end(), tile.begin(), tile.end());
    }
    for (uint32_t t = 0; t < Kt * Nt; t++) {
        const Bf16Tile tile = random_bf16_tile(t % 2 ? Kind::Tiny : Kind::Special, 600 + t);
        b_tiles.insert(b_tiles.end(), tile.begin(), tile.end());
    }
    const auto tile_of = [](const std::vector<uint16_t>& tiles, uint32_t index) {
        return Bf16Tile(tiles.begin() + index * kElements, tiles.begin() + (index + 1) * kElements);
    };
    for (const std::string kernel : {"compute_matmul.cpp", "compute_matmul_block.cpp"}) {
        const bool block = kernel == "compute_matmul_block.cpp";
        for (const bool transpose : block ? std::vector<bool>{false, true} : std::vector<bool>{false}) {
            Device device;
            const test::Tensor ta = test::upload(device, a_tiles), tb = test::upload(device, b_tiles);
            const uint64_t out = device.allocate_dram(uint64_t(Mt) * Nt * kFp32TileBytes, kFp32TileBytes);
            KernelSpec compute = test::kernel_on(kernel, KernelRole::Compute, kCore, {Mt, Kt, Nt}, {});
            KernelSpec reader = block
                                    ? test::kernel_on("reader_blocks.cpp", KernelRole::DataMovement1, kCore,
                                                      {test::kDramAccessor, test::kDramAccessor},
                                                      {uint32_t(ta.address), ta.tiles, uint32_t(tb.address), tb.tiles})
                                    : test::kernel_on("reader_matmul.cpp", KernelRole::DataMovement1, kCore,
                                                      {test::kDramAccessor, test::kDramAccessor},
                                                      {uint32_t(ta.address), uint32_t(tb.address), Mt, Kt, Nt});
            if (block)
                compute.defines = {{"TRANSPOSE_B", transpose ? "1" : "0"}};
            ProgramSpec program;
            program.kernels = {reader, compute,
                               test::kernel_on("writer_unary.cpp", KernelRole::DataMovement0, kCore,
                                               {tt::CBIndex::c_16, test::kDramAccessor}, {uint32_t(out), Mt * Nt})};
            CircularBufferSpec out_cb;
            out_cb.cores = {kCore};
            out_cb.total_size = Mt * Nt * kFp32TileBytes;
            out_cb.indices = {{16, DataFormat::Float32, kFp32TileBytes}};
            program.circular_buffers = {test::bf16_cb(0, block ? Mt * Kt : 2, {kCore}),
                                        test::bf16_cb(1, block ? Kt * Nt : 2, {kCore}), out_cb};
            device.run(program);
            Tile got(Mt * Nt * kElements);
            device.read_interleaved(out, kFp32TileBytes, got.data(), got.size() * sizeof(float));
            for (uint32_t mt = 0; mt < Mt; mt++) {
                for (uint32_t nt = 0; nt < Nt; nt++) {
                    Tile want(kElements, 0.0f);
                    for (uint32_t kt = 0; kt < Kt; kt++)
                        want = definition_bf16(want, tile_of(a_tiles, mt * Kt + kt), tile_of(b_tiles, kt * Nt + nt),
                                               transpose);
                    const uint32_t t = mt * Nt + nt;
                    Tile got_rows(kElements);  // the packed tile is in L1 layout (faces)
                    for (uint32_t i = 0; i < kDim; i++)
                        for (uint32_t j = 0; j < kDim; j++)
                            got_rows[i * kDim + j] = got[t * kElements + tile_offset(i, j)];
                    check_same_bits(
                        got_rows, want,
                        kernel + (transpose ? " (B transposed)" : "") + ", output tile " + std::to_string(t));
                }
            }
        }
    }
}

#endif

int main() {
    return test::run_all();
}
