#include "tile_matmul.hpp"

#include <cmath>
#include <cstring>
#include <initializer_list>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace tt_mock::tile_matmul {

namespace {

constexpr uint32_t kTileElements = kDim * kDim;
constexpr uint32_t kFace = 16;
constexpr uint32_t kPairs = kDim / 2;  // k-pairs of the bf16 order
constexpr uint32_t kQuietNan = 0x7fc00000u;
constexpr float kMinNormal = 0x1p-126f;

// ---- fp32 tiles, k = 0..31 in order -------------------------------------------------------------------------

// C += A * B on row-major tiles, each C[i][j] updated by k = 0..31 as C[i][j] = kStep(A[i][k], B[k][j], C[i][j]).
template <float (*kStep)(float, float, float)>
void portable_in_order(float* __restrict c, const float* __restrict a, const float* __restrict b) {
    constexpr uint32_t kRows = 4;
    for (uint32_t i0 = 0; i0 < kDim; i0 += kRows) {
        float acc[kRows][kDim];
        for (uint32_t r = 0; r < kRows; r++)
            for (uint32_t j = 0; j < kDim; j++)
                acc[r][j] = c[(i0 + r) * kDim + j];
        for (uint32_t k = 0; k < kDim; k++) {
            const float* __restrict brow = b + k * kDim;
            for (uint32_t r = 0; r < kRows; r++) {
                const float aik = a[(i0 + r) * kDim + k];
                for (uint32_t j = 0; j < kDim; j++)
                    acc[r][j] = kStep(aik, brow[j], acc[r][j]);
            }
        }
        for (uint32_t r = 0; r < kRows; r++)
            for (uint32_t j = 0; j < kDim; j++)
                c[(i0 + r) * kDim + j] = acc[r][j];
    }
}

float fused_multiply_add(float a, float b, float c) {
    return std::fma(a, b, c);
}

#if defined(__x86_64__)

__attribute__((target("avx2,fma"))) void avx2(float* __restrict c, const float* __restrict a,
                                              const float* __restrict b) {
    constexpr uint32_t kRows = 4, kCols = 16;  // 4 x 2 accumulators of 8 floats
    for (uint32_t i0 = 0; i0 < kDim; i0 += kRows) {
        for (uint32_t j0 = 0; j0 < kDim; j0 += kCols) {
            __m256 acc[kRows][2];
            for (uint32_t r = 0; r < kRows; r++) {
                acc[r][0] = _mm256_loadu_ps(c + (i0 + r) * kDim + j0);
                acc[r][1] = _mm256_loadu_ps(c + (i0 + r) * kDim + j0 + 8);
            }
            for (uint32_t k = 0; k < kDim; k++) {
                const __m256 b0 = _mm256_loadu_ps(b + k * kDim + j0);
                const __m256 b1 = _mm256_loadu_ps(b + k * kDim + j0 + 8);
                for (uint32_t r = 0; r < kRows; r++) {
                    const __m256 aik = _mm256_broadcast_ss(a + (i0 + r) * kDim + k);
                    acc[r][0] = _mm256_fmadd_ps(aik, b0, acc[r][0]);
                    acc[r][1] = _mm256_fmadd_ps(aik, b1, acc[r][1]);
                }
            }
            for (uint32_t r = 0; r < kRows; r++) {
                _mm256_storeu_ps(c + (i0 + r) * kDim + j0, acc[r][0]);
                _mm256_storeu_ps(c + (i0 + r) * kDim + j0 + 8, acc[r][1]);
            }
        }
    }
}

__attribute__((target("avx512f"))) void avx512(float* __restrict c, const float* __restrict a,
                                               const float* __restrict b) {
    constexpr uint32_t kRows = 8;  // 8 x 2 accumulators of 16 floats: whole rows of C
    for (uint32_t i0 = 0; i0 < kDim; i0 += kRows) {
        __m512 acc[kRows][2];
        for (uint32_t r = 0; r < kRows; r++) {
            acc[r][0] = _mm512_loadu_ps(c + (i0 + r) * kDim);
            acc[r][1] = _mm512_loadu_ps(c + (i0 + r) * kDim + 16);
        }
        for (uint32_t k = 0; k < kDim; k++) {
            const __m512 b0 = _mm512_loadu_ps(b + k * kDim);
            const __m512 b1 = _mm512_loadu_ps(b + k * kDim + 16);
            for (uint32_t r = 0; r < kRows; r++) {
                const __m512 aik = _mm512_set1_ps(a[(i0 + r) * kDim + k]);
                acc[r][0] = _mm512_fmadd_ps(aik, b0, acc[r][0]);
                acc[r][1] = _mm512_fmadd_ps(aik, b1, acc[r][1]);
            }
        }
        for (uint32_t r = 0; r < kRows; r++) {
            _mm512_storeu_ps(c + (i0 + r) * kDim, acc[r][0]);
            _mm512_storeu_ps(c + (i0 + r) * kDim + 16, acc[r][1]);
        }
    }
}

#endif

// ---- bf16 tiles in L1 layout, k in pairs, odd first ---------------------------------------------------------

// Element (row, col) of a tile in L1: four 16x16 faces (f0 rows 0-15/cols 0-15, f1 rows 0-15/cols 16-31,
// f2 rows 16-31/cols 0-15, f3 rows 16-31/cols 16-31), each row-major.
constexpr uint32_t tile_offset(uint32_t row, uint32_t col) {
    return ((row / kFace) * 2 + col / kFace) * kFace * kFace + (row % kFace) * kFace + col % kFace;
}

// The k of step s of the bf16 order: 1, 0, 3, 2, ..., 31, 30.
constexpr uint32_t k_of_step(uint32_t step) {
    return step ^ 1u;
}

float float_of_bits(uint32_t bits) {
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

uint32_t bits_of_float(float f) {
    uint32_t bits;
    std::memcpy(&bits, &f, sizeof bits);
    return bits;
}

// A bf16 value as fp32, a subnormal one as zero of its sign (DAZ).
float bf16_flushed(uint16_t bits) {
    const uint32_t exponent_zero = (bits & 0x7f80u) == 0;
    return float_of_bits(uint32_t(exponent_zero ? bits & 0x8000u : bits) << 16);
}

// Writes every NaN of `count` values as kQuietNan.
void quiet_nans(float* values, uint32_t count) {
    for (uint32_t i = 0; i < count; i++) {
        const uint32_t bits = bits_of_float(values[i]);
        values[i] = (bits & 0x7fffffffu) > 0x7f800000u ? float_of_bits(kQuietNan) : values[i];
    }
}

// A bf16 tile as row-major fp32 with its columns in step order (A'[i][s] = A[i][k_of_step(s)]), subnormals
// read as zero.
void prepare_a_in_step_order(const uint16_t* __restrict a, float* __restrict out) {
    for (uint32_t i = 0; i < kDim; i++)
        for (uint32_t s = 0; s < kDim; s++)
            out[i * kDim + s] = bf16_flushed(a[tile_offset(i, k_of_step(s))]);
}

// B (or transpose(B)) as row-major fp32 with its rows in step order (B'[s][j] = B[k_of_step(s)][j]),
// subnormals read as zero: the operand of the fp32 code, which then runs the bf16 order.
struct BInStepOrder {
    alignas(64) float v[kTileElements];
};

void prepare_b_in_step_order(const uint16_t* __restrict b, bool transpose, BInStepOrder& out) {
    for (uint32_t s = 0; s < kDim; s++) {
        const uint32_t k = k_of_step(s);
        for (uint32_t j = 0; j < kDim; j++)
            out.v[s * kDim + j] = bf16_flushed(b[transpose ? tile_offset(j, k) : tile_offset(k, j)]);
    }
}

// One step of the bf16 order on values that are not subnormal: fma(a, b, c), a result that is tiny after
// rounding flushed to zero of its sign (x86 FTZ). std::fma rounds into fp32's subnormal range instead, so a
// result of exactly 2^-126 is recomputed four times larger (exact scalings, no subnormal range there) to see
// whether the exact value rounds below 2^-126 with 24 bits (tiny: flushed) or to 2^-126 (kept).
float fma_flushing_tiny(float a, float b, float c) {
    const float r = std::fma(a, b, c);
    const float magnitude = std::fabs(r);
    if (std::isnan(r) || magnitude > kMinNormal)
        return r;
    if (magnitude < kMinNormal)
        return std::copysign(0.0f, r);
    // |r| = 2^-126 needs |c| < 2^102 and min(|a|, |b|) < 2^126, so these scalings are exact.
    const bool scale_a = std::fabs(a) <= std::fabs(b);
    const float scaled = std::fma(scale_a ? 4 * a : a, scale_a ? b : 4 * b, 4 * c);
    return std::fabs(scaled) < 4 * kMinNormal ? std::copysign(0.0f, r) : r;
}

// One tile of the bf16 order through fp32 code that runs k in order (kInOrder), on operands in step order.
template <Function kInOrder>
void bf16_tile_in_step_order(float* __restrict c, const uint16_t* __restrict a, const BInStepOrder& b) {
    alignas(64) float a_steps[kTileElements];
    prepare_a_in_step_order(a, a_steps);
    kInOrder(c, a_steps, b.v);
}

// The block of rows x cols tile products, each B tile prepared once (kPrepare) and multiplied by every A
// tile (kProduct).
template <typename PreparedB, void (*kPrepare)(const uint16_t*, bool, PreparedB&),
          void (*kProduct)(float*, const uint16_t*, const PreparedB&)>
void bf16_block(float* c, const uint16_t* const* a, uint32_t rows, const uint16_t* const* b, uint32_t cols,
                uint32_t transpose_b) {
    PreparedB prepared;
    for (uint32_t j = 0; j < cols; j++) {
        kPrepare(b[j], transpose_b != 0, prepared);
        for (uint32_t r = 0; r < rows; r++)
            kProduct(c + (r * cols + j) * kTileElements, a[r], prepared);
    }
}

void bf16_portable(float* c, const uint16_t* const* a, uint32_t rows, const uint16_t* const* b, uint32_t cols,
                   uint32_t transpose_b) {
    const uint32_t count = rows * cols * kTileElements;
    for (uint32_t i = 0; i < count; i++)
        c[i] = std::fpclassify(c[i]) == FP_SUBNORMAL ? std::copysign(0.0f, c[i]) : c[i];
    bf16_block<BInStepOrder, prepare_b_in_step_order,
               bf16_tile_in_step_order<portable_in_order<fma_flushing_tiny>>>(c, a, rows, b, cols, transpose_b);
    quiet_nans(c, count);
}

#if defined(__x86_64__)

// Runs the fp32 code of kInOrder on the bf16 block under MXCSR DAZ | FTZ (the bf16 step's rules), then
// restores MXCSR. The asm statements clobber memory, so no load or store of the block moves across them.
template <Function kInOrder>
void bf16_under_daz_ftz(float* c, const uint16_t* const* a, uint32_t rows, const uint16_t* const* b, uint32_t cols,
                        uint32_t transpose_b) {
    constexpr uint32_t kDenormalsAreZero = 1u << 6, kFlushToZero = 1u << 15;
    uint32_t saved;
    asm volatile("stmxcsr %0" : "=m"(saved) : : "memory");
    const uint32_t flushing = saved | kDenormalsAreZero | kFlushToZero;
    asm volatile("ldmxcsr %0" : : "m"(flushing) : "memory");
    bf16_block<BInStepOrder, prepare_b_in_step_order, bf16_tile_in_step_order<kInOrder>>(c, a, rows, b, cols,
                                                                                         transpose_b);
    asm volatile("ldmxcsr %0" : : "m"(saved) : "memory");
    quiet_nans(c, rows * cols * kTileElements);
}

// B (or transpose(B)) in k-pairs, the operand of VDPBF16PS: dword p * 32 + j holds B[2p][j] in its low half
// and B[2p+1][j] in its high half.
struct BPairs {
    alignas(64) uint32_t v[kPairs * kDim];
};

__attribute__((target("avx512f"))) void prepare_b_pairs(const uint16_t* __restrict b, bool transpose,
                                                        BPairs& out) {
    if (transpose) {
        // transpose(B)[2p][j] = B[j][2p]: the pair is already a dword of B's row j.
        for (uint32_t j = 0; j < kDim; j++)
            for (uint32_t p = 0; p < kPairs; p++)
                std::memcpy(&out.v[p * kDim + j], b + tile_offset(j, 2 * p), sizeof(uint32_t));
        return;
    }
    // Zero-extend 16 elements of rows 2p and 2p+1 to dwords, the odd row's moved to the high halves (the
    // zero-masked forms: GCC 12 warns that the plain ones read an uninitialised register).
    constexpr __mmask16 kAll = 0xffff;
    for (uint32_t p = 0; p < kPairs; p++) {
        for (uint32_t j0 = 0; j0 < kDim; j0 += kFace) {
            const __m512i even = _mm512_maskz_cvtepu16_epi32(
                kAll, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + tile_offset(2 * p, j0))));
            const __m512i odd = _mm512_maskz_cvtepu16_epi32(
                kAll, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + tile_offset(2 * p + 1, j0))));
            _mm512_store_si512(out.v + p * kDim + j0, _mm512_or_si512(even, _mm512_maskz_slli_epi32(kAll, odd, 16)));
        }
    }
}

