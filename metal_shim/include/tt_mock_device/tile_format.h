// Tiles in L1 and their conversion to and from DST.
//
// A 32x32 tile is stored in L1 as four 16x16 faces (f0 = rows 0-15/cols 0-15, f1 = rows 0-15/cols 16-31,
// f2 = rows 16-31/cols 0-15, f3 = rows 16-31/cols 16-31), each face row-major, elements in the CB's data
// format. Unpacking converts a tile to 1024 fp32 values in row-major order (the layout of a DST tile);
// packing converts back, rounding to nearest-even for Float16_b and Float16. Row-major ("untilized")
// data is plain row-major in the same element format.
#pragma once

#include <cstdint>
#include <cstring>

#include "tt_mock_device/data_format.h"

namespace tt_mock_device {

constexpr uint32_t kTileDim = 32;
constexpr uint32_t kTileElements = 1024;
constexpr uint32_t kFaceDim = 16;

inline float bf16_to_float(uint16_t bits) {
    uint32_t u = uint32_t(bits) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

inline uint16_t float_to_bf16(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return 0x7fc0;
    return uint16_t((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

inline float fp16_to_float(uint16_t bits) {
    _Float16 h;
    std::memcpy(&h, &bits, 2);
    return float(h);
}

inline uint16_t float_to_fp16(float f) {
    _Float16 h = _Float16(f);
    uint16_t bits;
    std::memcpy(&bits, &h, 2);
    return bits;
}

inline bool is_supported_tile_format(DataFormat format) {
    return format == DataFormat::Float16_b || format == DataFormat::Float16 || format == DataFormat::Float32;
}

// Converts `count` contiguous elements of `format` at `src` to fp32.
inline void load_elements(const void* src, DataFormat format, float* dst, uint32_t count) {
    if (format == DataFormat::Float32) {
        std::memcpy(dst, src, count * 4);
    } else if (format == DataFormat::Float16_b) {
        const uint16_t* s = static_cast<const uint16_t*>(src);
        for (uint32_t i = 0; i < count; i++)
            dst[i] = bf16_to_float(s[i]);
    } else {
        const uint16_t* s = static_cast<const uint16_t*>(src);
        for (uint32_t i = 0; i < count; i++)
            dst[i] = fp16_to_float(s[i]);
    }
}

// Converts `count` fp32 values to `format` at `dst`.
inline void store_elements(const float* src, DataFormat format, void* dst, uint32_t count) {
    if (format == DataFormat::Float32) {
        std::memcpy(dst, src, count * 4);
    } else if (format == DataFormat::Float16_b) {
        uint16_t* d = static_cast<uint16_t*>(dst);
        for (uint32_t i = 0; i < count; i++)
            d[i] = float_to_bf16(src[i]);
    } else {
        uint16_t* d = static_cast<uint16_t*>(dst);
        for (uint32_t i = 0; i < count; i++)
            d[i] = float_to_fp16(src[i]);
    }
}

inline uint32_t element_bytes(DataFormat format) {
    return format == DataFormat::Float32 ? 4 : 2;
}

// L1 tile (four faces) -> 1024 row-major fp32 values.
inline void unpack_tile(const void* tile, DataFormat format, float* out) {
    const uint8_t* bytes = static_cast<const uint8_t*>(tile);
    const uint32_t eb = element_bytes(format);
    for (uint32_t face = 0; face < 4; face++) {
        const uint32_t row0 = (face / 2) * kFaceDim, col0 = (face % 2) * kFaceDim;
        for (uint32_t r = 0; r < kFaceDim; r++) {
            const uint8_t* src = bytes + (face * 256 + r * kFaceDim) * eb;
            load_elements(src, format, out + (row0 + r) * kTileDim + col0, kFaceDim);
        }
    }
}

// 1024 row-major fp32 values -> L1 tile (four faces).
inline void pack_tile_data(const float* in, DataFormat format, void* tile) {
    uint8_t* bytes = static_cast<uint8_t*>(tile);
    const uint32_t eb = element_bytes(format);
    for (uint32_t face = 0; face < 4; face++) {
        const uint32_t row0 = (face / 2) * kFaceDim, col0 = (face % 2) * kFaceDim;
        for (uint32_t r = 0; r < kFaceDim; r++) {
            uint8_t* dst = bytes + (face * 256 + r * kFaceDim) * eb;
            store_elements(in + (row0 + r) * kTileDim + col0, format, dst, kFaceDim);
        }
    }
}

}  // namespace tt_mock_device
