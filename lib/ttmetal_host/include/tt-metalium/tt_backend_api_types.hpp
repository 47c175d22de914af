// tt-metalium/tt_backend_api_types.hpp - tt::DataFormat, where older tt-metal hosts include
// it, and the bytes of its datums and 32 x 32 tiles (tt::datum_size, tt::tile_size).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "ndshard/tt/tile.hpp"
#include "tt-metalium/data_types.hpp"

namespace tt {

// Bytes of one element; std::invalid_argument for a block float (no element of its own),
// Tf32 and Invalid, as tt-metal.
constexpr std::uint32_t datum_size(const DataFormat& format) {
    switch (format) {
        case DataFormat::Int8:
        case DataFormat::Lf8:
        case DataFormat::UInt8:
        case DataFormat::RawUInt8:
            return 1;
        case DataFormat::Float16:
        case DataFormat::Float16_b:
        case DataFormat::UInt16:
        case DataFormat::RawUInt16:
            return 2;
        case DataFormat::Float32:
        case DataFormat::Int32:
        case DataFormat::UInt32:
        case DataFormat::RawUInt32:
            return 4;
        default:
            throw std::invalid_argument("datum_size: DataFormat " + std::to_string(static_cast<int>(format)) +
                                        " has no size of one element");
    }
}

// Bytes of one 32 x 32 tile: a block float's mantissas and 64 exponent bytes (Bfp8_b 1088,
// Bfp4_b 576, Bfp2_b 320), otherwise 1024 elements of datum_size.
constexpr std::uint32_t tile_size(const DataFormat& format) {
    switch (format) {
        case DataFormat::Bfp8:
        case DataFormat::Bfp8_b:
        case DataFormat::Bfp4:
        case DataFormat::Bfp4_b:
        case DataFormat::Bfp2:
        case DataFormat::Bfp2_b:
            return ::ndshard::tt::tile_bytes(static_cast<std::uint32_t>(format), 1024);
        default:
            return 1024 * datum_size(format);
    }
}

}  // namespace tt
