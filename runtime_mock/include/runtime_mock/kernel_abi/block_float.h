// Block-float tiles (Bfp8_b, Bfp4_b): 16 values share one 8-bit exponent, each keeps a sign and a short
// magnitude. One home for the tile layout, read by the simulated unpacker and packer (tile_format.h) and by
// the host library's pack_as_bfp8_tiles / pack_as_bfp4_tiles (tt-metalium/bfloat8.hpp, bfloat4.hpp).
//
// Layout of one 32x32 tile (the SDK's tt_metal/impl/data_format/blockfloat_common.cpp):
//   bytes 0..63   the shared exponents, one per face row: byte face * 16 + row (faces as in tile_format.h);
//   bytes 64..    the magnitudes in face order, element face * 256 + row * 16 + col; Bfp8_b one byte each
//                 (sign << 7 | 7-bit magnitude), Bfp4_b a nibble each (sign << 3 | 3-bit magnitude), the
//                 even element in the low nibble.
// A magnitude m with shared exponent e is the value m * 2^(e - 127 - (bits - 1)): the leading one is stored,
// so the largest value of a row keeps bits-1 fraction bits and smaller ones lose theirs to the right shift.
//
// Two quantizers fill a row, as on the card:
//   - the packer's (device side, what pack_tile writes): the value truncated to bfloat16, its 7-bit
//     magnitude shifted to the shared exponent and rounded half up on the first bit shifted out, then cut to
//     the format's width (tt-llk's golden model, tests/python_tests/helpers/bfp_format_utils.py);
//   - the host library's (pack_as_bfp*_tiles): the full float32 mantissa shifted and rounded to nearest
//     even at the format's width, saturating at the largest magnitude.
// Zeros and subnormals become magnitude 0 in both.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "runtime_mock/kernel_abi/data_format.h"
#include "runtime_mock/kernel_abi/kernel_context.h"

