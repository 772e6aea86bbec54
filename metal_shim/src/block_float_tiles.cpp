// pack_as_bfp8_tiles, pack_as_bfp4_tiles and their unpacking (tt-metalium/bfloat8.hpp, bfloat4.hpp): the
// host side of the block-float tile layout in runtime_mock/kernel_abi/block_float.h.
#include <tt-metalium/bfloat4.hpp>
#include <tt-metalium/bfloat8.hpp>
#include <tt_stl/assert.hpp>

#include <cstring>

#include "runtime_mock/kernel_abi/block_float.h"
#include "runtime_mock/kernel_abi/tile_format.h"

namespace {

using runtime_mock::kernel_abi::DataFormat;
namespace abi = runtime_mock::kernel_abi;

// Where value `face_row * 16 + i` of a tile in face order sits in a tile stored row-major.
uint32_t row_major_offset(uint32_t face_row, uint32_t i) {
    const uint32_t face = face_row / abi::kFaceDim, row = face_row % abi::kFaceDim;
    return ((face / 2) * abi::kFaceDim + row) * abi::kTileDim + (face % 2) * abi::kFaceDim + i;
}

template <typename T>
std::vector<uint32_t> pack_tiles(tt::stl::Span<const T> data, bool row_major_input, bool is_exp_a, DataFormat format,
                                 const char* name) {
    TT_FATAL(!is_exp_a, "{}: the \"a\" block-float formats (is_exp_a = true) are not modelled", name);
    TT_FATAL(data.size() % abi::kTileElements == 0, "{}: {} values are not a whole number of 32x32 tiles", name,
             data.size());
    const uint32_t tile_bytes = abi::tile_size_bytes(format), bits = abi::block_float_magnitude_bits(format);
    const size_t tiles = data.size() / abi::kTileElements;
    std::vector<uint32_t> words(tiles * tile_bytes / sizeof(uint32_t));
    for (size_t t = 0; t < tiles; t++) {
        const T* tile = data.data() + t * abi::kTileElements;
        void* packed = reinterpret_cast<uint8_t*>(words.data()) + t * tile_bytes;
        for (uint32_t face_row = 0; face_row < abi::kTileElements / abi::kBlockFloatRow; face_row++) {
            float row[abi::kBlockFloatRow];
            for (uint32_t i = 0; i < abi::kBlockFloatRow; i++) {
                const uint32_t at =
                    row_major_input ? row_major_offset(face_row, i) : face_row * abi::kBlockFloatRow + i;
                row[i] = static_cast<float>(tile[at]);
            }
            abi::store_block_float_row(abi::quantize_like_the_host_library(row, bits), face_row, format, packed);
        }
    }
    return words;
}

std::vector<float> unpack_tiles(tt::stl::Span<const uint32_t> words, bool row_major_output, bool is_exp_a,
                                DataFormat format, const char* name) {
    TT_FATAL(!is_exp_a, "{}: the \"a\" block-float formats (is_exp_a = true) are not modelled", name);
    const uint32_t tile_bytes = abi::tile_size_bytes(format);
    TT_FATAL(words.size() * sizeof(uint32_t) % tile_bytes == 0, "{}: {} words are not a whole number of {}-byte tiles",
             name, words.size(), tile_bytes);
    const size_t tiles = words.size() * sizeof(uint32_t) / tile_bytes;
    std::vector<float> values(tiles * abi::kTileElements);
    for (size_t t = 0; t < tiles; t++) {
        const void* packed = reinterpret_cast<const uint8_t*>(words.data()) + t * tile_bytes;
        float* tile = values.data() + t * abi::kTileElements;
        if (row_major_output) {
            abi::unpack_tile(packed, format, tile);
            continue;
        }
        for (uint32_t face_row = 0; face_row < abi::kTileElements / abi::kBlockFloatRow; face_row++)
            abi::load_block_float_row(packed, face_row, format, tile + face_row * abi::kBlockFloatRow);
    }
    return values;
}

}  // namespace

template <typename T>
std::vector<uint32_t> pack_as_bfp8_tiles(tt::stl::Span<const T> data, bool row_major_input, bool is_exp_a) {
    return pack_tiles(data, row_major_input, is_exp_a, DataFormat::Bfp8_b, "pack_as_bfp8_tiles");
}

template <typename T>
std::vector<uint32_t> pack_as_bfp4_tiles(tt::stl::Span<const T> data, bool row_major_input, bool is_exp_a) {
    return pack_tiles(data, row_major_input, is_exp_a, DataFormat::Bfp4_b, "pack_as_bfp4_tiles");
}

std::vector<float> unpack_bfp8_tiles_into_float_vec(tt::stl::Span<const uint32_t> bfp8_tiles, bool row_major_output,
                                                    bool is_exp_a) {
    return unpack_tiles(bfp8_tiles, row_major_output, is_exp_a, DataFormat::Bfp8_b, "unpack_bfp8_tiles_into_float_vec");
}

std::vector<float> unpack_bfp4_tiles_into_float_vec(tt::stl::Span<const uint32_t> bfp4_tiles, bool row_major_output,
                                                    bool is_exp_a) {
    return unpack_tiles(bfp4_tiles, row_major_output, is_exp_a, DataFormat::Bfp4_b, "unpack_bfp4_tiles_into_float_vec");
}

template std::vector<uint32_t> pack_as_bfp8_tiles<float>(tt::stl::Span<const float>, bool, bool);
template std::vector<uint32_t> pack_as_bfp8_tiles<bfloat16>(tt::stl::Span<const bfloat16>, bool, bool);
template std::vector<uint32_t> pack_as_bfp4_tiles<float>(tt::stl::Span<const float>, bool, bool);
template std::vector<uint32_t> pack_as_bfp4_tiles<bfloat16>(tt::stl::Span<const bfloat16>, bool, bool);
