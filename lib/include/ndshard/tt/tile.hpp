// ndshard/tt/tile.hpp - the bytes of one tile of a tt-metal DataFormat (tensix_types.h's
// values): what get_tile_size(cb) answers and what InterleavedAddrGenFast strides a bank
// by. Freestanding, C++17.
#pragma once

#include <cstdint>

namespace ndshard::tt {

// `tile_hw` elements of `format`: 1, 2 or 4 bytes an element; a block float its mantissas
// (2, 4 or 8 bits) plus one shared exponent byte per 16 elements. 32 x 32: Float32 4096,
// Float16_b 2048, Bfp8_b 1088, Bfp4_b 576, UInt8 1024. An unknown format counts as Bfp8.
constexpr std::uint32_t tile_bytes(std::uint32_t format, std::uint32_t tile_hw) noexcept {
    const std::uint32_t exponents = tile_hw / 16;
    switch (format & 0x1F) {
        case 30:  // UInt8
            return tile_hw;
        case 9:  // UInt16
        case 1:  // Float16
        case 5:  // Float16_b
            return tile_hw * 2;
        case 8:   // Int32
        case 24:  // UInt32
        case 0:   // Float32
            return tile_hw * 4;
        case 11:  // Bfp2
        case 15:  // Bfp2_b
            return tile_hw / 4 + exponents;
        case 3:  // Bfp4
        case 7:  // Bfp4_b
            return tile_hw / 2 + exponents;
        default:  // Bfp8, Bfp8_b
            return tile_hw + exponents;
    }
}
static_assert(tile_bytes(0, 1024) == 4096 && tile_bytes(5, 1024) == 2048 && tile_bytes(6, 1024) == 1088);

}  // namespace ndshard::tt
