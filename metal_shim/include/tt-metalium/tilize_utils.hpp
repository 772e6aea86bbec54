// Host-side layout conversions between a row-major matrix and the device's tiled layouts.
//
// The matrix is m rows by n columns (both multiples of 32); the input may hold several such matrices
// back to back. Tiles are stored in row-major order of the tile grid. Inside a tile:
//   TILED_SWIZZLED: the 32x32 datums row-major;
//   TILED_NFACES:   four 16x16 faces in the order (top-left, top-right, bottom-left, bottom-right),
//                   each face row-major — the layout kernels see in L1.
#pragma once

#include <tt_stl/assert.hpp>

#include <cstdint>
#include <vector>

namespace tt::tilize_detail {

constexpr uint32_t kTile = 32;
constexpr uint32_t kFace = 16;

// Offset of datum (r, c) of a tile inside that tile, for the faced or plain layout.
inline uint32_t offset_in_tile(uint32_t r, uint32_t c, bool faces) {
    if (!faces) {
        return r * kTile + c;
    }
    const uint32_t face = (r / kFace) * 2 + (c / kFace);
    return face * kFace * kFace + (r % kFace) * kFace + (c % kFace);
}

template <typename T>
std::vector<T> convert(const std::vector<T>& input, uint32_t m, uint32_t n, bool faces, bool to_tiles,
                       const char* name) {
    TT_FATAL(!input.empty() && m > 0 && n > 0, "{}: None of the input size, m, nor n can be 0", name);
    TT_FATAL(input.size() % (static_cast<size_t>(m) * n) == 0, "{}: input size {} is not a multiple of m*n = {}*{}",
             name, input.size(), m, n);
    TT_FATAL(m % kTile == 0 && n % kTile == 0, "{}: m = {} and n = {} must be multiples of 32", name, m, n);
    std::vector<T> output(input.size());
    const size_t matrix = static_cast<size_t>(m) * n;
    const uint32_t tiles_per_row = n / kTile;
    for (size_t base = 0; base < input.size(); base += matrix) {
        for (uint32_t row = 0; row < m; ++row) {
            for (uint32_t col = 0; col < n; ++col) {
                const size_t tile = static_cast<size_t>(row / kTile) * tiles_per_row + col / kTile;
                const size_t tiled = base + tile * kTile * kTile + offset_in_tile(row % kTile, col % kTile, faces);
                const size_t linear = base + static_cast<size_t>(row) * n + col;
                if (to_tiles) {
                    output[tiled] = input[linear];
                } else {
                    output[linear] = input[tiled];
                }
            }
        }
    }
    return output;
}

}  // namespace tt::tilize_detail

template <typename T>
std::vector<T> tilize_nfaces(const std::vector<T>& input, uint32_t m, uint32_t n) {
    return tt::tilize_detail::convert(input, m, n, true, true, "tilize_nfaces");
}

template <typename T>
std::vector<T> untilize_nfaces(const std::vector<T>& input, uint32_t m, uint32_t n) {
    return tt::tilize_detail::convert(input, m, n, true, false, "untilize_nfaces");
}

template <typename T>
std::vector<T> tilize_swizzled(const std::vector<T>& input, uint32_t m, uint32_t n) {
    return tt::tilize_detail::convert(input, m, n, false, true, "tilize_swizzled");
}

template <typename T>
std::vector<T> untilize_swizzled(const std::vector<T>& input, uint32_t m, uint32_t n) {
    return tt::tilize_detail::convert(input, m, n, false, false, "untilize_swizzled");
}
