// Tiles in L1 and their conversion to and from DST.
//
// A 32x32 tile is stored in L1 as four 16x16 faces (f0 = rows 0-15/cols 0-15, f1 = rows 0-15/cols 16-31,
// f2 = rows 16-31/cols 0-15, f3 = rows 16-31/cols 16-31), each face row-major, elements in the CB's data
// format (block-float formats: block_float.h). Unpacking converts a tile to 1024 fp32 values in row-major
// order (the layout of a DST tile); packing converts back, rounding to nearest-even for Float16_b and
// Float16. Row-major ("untilized") data is plain row-major in the same element format, which a block-float
// format cannot be. None of these conversions is checked per access
// (RUNTIME_MOCK_UNCHECKED, memory_check.h): they touch the CB pages the runtime hands out.
#pragma once

#include <cstdint>
#include <cstring>

#include "runtime_mock/kernel_abi/block_float.h"
#include "runtime_mock/kernel_abi/data_format.h"
#include "runtime_mock/kernel_abi/kernel_context.h"

namespace runtime_mock::kernel_abi {

constexpr uint32_t kTileDim = 32;
constexpr uint32_t kTileElements = 1024;
constexpr uint32_t kFaceDim = 16;

RUNTIME_MOCK_UNCHECKED inline float bf16_to_float(uint16_t bits) {
    uint32_t u = uint32_t(bits) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

RUNTIME_MOCK_UNCHECKED inline uint16_t float_to_bf16(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return 0x7fc0;
    return uint16_t((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

RUNTIME_MOCK_UNCHECKED inline float fp16_to_float(uint16_t bits) {
    _Float16 h;
    std::memcpy(&h, &bits, 2);
    return float(h);
}

RUNTIME_MOCK_UNCHECKED inline uint16_t float_to_fp16(float f) {
    _Float16 h = _Float16(f);
    uint16_t bits;
    std::memcpy(&bits, &h, 2);
    return bits;
}

// The formats the unpacker and packer convert (block-float ones only as tiles: block_float.h). An Int32 tile
// moves between L1 and a 32-bit DST unchanged, each DST slot holding its integer's bits (typecast.h converts
// them to and from float32 there, as the SDK's SFPU typecast does).
inline bool is_supported_tile_format(DataFormat format) {
    return format == DataFormat::Float16_b || format == DataFormat::Float16 || format == DataFormat::Float32 ||
           format == DataFormat::Int32 || is_block_float(format);
}

inline bool holds_32_bit_words(DataFormat format) {
    return format == DataFormat::Float32 || format == DataFormat::Int32;
}

// Runs of `count` contiguous elements of one format, converted to or from fp32. Inlined with a constant
// count (a face row in unpack_tile / pack_tile_data), each becomes a few vector instructions.
template <float (*kToFloat)(uint16_t)>
RUNTIME_MOCK_UNCHECKED inline void load_halves(const uint16_t* src, float* dst, uint32_t count) {
    for (uint32_t i = 0; i < count; i++)
        dst[i] = kToFloat(src[i]);
}

template <uint16_t (*kFromFloat)(float)>
RUNTIME_MOCK_UNCHECKED inline void store_halves(const float* src, uint16_t* dst, uint32_t count) {
    for (uint32_t i = 0; i < count; i++)
        dst[i] = kFromFloat(src[i]);
}

// Converts `count` contiguous elements of `format` at `src` to fp32.
RUNTIME_MOCK_UNCHECKED inline void load_elements(const void* src, DataFormat format, float* dst, uint32_t count) {
    if (holds_32_bit_words(format)) {
        std::memcpy(dst, src, count * 4);
    } else if (format == DataFormat::Float16_b) {
        load_halves<bf16_to_float>(static_cast<const uint16_t*>(src), dst, count);
    } else {
        load_halves<fp16_to_float>(static_cast<const uint16_t*>(src), dst, count);
    }
}

// Converts `count` fp32 values to `format` at `dst`.
RUNTIME_MOCK_UNCHECKED inline void store_elements(const float* src, DataFormat format, void* dst, uint32_t count) {
    if (holds_32_bit_words(format)) {
        std::memcpy(dst, src, count * 4);
    } else if (format == DataFormat::Float16_b) {
        store_halves<float_to_bf16>(src, static_cast<uint16_t*>(dst), count);
    } else {
        store_halves<float_to_fp16>(src, static_cast<uint16_t*>(dst), count);
    }
}

inline uint32_t element_bytes(DataFormat format) {
    return holds_32_bit_words(format) ? 4 : 2;
}

// The face layout: calls row(face_offset, row_major_offset) for each of a tile's 64 face rows of 16
// elements, with the row's element offset in the L1 tile (four faces) and in the row-major tile.
template <typename Row>
RUNTIME_MOCK_UNCHECKED inline void for_each_face_row(Row row) {
    for (uint32_t face = 0; face < 4; face++) {
        const uint32_t row0 = (face / 2) * kFaceDim, col0 = (face % 2) * kFaceDim;
        for (uint32_t r = 0; r < kFaceDim; r++)
            row(face * 256 + r * kFaceDim, (row0 + r) * kTileDim + col0);
    }
}

// L1 tile (four faces) -> 1024 row-major fp32 values. The format is tested once per tile, not per row.
RUNTIME_MOCK_UNCHECKED inline void unpack_tile(const void* tile, DataFormat format, float* out) {
    if (is_block_float(format)) {
        for_each_face_row([&](uint32_t face_at, uint32_t row_at) RUNTIME_MOCK_UNCHECKED {
            load_block_float_row(tile, face_at / kFaceDim, format, out + row_at);
        });
    } else if (holds_32_bit_words(format)) {
        const float* src = static_cast<const float*>(tile);
        for_each_face_row([&](uint32_t face_at, uint32_t row_at) RUNTIME_MOCK_UNCHECKED {
            std::memcpy(out + row_at, src + face_at, kFaceDim * sizeof(float));
        });
    } else if (format == DataFormat::Float16_b) {
        const uint16_t* src = static_cast<const uint16_t*>(tile);
        for_each_face_row([&](uint32_t face_at, uint32_t row_at) RUNTIME_MOCK_UNCHECKED {
            load_halves<bf16_to_float>(src + face_at, out + row_at, kFaceDim);
        });
    } else {
        const uint16_t* src = static_cast<const uint16_t*>(tile);
        for_each_face_row([&](uint32_t face_at, uint32_t row_at) RUNTIME_MOCK_UNCHECKED {
            load_halves<fp16_to_float>(src + face_at, out + row_at, kFaceDim);
        });
    }
}

// 1024 row-major fp32 values -> L1 tile (four faces), block-float rows quantized as the packer does.
RUNTIME_MOCK_UNCHECKED inline void pack_tile_data(const float* in, DataFormat format, void* tile) {
    if (is_block_float(format)) {
        const uint32_t bits = block_float_magnitude_bits(format);
        for_each_face_row([&](uint32_t face_at, uint32_t row_at) RUNTIME_MOCK_UNCHECKED {
            store_block_float_row(quantize_like_the_packer(in + row_at, bits), face_at / kFaceDim, format, tile);
        });
    } else if (holds_32_bit_words(format)) {
        float* dst = static_cast<float*>(tile);
        for_each_face_row([&](uint32_t face_at, uint32_t row_at) RUNTIME_MOCK_UNCHECKED {
            std::memcpy(dst + face_at, in + row_at, kFaceDim * sizeof(float));
        });
    } else if (format == DataFormat::Float16_b) {
        uint16_t* dst = static_cast<uint16_t*>(tile);
        for_each_face_row([&](uint32_t face_at, uint32_t row_at) RUNTIME_MOCK_UNCHECKED {
            store_halves<float_to_bf16>(in + row_at, dst + face_at, kFaceDim);
        });
    } else {
        uint16_t* dst = static_cast<uint16_t*>(tile);
        for_each_face_row([&](uint32_t face_at, uint32_t row_at) RUNTIME_MOCK_UNCHECKED {
            store_halves<float_to_fp16>(in + row_at, dst + face_at, kFaceDim);
        });
    }
}

}  // namespace runtime_mock::kernel_abi
