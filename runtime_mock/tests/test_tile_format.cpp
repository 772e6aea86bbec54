// Tile unpack and pack (runtime_mock/kernel_abi/tile_format.h): unpack_tile and pack_tile_data, which test the
// format once per tile and convert whole face rows (vectorised by the compiler), give the same bits as
// the definition element by element: element (row, col) of the row-major tile is element
// (row % 16) * 16 + col % 16 of face (row / 16) * 2 + col / 16 in L1, converted with bf16_to_float /
// float_to_bf16 (round to nearest even, NaN -> 0x7fc0) or the fp16 and fp32 equivalents. Inputs are
// random bit patterns, so they include NaNs, infinities, subnormals and rounding ties. Built at -O3, which
// vectorises more aggressively than the -O1 -ftree-vectorize of the JIT-built kernels that use these
// functions.
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "runtime_mock/kernel_abi/tile_format.h"

namespace {

using namespace runtime_mock::kernel_abi;

uint32_t l1_offset(uint32_t row, uint32_t col) {
    const uint32_t face = (row / kFaceDim) * 2 + col / kFaceDim;
    return face * 256 + (row % kFaceDim) * kFaceDim + col % kFaceDim;
}

std::vector<uint16_t> random_halves(uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<uint16_t> bits(kTileElements);
    for (uint16_t& b : bits)
        b = uint16_t(rng());
    return bits;
}

std::vector<float> random_floats(uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<float> values(kTileElements);
    for (float& v : values) {
        uint32_t u = rng();
        if (rng() % 4 == 0)
            u = (u & 0xffff0000u) | 0x8000u;  // a bf16 rounding tie
        std::memcpy(&v, &u, 4);
    }
    return values;
}

template <typename T>
void expect_same_bits(const std::vector<T>& actual, const std::vector<T>& expected, const char* what) {
    for (size_t i = 0; i < expected.size(); i++) {
        if (std::memcmp(&actual[i], &expected[i], sizeof(T)) != 0) {
            char message[160];
            std::snprintf(message, sizeof(message), "%s: element %zu (row %zu, col %zu) differs from the definition",
                          what, i, i / kTileDim, i % kTileDim);
            throw std::runtime_error(message);
        }
    }
}

float half_to_float(uint16_t bits, DataFormat format) {
    return format == DataFormat::Float16_b ? bf16_to_float(bits) : fp16_to_float(bits);
}

uint16_t float_to_half(float value, DataFormat format) {
    return format == DataFormat::Float16_b ? float_to_bf16(value) : float_to_fp16(value);
}

// Calls check(format, seed, name) for both 16-bit formats and eight random tiles each.
template <typename Check>
void for_each_16_bit_case(Check check) {
    for (const DataFormat format : {DataFormat::Float16_b, DataFormat::Float16}) {
        for (uint32_t seed = 0; seed < 8; seed++)
            check(format, seed, format == DataFormat::Float16_b ? "Float16_b" : "Float16");
    }
}

}  // namespace

TEST(unpack_of_16_bit_tiles_matches_the_element_definition) {
    for_each_16_bit_case([](DataFormat format, uint32_t seed, const std::string& name) {
        const std::vector<uint16_t> tile = random_halves(seed);
        std::vector<float> expected(kTileElements), actual(kTileElements);
        for (uint32_t row = 0; row < kTileDim; row++)
            for (uint32_t col = 0; col < kTileDim; col++)
                expected[row * kTileDim + col] = half_to_float(tile[l1_offset(row, col)], format);
        unpack_tile(tile.data(), format, actual.data());
        expect_same_bits(actual, expected, ("unpack " + name).c_str());
    });
}

TEST(pack_to_16_bit_tiles_matches_the_element_definition) {
    for_each_16_bit_case([](DataFormat format, uint32_t seed, const std::string& name) {
        const std::vector<float> values = random_floats(seed);
        std::vector<uint16_t> expected(kTileElements), actual(kTileElements);
        for (uint32_t row = 0; row < kTileDim; row++)
            for (uint32_t col = 0; col < kTileDim; col++)
                expected[l1_offset(row, col)] = float_to_half(values[row * kTileDim + col], format);
        pack_tile_data(values.data(), format, actual.data());
        expect_same_bits(actual, expected, ("pack " + name).c_str());
    });
}

TEST(fp32_tiles_unpack_and_pack_as_a_face_reordering) {
    const std::vector<float> values = random_floats(42);
    std::vector<float> tile(kTileElements), expected_tile(kTileElements), back(kTileElements);
    for (uint32_t row = 0; row < kTileDim; row++)
        for (uint32_t col = 0; col < kTileDim; col++)
            expected_tile[l1_offset(row, col)] = values[row * kTileDim + col];
    pack_tile_data(values.data(), DataFormat::Float32, tile.data());
    expect_same_bits(tile, expected_tile, "pack Float32");
    unpack_tile(tile.data(), DataFormat::Float32, back.data());
    expect_same_bits(back, values, "unpack Float32");
}

int main() {
    return test::run_all();
}
