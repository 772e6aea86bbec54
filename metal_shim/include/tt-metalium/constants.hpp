// Tile and face geometry: a tile is 32x32 datums stored as four 16x16 faces.
#pragma once

#include <cstdint>

namespace tt::constants {

using std::uint32_t;

constexpr uint32_t TILE_HEIGHT = 32;
constexpr uint32_t TILE_WIDTH = 32;
constexpr uint32_t TILE_HW = TILE_WIDTH * TILE_HEIGHT;
constexpr uint32_t FACE_HEIGHT = 16;
constexpr uint32_t FACE_WIDTH = 16;
constexpr uint32_t FACE_HW = FACE_WIDTH * FACE_HEIGHT;
constexpr uint32_t BFLOAT8_B_TILE_HW = TILE_HW + 64;        // bytes: one byte per datum + 4x16 exponents
constexpr uint32_t BFLOAT4_B_TILE_HW = (TILE_HW / 2) + 64;  // bytes: half a byte per datum + 4x16 exponents

}  // namespace tt::constants
