// Host-side layout conversions between a row-major matrix and the device's tiled layouts: the SDK's
// convert_layout (from a span, so a caller's data needs no copy into a vector first) and its
// tilize/untilize wrappers.
//
// The matrix is m rows by n columns (both multiples of 32); the input may hold several such matrices
// back to back. Tiles are stored in row-major order of the tile grid. Inside a tile:
//   TILED_SWIZZLED: the 32x32 datums row-major;
//   TILED_NFACES:   four 16x16 faces in the order (top-left, top-right, bottom-left, bottom-right),
//                   each face row-major — the layout kernels see in L1.
#pragma once

#include <tt-metalium/bfloat16.hpp>
#include <tt-metalium/host_buffer_memory.hpp>
#include <tt_stl/assert.hpp>
#include <tt_stl/span.hpp>

#include <array>
#include <cstdint>
#include <cstring>
#include <optional>
#include <type_traits>
#include <vector>
#if __cplusplus >= 202002L
#include <span>
#endif

enum class TensorLayoutType {
    LIN_ROW_MAJOR = 0,   // row-major datums
    TILED_SWIZZLED = 1,  // row-major of tiles, each tile row-major
    TILED_NFACES = 2,    // row-major of tiles, each tile four row-major 16x16 faces
};

using PhysicalSize = std::array<uint32_t, 2>;

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

// Copies `kCount` datums; a fixed-size memcpy (a few vector moves) for trivially copyable types.
template <uint32_t kCount, typename T>
inline void copy_run(const T* src, T* dst) {
    if constexpr (std::is_trivially_copyable_v<T>) {
        std::memcpy(dst, src, kCount * sizeof(T));
    } else {
        for (uint32_t i = 0; i < kCount; ++i) {
            dst[i] = src[i];
        }
    }
}

// A row of a tile is contiguous in both layouts in runs of `kRun` datums (a face row, or the whole tile
// row without faces): each run is copied whole, which is why this is fast even in an -O1 host program.
template <uint32_t kRun, typename T>
void convert_runs(const T* input, T* output, size_t size, uint32_t m, uint32_t n, bool faces, bool to_tiles) {
    const size_t matrix = static_cast<size_t>(m) * n;
    const size_t tile_row_datums = static_cast<size_t>(n) * kTile;  // one row of tiles
    for (size_t base = 0; base < size; base += matrix) {
        for (uint32_t row = 0; row < m; ++row) {
            const size_t tiles_of_row = base + (row / kTile) * tile_row_datums;
            const size_t linear_row = base + static_cast<size_t>(row) * n;
            for (uint32_t col = 0; col < n; col += kRun) {
                const size_t tiled = tiles_of_row + static_cast<size_t>(col / kTile) * kTile * kTile +
                                     offset_in_tile(row % kTile, col % kTile, faces);
                if (to_tiles) {
                    copy_run<kRun>(input + linear_row + col, output + tiled);
                } else {
                    copy_run<kRun>(input + tiled, output + linear_row + col);
                }
            }
        }
    }
}

// Row-major -> tiled (to_tiles) or back, for every m x n matrix in `input`; datum (r, c) of a matrix
// moves between r * n + c and its tile's start plus offset_in_tile(r % 32, c % 32, faces).
template <typename T>
std::vector<T> convert(tt::stl::Span<const T> input, uint32_t m, uint32_t n, bool faces, bool to_tiles,
                       const char* name) {
    TT_FATAL(!input.empty() && m > 0 && n > 0, "{}: None of the input size, m, nor n can be 0", name);
    TT_FATAL(input.size() % (static_cast<size_t>(m) * n) == 0, "{}: input size {} is not a multiple of m*n = {}*{}",
             name, input.size(), m, n);
    TT_FATAL(m % kTile == 0 && n % kTile == 0, "{}: m = {} and n = {} must be multiples of 32", name, m, n);
    // Every datum of the output is overwritten. Datums that are plain bytes start zeroed (a memset in the
    // runtime library's instantiations, at -O2), which writes the output once instead of reading the input a
    // second time; others start as a copy, cheaper than value-initialising them one datum at a time at -O1.
    std::vector<T> output;
    if constexpr (std::is_trivially_copyable_v<T> && std::is_trivially_default_constructible_v<T>) {
        tt::tt_metal::host_detail::resize_host_vector(output, input.size());
    } else {
        output.assign(input.begin(), input.end());
    }
    if (faces) {
        convert_runs<kFace>(input.data(), output.data(), input.size(), m, n, true, to_tiles);
    } else {
        convert_runs<kTile>(input.data(), output.data(), input.size(), m, n, false, to_tiles);
    }
    return output;
}

