// The compute engines' arithmetic on fp32 tiles (32x32, row-major), written to vectorise at -O3.
//
// matmul: C += A * B (B optionally transposed within the tile; tile_matmul.h); eltwise: C = A op B with optional
// broadcast of B's first row, first column or [0][0]; reduce along rows (result in column 0), columns
// (result in row 0) or both (result in [0][0]) with the SDK's scaler (every input is multiplied by the
// scaler tile's first element); transpose within the tile.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "runtime_mock/kernel_abi/tile_format.h"
#include "runtime_mock/kernel_abi/tile_matmul.h"

namespace runtime_mock::kernel_abi {

struct alignas(64) TileBuffer {
    float v[kTileElements];
};

enum class BinaryOp { Add, Sub, Mul };
enum class Broadcast { None, Col, Row, Scalar };

template <BinaryOp op>
inline float binary(float a, float b) {
    if constexpr (op == BinaryOp::Add)
        return a + b;
    if constexpr (op == BinaryOp::Sub)
        return a - b;
    return a * b;
}

// c = a op broadcast(b), or c += a op broadcast(b) when accumulate.
template <BinaryOp op>
inline void binary_tile(float* __restrict c, const float* __restrict a, const float* __restrict b, Broadcast bcast,
                        bool accumulate) {
    for (uint32_t r = 0; r < kTileDim; r++) {
        for (uint32_t col = 0; col < kTileDim; col++) {
            const uint32_t i = r * kTileDim + col;
            const float bv = bcast == Broadcast::None  ? b[i]
                             : bcast == Broadcast::Row ? b[col]
                             : bcast == Broadcast::Col ? b[r * kTileDim]
                                                       : b[0];
            const float v = binary<op>(a[i], bv);
            c[i] = accumulate ? c[i] + v : v;
        }
    }
}

enum class ReduceOp { Sum, Max };
enum class ReduceAxis { Row, Col, Scalar };

// Reduces `in` (times scaler) into `out`; `first` starts a MAX reduction instead of folding into out.
inline void reduce_tile_values(float* out, const float* in, float scaler, ReduceOp op, ReduceAxis axis, bool first) {
    auto fold = [&](float& acc, float v) {
        if (op == ReduceOp::Sum)
            acc += v;
        else
            acc = first ? v : std::max(acc, v);
    };
    auto reduce_range = [&](uint32_t r0, uint32_t r1, uint32_t c0, uint32_t c1) {
        float acc = op == ReduceOp::Sum ? 0.0f : -INFINITY;
        for (uint32_t r = r0; r < r1; r++)
            for (uint32_t c = c0; c < c1; c++) {
                const float v = in[r * kTileDim + c] * scaler;
                acc = op == ReduceOp::Sum ? acc + v : std::max(acc, v);
            }
        return acc;
    };
    if (axis == ReduceAxis::Row) {
        for (uint32_t r = 0; r < kTileDim; r++)
            fold(out[r * kTileDim], reduce_range(r, r + 1, 0, kTileDim));
    } else if (axis == ReduceAxis::Col) {
        for (uint32_t c = 0; c < kTileDim; c++)
            fold(out[c], reduce_range(0, kTileDim, c, c + 1));
    } else {
        fold(out[0], reduce_range(0, kTileDim, 0, kTileDim));
    }
}

inline void transpose_tile(float* __restrict out, const float* __restrict in) {
    for (uint32_t r = 0; r < kTileDim; r++)
        for (uint32_t c = 0; c < kTileDim; c++)
            out[c * kTileDim + r] = in[r * kTileDim + c];
}

}  // namespace runtime_mock::kernel_abi