namespace runtime_mock::kernel_abi {

constexpr uint32_t kBlockFloatRow = 16;            // values sharing one exponent: a face row
constexpr uint32_t kBlockFloatExponentBytes = 64;  // one exponent per face row, 64 face rows per tile

// Magnitude bits of a block-float format (with the stored leading one); 0 for any other format.
constexpr uint32_t block_float_magnitude_bits(DataFormat format) {
    return format == DataFormat::Bfp8_b ? 7 : format == DataFormat::Bfp4_b ? 3 : 0;
}

constexpr bool is_block_float(DataFormat format) {
    return block_float_magnitude_bits(format) != 0;
}

inline uint32_t float_bits(float value) {
    uint32_t bits;
    std::memcpy(&bits, &value, 4);
    return bits;
}

// One row's codes (sign and magnitude, `bits` wide) and its shared exponent.
struct BlockFloatRow {
    uint8_t exponent = 0;
    uint8_t codes[kBlockFloatRow] = {};
};

inline uint8_t shared_exponent(const uint32_t* exponents) {
    uint32_t shared = 0;
    for (uint32_t i = 0; i < kBlockFloatRow; i++)
        shared = exponents[i] > shared ? exponents[i] : shared;
    return uint8_t(shared);
}

// The packer's quantizer (see the top of the file).
inline BlockFloatRow quantize_like_the_packer(const float* values, uint32_t bits) {
    uint32_t exponents[kBlockFloatRow], magnitudes[kBlockFloatRow], signs[kBlockFloatRow];
    for (uint32_t i = 0; i < kBlockFloatRow; i++) {
        const uint32_t bf16 = float_bits(values[i]) >> 16;  // truncated, not rounded
        signs[i] = bf16 >> 15;
        exponents[i] = (bf16 >> 7) & 0xff;
        magnitudes[i] = exponents[i] == 0 ? 0 : (((bf16 & 0x7f) >> 1) | 0x40);
    }
    BlockFloatRow row;
    row.exponent = shared_exponent(exponents);
    for (uint32_t i = 0; i < kBlockFloatRow; i++) {
        const uint32_t shift = row.exponent - exponents[i];
        uint32_t m = magnitudes[i];
        if (shift > 7)
            m = 0;
        else if (shift > 0)
            m = (m >> shift) + ((m >> (shift - 1)) & 1);
        m = (m & 0x7f) >> (7 - bits);
        row.codes[i] = uint8_t(signs[i] << bits | m);
    }
    return row;
}

// The host library's quantizer (see the top of the file).
inline BlockFloatRow quantize_like_the_host_library(const float* values, uint32_t bits) {
    uint32_t words[kBlockFloatRow], exponents[kBlockFloatRow];
    for (uint32_t i = 0; i < kBlockFloatRow; i++) {
        words[i] = float_bits(values[i]);
        exponents[i] = (words[i] >> 23) & 0xff;
    }
    BlockFloatRow row;
    row.exponent = shared_exponent(exponents);
    const uint32_t drop = 24 - bits, tie = 1u << (drop - 1), largest = (1u << bits) - 1;
    for (uint32_t i = 0; i < kBlockFloatRow; i++) {
        if (exponents[i] == 0)
            continue;  // zero or subnormal: code 0, positive
        const uint32_t shift = row.exponent - exponents[i];
        const uint32_t mantissa = shift > 24 ? 0 : ((1u << 23) | (words[i] & 0x7fffff)) >> shift;
        const uint32_t rest = mantissa & ((1u << drop) - 1);
        uint32_t m = mantissa >> drop;
        if (rest > tie || (rest == tie && (m & 1)))
            m++;
        m = m < largest ? m : largest;
        row.codes[i] = uint8_t(m == 0 ? 0 : (words[i] >> 31) << bits | m);
    }
    return row;
}

// What a magnitude of 1 is worth in a row of shared exponent `exponent`: 2^(exponent - 127 - (bits - 1)).
inline float block_float_unit(uint8_t exponent, uint32_t bits) {
    return std::ldexp(1.0f, int(exponent) - 127 - int(bits - 1));
}

// The value of one code, given its row's unit; below the smallest normal float it is 0, as the unpacker
// flushes subnormals.
inline float block_float_value(uint8_t code, float unit, uint32_t bits) {
    float magnitude = float(code & ((1u << bits) - 1)) * unit;
    if (magnitude < std::numeric_limits<float>::min())
        magnitude = 0.0f;
    return (code >> bits) & 1 ? -magnitude : magnitude;
}

RUNTIME_MOCK_UNCHECKED inline uint8_t* block_float_codes(void* tile) {
    return static_cast<uint8_t*>(tile) + kBlockFloatExponentBytes;
}

// Writes row `face_row` (0..63, face * 16 + row) of a tile in `format`.
RUNTIME_MOCK_UNCHECKED inline void store_block_float_row(const BlockFloatRow& row, uint32_t face_row, DataFormat format,
                                                         void* tile) {
    static_cast<uint8_t*>(tile)[face_row] = row.exponent;
    uint8_t* codes = block_float_codes(tile);
    const uint32_t first = face_row * kBlockFloatRow;
    if (format == DataFormat::Bfp8_b) {
        std::memcpy(codes + first, row.codes, kBlockFloatRow);
        return;
    }
    for (uint32_t i = 0; i < kBlockFloatRow; i += 2)
        codes[(first + i) / 2] = uint8_t((row.codes[i] & 0xf) | (row.codes[i + 1] & 0xf) << 4);
}

// Reads row `face_row` of a tile in `format` as 16 floats.
RUNTIME_MOCK_UNCHECKED inline void load_block_float_row(const void* tile, uint32_t face_row, DataFormat format,
                                                        float* out) {
    const uint32_t bits = block_float_magnitude_bits(format);
    const float unit = block_float_unit(static_cast<const uint8_t*>(tile)[face_row], bits);
    const uint8_t* codes = block_float_codes(const_cast<void*>(tile));
    const uint32_t first = face_row * kBlockFloatRow;
    for (uint32_t i = 0; i < kBlockFloatRow; i++) {
        const uint32_t e = first + i;
        const uint8_t code = format == DataFormat::Bfp8_b ? codes[e] : uint8_t(codes[e / 2] >> (e % 2 * 4) & 0xf);
        out[i] = block_float_value(code, unit, bits);
    }
}

}  // namespace runtime_mock::kernel_abi