// C += A * B in the bf16 order: eight rows of C (sixteen accumulators) at a time; per k-pair, two registers of
// B's pairs and, per row, A's pair broadcast from its L1 tile (k-pairs 0-7 in A's left face, 8-15 in its
// right one). NaNs are quieted on the way out.
__attribute__((target("avx512f,avx512bf16"))) void bf16_pairs_tile(float* __restrict c, const uint16_t* __restrict a,
                                                                   const BPairs& b) {
    constexpr uint32_t kRows = 8, kFacePairs = kFace / 2;
    const __m512 quiet_nan = _mm512_castsi512_ps(_mm512_set1_epi32(int(kQuietNan)));
    for (uint32_t i0 = 0; i0 < kDim; i0 += kRows) {
        __m512 acc[kRows][2];
        for (uint32_t r = 0; r < kRows; r++) {
            acc[r][0] = _mm512_loadu_ps(c + (i0 + r) * kDim);
            acc[r][1] = _mm512_loadu_ps(c + (i0 + r) * kDim + 16);
        }
        for (uint32_t face_col = 0; face_col < 2; face_col++) {
            const uint16_t* a_rows = a + tile_offset(i0, face_col * kFace);
            const uint32_t* b_pairs = b.v + face_col * kFacePairs * kDim;
#pragma GCC unroll 8
            for (uint32_t p = 0; p < kFacePairs; p++) {
                const __m512bh b0 = (__m512bh)_mm512_load_si512(b_pairs + p * kDim);
                const __m512bh b1 = (__m512bh)_mm512_load_si512(b_pairs + p * kDim + 16);
#pragma GCC unroll 8
                for (uint32_t r = 0; r < kRows; r++) {
                    uint32_t pair;
                    std::memcpy(&pair, a_rows + r * kFace + 2 * p, sizeof pair);
                    const __m512bh ap = (__m512bh)_mm512_set1_epi32(int(pair));
                    acc[r][0] = _mm512_dpbf16_ps(acc[r][0], ap, b0);
                    acc[r][1] = _mm512_dpbf16_ps(acc[r][1], ap, b1);
                }
            }
        }
        for (uint32_t r = 0; r < kRows; r++) {
            for (uint32_t h = 0; h < 2; h++) {
                const __mmask16 nan = _mm512_cmp_ps_mask(acc[r][h], acc[r][h], _CMP_UNORD_Q);
                _mm512_storeu_ps(c + (i0 + r) * kDim + 16 * h, _mm512_mask_mov_ps(acc[r][h], nan, quiet_nan));
            }
        }
    }
}

