// tt-metalium/constants.hpp - a tile's and a face's shape, where tt-metal factories read them
// (tt::constants): 32 x 32 tiles of four 16 x 16 faces, and the bytes of a Bfp8_b and a
// Bfp4_b tile (their mantissas and 64 exponent bytes).
#pragma once

#include <cstdint>

namespace tt::constants {

inline constexpr std::uint32_t TILE_HEIGHT = 32;
inline constexpr std::uint32_t TILE_WIDTH = 32;
inline constexpr std::uint32_t TILE_HW = TILE_HEIGHT * TILE_WIDTH;
inline constexpr std::uint32_t FACE_HEIGHT = 16;
inline constexpr std::uint32_t FACE_WIDTH = 16;
inline constexpr std::uint32_t FACE_HW = FACE_HEIGHT * FACE_WIDTH;
inline constexpr std::uint32_t BFLOAT8_B_TILE_HW = TILE_HW + 64;
inline constexpr std::uint32_t BFLOAT4_B_TILE_HW = TILE_HW / 2 + 64;

}  // namespace tt::constants