// The conversion of the datum types host programs use is compiled once, in the runtime library
// (metal_shim/src/tilize_utils.cpp), not in every program.
extern template std::vector<uint16_t> convert(tt::stl::Span<const uint16_t>, uint32_t, uint32_t, bool, bool,
                                              const char*);
extern template std::vector<uint32_t> convert(tt::stl::Span<const uint32_t>, uint32_t, uint32_t, bool, bool,
                                              const char*);
extern template std::vector<float> convert(tt::stl::Span<const float>, uint32_t, uint32_t, bool, bool, const char*);
extern template std::vector<bfloat16> convert(tt::stl::Span<const bfloat16>, uint32_t, uint32_t, bool, bool,
                                              const char*);

}  // namespace tt::tilize_detail

// What convert_layout converts from: tt-metal 0.81 takes a std::span (host programs are C++20, as the SDK
// builds them); C++17 programs written against the releases before it passed a tt::stl::Span.
#if __cplusplus >= 202002L
template <typename T>
using LayoutInput = std::span<const T>;
#else
template <typename T>
using LayoutInput = tt::stl::Span<const T>;
#endif

// The SDK's general conversion. The mock converts between LIN_ROW_MAJOR and either tiled layout with the
// default 32x32 tiles of 16x16 faces, unflipped; any other request is a TT_FATAL naming it. `shape` is
// {rows, columns} of one matrix; `inp` may hold several.
template <typename T>
std::vector<T> convert_layout(LayoutInput<T> inp, const PhysicalSize& shape, TensorLayoutType inL,
                              TensorLayoutType outL, std::optional<PhysicalSize> tile_shape = std::nullopt,
                              std::optional<PhysicalSize> face_shape = std::nullopt, bool transpose_within_face = false,
                              bool transpose_of_faces = false) {
    if (inp.size() == 0) {
        return std::vector<T>();
    }
    const bool default_tiles = (!tile_shape || *tile_shape == PhysicalSize{32, 32}) &&
                               (!face_shape || *face_shape == PhysicalSize{16, 16}) && !transpose_within_face &&
                               !transpose_of_faces;
    TT_FATAL(default_tiles, "convert_layout: the mock converts 32x32 tiles of 16x16 faces without transposes only");
    const bool to_tiles = inL == TensorLayoutType::LIN_ROW_MAJOR && outL != TensorLayoutType::LIN_ROW_MAJOR;
    const bool from_tiles = outL == TensorLayoutType::LIN_ROW_MAJOR && inL != TensorLayoutType::LIN_ROW_MAJOR;
    TT_FATAL(to_tiles || from_tiles,
             "convert_layout: the mock converts between LIN_ROW_MAJOR and a tiled layout only (asked {} -> {})",
             static_cast<int>(inL), static_cast<int>(outL));
    const bool faces = (to_tiles ? outL : inL) == TensorLayoutType::TILED_NFACES;
    return tt::tilize_detail::convert(tt::stl::Span<const T>(inp.data(), inp.size()), shape[0], shape[1], faces,
                                      to_tiles, "convert_layout");
}

template <typename T>
std::vector<T> tilize_nfaces(const std::vector<T>& input, uint32_t m, uint32_t n) {
    return tt::tilize_detail::convert<T>(input, m, n, true, true, "tilize_nfaces");
}

template <typename T>
std::vector<T> untilize_nfaces(const std::vector<T>& input, uint32_t m, uint32_t n) {
    return tt::tilize_detail::convert<T>(input, m, n, true, false, "untilize_nfaces");
}

template <typename T>
std::vector<T> tilize_swizzled(const std::vector<T>& input, uint32_t m, uint32_t n) {
    return tt::tilize_detail::convert<T>(input, m, n, false, true, "tilize_swizzled");
}

template <typename T>
std::vector<T> untilize_swizzled(const std::vector<T>& input, uint32_t m, uint32_t n) {
    return tt::tilize_detail::convert<T>(input, m, n, false, false, "untilize_swizzled");
}