#endif

const Function kSelected = function_of(fastest_supported_path());
const Bf16Function kBf16Selected = bf16_function_of(fastest_supported_path());

}  // namespace

const char* path_name(Path path) {
    switch (path) {
        case Path::Portable:
            return "portable";
        case Path::Avx2:
            return "avx2";
        case Path::Avx512:
            return "avx512";
        case Path::Avx512Bf16:
            return "avx512-bf16";
    }
    return "?";
}

bool supported(Path path) {
#if defined(__x86_64__)
    __builtin_cpu_init();  // needed when called from a static initialiser
    if (path == Path::Avx2)
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    if (path == Path::Avx512)
        return __builtin_cpu_supports("avx512f");
    if (path == Path::Avx512Bf16)
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bf16");
#endif
    return path == Path::Portable;
}

Path fastest_supported_path() {
    for (Path path : {Path::Avx512Bf16, Path::Avx512, Path::Avx2}) {
        if (supported(path))
            return path;
    }
    return Path::Portable;
}

Function function_of(Path path) {
#if defined(__x86_64__)
    if (path == Path::Avx512 || path == Path::Avx512Bf16)
        return avx512;
    if (path == Path::Avx2)
        return avx2;
#endif
    return portable_in_order<fused_multiply_add>;
}

Function selected() {
    return kSelected;
}

Bf16Function bf16_function_of(Path path) {
#if defined(__x86_64__)
    if (path == Path::Avx512Bf16)
        return bf16_block<BPairs, prepare_b_pairs, bf16_pairs_tile>;
    if (path == Path::Avx512)
        return bf16_under_daz_ftz<avx512>;
    if (path == Path::Avx2)
        return bf16_under_daz_ftz<avx2>;
#endif
    return bf16_portable;
}

Bf16Function bf16_selected() {
    return kBf16Selected;
}

}  // namespace tt_mock::tile_matmul
