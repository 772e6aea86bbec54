// Bfp8_b tiles on the host: the SDK's pack_as_bfp8_tiles / unpack_bfp8_tiles_into_float_vec. Tiles are
// 1024 values each, in face order (row_major_input / row_major_output false: what tilize_nfaces gives) or
// row-major within each tile (true); the packed words are the tile layout of
// runtime_mock/kernel_abi/block_float.h, rounded as the SDK's host library rounds. The SDK's optional
// tt::tt_metal::Tile argument (tiles other than 32x32) is not modelled; is_exp_a (the Bfp8 "a" format) must
// be false. Defined in metal_shim/src/block_float_tiles.cpp for float and bfloat16 values.
#pragma once

#include <tt-metalium/bfloat16.hpp>
#include <tt_stl/span.hpp>

#include <cstdint>
#include <vector>

template <typename T>
std::vector<uint32_t> pack_as_bfp8_tiles(tt::stl::Span<const T> data, bool row_major_input, bool is_exp_a);

std::vector<float> unpack_bfp8_tiles_into_float_vec(tt::stl::Span<const uint32_t> bfp8_tiles, bool row_major_output,
                                                    bool is_exp_a);
