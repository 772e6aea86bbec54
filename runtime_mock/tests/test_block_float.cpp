// Block-float tiles (runtime_mock/kernel_abi/block_float.h): the layout, the value of a code, the packer's
// rounding (tt-llk's golden model, written out here element by element) and the host library's
// (tt-metalium/bfloat8.hpp, bfloat4.hpp: round to nearest even, saturating), and round trips through both.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <tt-metalium/bfloat4.hpp>
#include <tt-metalium/bfloat8.hpp>

#include "test_support.hpp"
#include "runtime_mock/kernel_abi/tile_format.h"

namespace {

using namespace runtime_mock::kernel_abi;

void expect_value(float actual, float expected, const std::string& what) {
    if (std::memcmp(&actual, &expected, 4) != 0 && !(actual == 0 && expected == 0)) {
        char message[200];
        std::snprintf(message, sizeof(message), "%s: got %.9g, expected %.9g", what.c_str(), actual, expected);
        throw std::runtime_error(message);
    }
}

// tt-llk's golden packer (bfp_format_utils.py) for one value of a row whose largest exponent is `shared`:
// bfloat16 truncation, a 7-bit magnitude with its leading one, shifted with the first bit out added back,
// cut to `bits`, worth 2^(shared - 126 - bits). Zeros and subnormals are 0.
float golden_packer_value(float value, uint32_t shared, uint32_t bits) {
    uint32_t u;
    std::memcpy(&u, &value, 4);
    const uint32_t bf16 = u >> 16, exponent = (bf16 >> 7) & 0xff;
    if (exponent == 0)
        return 0.0f;
    const uint32_t mantissa = ((bf16 & 0x7f) >> 1) | 0x40, delta = shared - exponent;
    uint32_t rounded = mantissa;
    if (delta > 0)
        rounded = delta > 7 ? 0 : (mantissa >> delta) + ((mantissa >> (delta - 1)) & 1);
    const float magnitude = std::ldexp(float((rounded & 0x7f) >> (7 - bits)), int(shared) - 126 - int(bits));
    return (bf16 >> 15) ? -magnitude : magnitude;
}

uint32_t exponent_of(float value) {
    uint32_t u;
    std::memcpy(&u, &value, 4);
    return (u >> 23) & 0xff;
}

// Rows with values spread over several binades, zeros, and a negative value each.
std::vector<float> random_tile(uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    std::vector<float> values(kTileElements);
    for (uint32_t i = 0; i < kTileElements; i++)
        values[i] = i % 37 == 0 ? 0.0f : std::ldexp(unit(rng), int(rng() % 12) - 6);
    return values;
}

constexpr DataFormat kFormats[] = {DataFormat::Bfp8_b, DataFormat::Bfp4_b};

const char* name_of(DataFormat format) {
    return format == DataFormat::Bfp8_b ? "Bfp8_b" : "Bfp4_b";
}

}  // namespace

TEST(a_code_is_its_magnitude_times_two_to_the_shared_exponent) {
    std::vector<uint8_t> tile(tile_size_bytes(DataFormat::Bfp8_b), 0);
    tile[0] = 127;   // face 0, row 0
    tile[17] = 130;  // face 1, row 1
    const uint8_t codes[] = {0x40, 0x60, 0xc0, 0x01, 0x7f};
    std::memcpy(tile.data() + kBlockFloatExponentBytes, codes, sizeof(codes));
    tile[kBlockFloatExponentBytes + 256 + 16] = 0x50;  // face 1, row 1, col 0: 80 * 2^(130-133) = 10
    std::vector<float> out(kTileElements);
    unpack_tile(tile.data(), DataFormat::Bfp8_b, out.data());
    const float expected[] = {1.0f, 1.5f, -1.0f, 1.0f / 64, 127.0f / 64};
    for (uint32_t i = 0; i < 5; i++)
        expect_value(out[i], expected[i], "Bfp8_b row 0 col " + std::to_string(i));
    expect_value(out[1 * kTileDim + 16], 10.0f, "Bfp8_b row 1 col 16 (face 1)");

    std::vector<uint8_t> tile4(tile_size_bytes(DataFormat::Bfp4_b), 0);
    tile4[0] = 127;
    tile4[kBlockFloatExponentBytes] = 0x4 | 0xe << 4;  // col 0: +4 -> 1.0; col 1: sign, 6 -> -1.5
    unpack_tile(tile4.data(), DataFormat::Bfp4_b, out.data());
    expect_value(out[0], 1.0f, "Bfp4_b col 0 (low nibble)");
    expect_value(out[1], -1.5f, "Bfp4_b col 1 (high nibble)");
}

