#include "tile_matmul.hpp"

#include <cmath>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace tt_mock::tile_matmul {

namespace {

void portable(float* __restrict c, const float* __restrict a, const float* __restrict b) {
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
                    acc[r][j] = std::fma(aik, brow[j], acc[r][j]);
            }
        }
        for (uint32_t r = 0; r < kRows; r++)
            for (uint32_t j = 0; j < kDim; j++)
                c[(i0 + r) * kDim + j] = acc[r][j];
    }
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

const Function kSelected = function_of(fastest_supported_path());

}  // namespace

const char* path_name(Path path) {
    switch (path) {
        case Path::Portable:
            return "portable";
        case Path::Avx2:
            return "avx2";
        case Path::Avx512:
            return "avx512";
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
#endif
    return path == Path::Portable;
}

Function function_of(Path path) {
#if defined(__x86_64__)
    if (path == Path::Avx512)
        return avx512;
    if (path == Path::Avx2)
        return avx2;
#endif
    return portable;
}

Path fastest_supported_path() {
    if (supported(Path::Avx512))
        return Path::Avx512;
    if (supported(Path::Avx2))
        return Path::Avx2;
    return Path::Portable;
}

Function selected() {
    return kSelected;
}

}  // namespace tt_mock::tile_matmul
