#include "tile_matmul.hpp"

#include <cmath>
#include <cstring>
#include <initializer_list>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace runtime_mock::tile_matmul {

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
// read as zero. Face row by face row: 16 contiguous elements, each pair swapped.
void prepare_a_in_step_order(const uint16_t* __restrict a, float* __restrict out) {
    for (uint32_t row = 0; row < kDim; row++) {
        for (uint32_t col0 = 0; col0 < kDim; col0 += kFace) {
            const uint16_t* __restrict src = a + tile_offset(row, col0);
            float* __restrict dst = out + row * kDim + col0;
            for (uint32_t s = 0; s < kFace; s += 2) {
                dst[s] = bf16_flushed(src[s + 1]);
                dst[s + 1] = bf16_flushed(src[s]);
            }
        }
    }
}

// B (or transpose(B)) as row-major fp32 with its rows in step order (B'[s][j] = B[k_of_step(s)][j]),
// subnormals read as zero: the operand of the fp32 code, which then runs the bf16 order.
struct BInStepOrder {
    alignas(64) float v[kTileElements];
};

void prepare_b_in_step_order(const uint16_t* __restrict b, bool transpose, BInStepOrder& out) {
    if (transpose) {
        // transpose(B)[k][j] = B[j][k]: row j of B, one face row at a time, to column j in step order.
        for (uint32_t j = 0; j < kDim; j++) {
            for (uint32_t k0 = 0; k0 < kDim; k0 += kFace) {
                const uint16_t* __restrict src = b + tile_offset(j, k0);
                for (uint32_t k = 0; k < kFace; k++)
                    out.v[k_of_step(k0 + k) * kDim + j] = bf16_flushed(src[k]);
            }
        }
        return;
    }
    for (uint32_t s = 0; s < kDim; s++) {
        for (uint32_t j0 = 0; j0 < kDim; j0 += kFace) {
            const uint16_t* __restrict src = b + tile_offset(k_of_step(s), j0);
            for (uint32_t j = 0; j < kFace; j++)
                out.v[s * kDim + j0 + j] = bf16_flushed(src[j]);
        }
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
    bf16_block<BInStepOrder, prepare_b_in_step_order, bf16_tile_in_step_order<portable_in_order<fma_flushing_tiny>>>(
        c, a, rows, b, cols, transpose_b);
    quiet_nans(c, count);
}

#if defined(__x86_64__)

// GCC 12 reports the AVX-512 intrinsics' deliberately undefined pass-through operand (_mm512_undefined_*) as
// maybe uninitialised wherever they are inlined.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

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

// Transposes the 16 x 16 matrix of dwords in rows[0..15] in place (unpack within 128-bit lanes, then move
// lanes).
__attribute__((target("avx512f"))) void transpose_16x16(__m512i rows[16]) {
    __m512i t[16], u[16];
    for (uint32_t i = 0; i < 16; i += 2) {
        t[i] = _mm512_unpacklo_epi32(rows[i], rows[i + 1]);
        t[i + 1] = _mm512_unpackhi_epi32(rows[i], rows[i + 1]);
    }
    // u[4g + m], lane L: column 4L + m of rows 4g..4g+3.
    for (uint32_t g = 0; g < 16; g += 4) {
        u[g] = _mm512_unpacklo_epi64(t[g], t[g + 2]);
        u[g + 1] = _mm512_unpackhi_epi64(t[g], t[g + 2]);
        u[g + 2] = _mm512_unpacklo_epi64(t[g + 1], t[g + 3]);
        u[g + 3] = _mm512_unpackhi_epi64(t[g + 1], t[g + 3]);
    }
    for (uint32_t m = 0; m < 4; m++) {
        const __m512i low01 = _mm512_shuffle_i32x4(u[m], u[4 + m], 0x44),
                      high01 = _mm512_shuffle_i32x4(u[m], u[4 + m], 0xee);
        const __m512i low23 = _mm512_shuffle_i32x4(u[8 + m], u[12 + m], 0x44);
        const __m512i high23 = _mm512_shuffle_i32x4(u[8 + m], u[12 + m], 0xee);
        rows[m] = _mm512_shuffle_i32x4(low01, low23, 0x88);
        rows[4 + m] = _mm512_shuffle_i32x4(low01, low23, 0xdd);
        rows[8 + m] = _mm512_shuffle_i32x4(high01, high23, 0x88);
        rows[12 + m] = _mm512_shuffle_i32x4(high01, high23, 0xdd);
    }
}

__attribute__((target("avx512f"))) void prepare_b_pairs(const uint16_t* __restrict b, bool transpose, BPairs& out) {
    if (transpose) {
        // transpose(B)[2p][j] = B[j][2p]: the pair is dword p of B's row j, so the pairs are the transpose of
        // B's rows read as 16 dwords, taken 16 rows at a time.
        for (uint32_t j0 = 0; j0 < kDim; j0 += kFace) {
            __m512i rows[16];
            for (uint32_t j = 0; j < 16; j++) {
                const __m256i left = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + tile_offset(j0 + j, 0)));
                const __m256i right =
                    _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + tile_offset(j0 + j, kFace)));
                rows[j] = _mm512_inserti64x4(_mm512_zextsi256_si512(left), right, 1);
            }
            transpose_16x16(rows);
            for (uint32_t p = 0; p < kPairs; p++)
                _mm512_store_si512(out.v + p * kDim + j0, rows[p]);
        }
        return;
    }
    // Zero-extend 16 elements of rows 2p and 2p+1 to dwords, the odd row's moved to the high halves.
    for (uint32_t p = 0; p < kPairs; p++) {
        for (uint32_t j0 = 0; j0 < kDim; j0 += kFace) {
            const __m512i even =
                _mm512_cvtepu16_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + tile_offset(2 * p, j0))));
            const __m512i odd = _mm512_cvtepu16_epi32(
                _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + tile_offset(2 * p + 1, j0))));
            _mm512_store_si512(out.v + p * kDim + j0, _mm512_or_si512(even, _mm512_slli_epi32(odd, 16)));
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

// The block on the VDPBF16PS path. The operand tiles were usually just written by another thread (a NOC
// transfer into the CB), so their cache lines are requested up front: A's while B's first tile is re-laid,
// each next B tile's while the current one is multiplied.
void bf16_pairs_block(float* c, const uint16_t* const* a, uint32_t rows, const uint16_t* const* b, uint32_t cols,
                      uint32_t transpose_b) {
    constexpr uint32_t kLine = 64, kTileBytes = kTileElements * sizeof(uint16_t);
    const auto prefetch_tile = [](const uint16_t* tile) {
        for (uint32_t at = 0; at < kTileBytes; at += kLine)
            _mm_prefetch(reinterpret_cast<const char*>(tile) + at, _MM_HINT_T0);
    };
    for (uint32_t r = 0; r < rows; r++)
        prefetch_tile(a[r]);
    BPairs pairs;
    for (uint32_t j = 0; j < cols; j++) {
        prepare_b_pairs(b[j], transpose_b != 0, pairs);
        if (j + 1 < cols)
            prefetch_tile(b[j + 1]);
        for (uint32_t r = 0; r < rows; r++)
            bf16_pairs_tile(c + (r * cols + j) * kTileElements, a[r], pairs);
    }
}

#pragma GCC diagnostic pop

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
        return bf16_pairs_block;
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

}  // namespace runtime_mock::tile_matmul