TEST(the_packer_rounds_as_tt_llks_golden_model) {
    for (const DataFormat format : kFormats) {
        const uint32_t bits = block_float_magnitude_bits(format);
        for (uint32_t seed = 0; seed < 4; seed++) {
            const std::vector<float> values = random_tile(seed);
            std::vector<uint8_t> tile(tile_size_bytes(format));
            std::vector<float> back(kTileElements);
            pack_tile_data(values.data(), format, tile.data());
            unpack_tile(tile.data(), format, back.data());
            for (uint32_t r = 0; r < kTileDim; r++)
                for (uint32_t half = 0; half < 2; half++) {
                    const float* row = values.data() + r * kTileDim + half * kBlockFloatRow;
                    uint32_t shared = 0;
                    for (uint32_t i = 0; i < kBlockFloatRow; i++)
                        shared = std::max(shared, exponent_of(row[i]) & 0xff);
                    for (uint32_t i = 0; i < kBlockFloatRow; i++) {
                        const uint32_t at = r * kTileDim + half * kBlockFloatRow + i;
                        expect_value(back[at], golden_packer_value(row[i], shared, bits),
                                     std::string(name_of(format)) + " seed " + std::to_string(seed) + " row " +
                                         std::to_string(r) + " col " + std::to_string(half * 16 + i));
                    }
                }
        }
    }
}

TEST(the_host_library_rounds_to_nearest_even_and_saturates) {
    // One face row (the first 16 values of a face-order tile) with shared exponent 127 (values in [1, 2)):
    // Bfp8_b keeps six fraction bits, so 1 + 2^-7 is a tie (to even: 1), 1 + 3 * 2^-7 a tie (to 1 + 2^-5),
    // 1.999 rounds up past the largest magnitude (saturates at 127/64), 0.5 is 32/64 exactly, 2^-8 is below
    // half the step and becomes 0, and a value below 2^-7 of a Bfp4_b row is lost the same way.
    std::vector<float> tile(kTileElements, 0.0f);
    const float row[] = {1.0f + 0x1p-7f, 1.0f + 3 * 0x1p-7f, 1.999f, 0.5f, 0x1p-8f, -1.25f};
    std::memcpy(tile.data(), row, sizeof(row));
    const std::vector<float> back8 =
        unpack_bfp8_tiles_into_float_vec(pack_as_bfp8_tiles<float>(tile, false, false), false, false);
    const float expected8[] = {1.0f, 1.03125f, 127.0f / 64, 0.5f, 0.0f, -1.25f};
    for (uint32_t i = 0; i < 6; i++)
        expect_value(back8[i], expected8[i], "pack_as_bfp8_tiles value " + std::to_string(i));
    const std::vector<float> back4 =
        unpack_bfp4_tiles_into_float_vec(pack_as_bfp4_tiles<float>(tile, false, false), false, false);
    const float expected4[] = {1.0f, 1.0f, 1.75f, 0.5f, 0.0f, -1.25f};
    for (uint32_t i = 0; i < 6; i++)
        expect_value(back4[i], expected4[i], "pack_as_bfp4_tiles value " + std::to_string(i));
}

TEST(representable_tiles_round_trip_exactly_through_both_packers) {
    for (const DataFormat format : kFormats) {
        const uint32_t bits = block_float_magnitude_bits(format);
        std::mt19937 rng(7);
        std::vector<float> tile(kTileElements);
        // Each face row: magnitudes k * 2^(e - bits + 1) with k >= 1 (a zero magnitude's sign bit is the one
        // place the two may differ: the packer keeps the value's sign, the host library clears it), the
        // first with its leading one at bit bits - 1 so that e is the row's exponent.
        for (uint32_t i = 0; i < kTileElements; i++) {
            const int e = int(i / 16 % 9) - 4;
            const uint32_t k = i % 16 == 0 ? (1u << (bits - 1)) : 1 + rng() % ((1u << bits) - 1);
            tile[i] = std::ldexp(float(k), e - int(bits) + 1) * (rng() % 2 ? -1.0f : 1.0f);
        }
        std::vector<float> row_major(kTileElements), back(kTileElements);
        for (uint32_t i = 0; i < kTileElements; i++) {  // the face-order tile above, row-major
            const uint32_t face = i / 256, r = i % 256 / 16, c = i % 16;
            row_major[((face / 2) * 16 + r) * kTileDim + (face % 2) * 16 + c] = tile[i];
        }
        std::vector<uint8_t> packed(tile_size_bytes(format));
        pack_tile_data(row_major.data(), format, packed.data());
        unpack_tile(packed.data(), format, back.data());
        for (uint32_t i = 0; i < kTileElements; i++)
            expect_value(back[i], row_major[i], std::string(name_of(format)) + " packer, element " + std::to_string(i));
        const std::vector<uint32_t> words = format == DataFormat::Bfp8_b
                                                ? pack_as_bfp8_tiles<float>(row_major, true, false)
                                                : pack_as_bfp4_tiles<float>(row_major, true, false);
        if (std::memcmp(words.data(), packed.data(), packed.size()) != 0)
            throw std::runtime_error(std::string(name_of(format)) +
                                     ": the host library and the packer store a representable tile differently");
    }
}

int main() {
    return test::run_all();
}
