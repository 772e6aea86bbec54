// The compute engine's tile matrix product as kernels call it: C += A * B, or C += A * transpose(B) (within
// the tile), on 32x32 fp32 tiles (row-major). The product runs in the runtime (runtime_mock/src/
// tile_matmul.hpp: register-blocked paths for the host CPU's vector units, one accumulation order, identical
// bits on every path), reached through RuntimeFunctions::tile_matmul, so kernels do not compile it.
#pragma once

#include <cstdint>

#include "tt_mock_device/kernel_context.h"

namespace tt_mock_device {

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

}  // namespace tt_mock_device
