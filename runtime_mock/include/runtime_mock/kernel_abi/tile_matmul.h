// The compute engine's tile matrix product as kernels call it, in two forms (both run in the runtime,
// runtime_mock/src/tile_matmul.hpp: register-blocked paths for the host CPU's vector units, one accumulation
// order per form, identical bits on every path; reached through RuntimeFunctions, so kernels do not compile
// them):
//   matmul_tile:       C += A * B, or C += A * transpose(B) (within the tile), on 32x32 fp32 tiles
//                      (row-major), the operands unpacked from their CBs (Float32, Float16, mixed formats);
//   matmul_bf16_tiles: a block of DST tiles += products of Float16_b tiles read as they sit in L1, k in
//                      pairs, odd first, subnormals flushed (the order and rules of x86's VDPBF16PS).
#pragma once

#include <cstdint>

#include "runtime_mock/kernel_abi/kernel_context.h"

namespace runtime_mock::kernel_abi {

inline void matmul_tile(float* __restrict c, const float* __restrict a, const float* __restrict b, bool transpose_b) {
    constexpr uint32_t kDim = 32;
    alignas(64) float bt[kDim * kDim];
    if (transpose_b) {
        for (uint32_t r = 0; r < kDim; r++)
            for (uint32_t k = 0; k < kDim; k++)
                bt[k * kDim + r] = b[r * kDim + k];
        b = bt;
    }
    ctx()->fn->tile_matmul(c, a, b);
}

// For r < rows and j < cols: DST tile c + (r * cols + j) * 1024 += A[r] * B[j] (transpose_b: A[r] * B[j]^T),
// where a[r] and b[j] point at Float16_b tiles in L1 tile layout.
inline void matmul_bf16_tiles(float* c, const uint16_t* const* a, uint32_t rows, const uint16_t* const* b,
                              uint32_t cols, bool transpose_b) {
    ctx()->fn->tile_matmul_bf16(c, a, rows, b, cols, transpose_b ? 1u : 0u);
}

}  // namespace runtime_mock::kernel_abi
