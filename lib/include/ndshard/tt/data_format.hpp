// ndshard/tt/data_format.hpp - tt-metal's DataFormat values (tensix_types.h), once for both
// sides: a kernel sees it as the global DataFormat (get_dataformat, ndshard/ttsim's kernel
// platform), a host program as tt::DataFormat (tt-metalium/data_types.hpp), ndshard/ttsim's
// program description as ttsim::data_format. The values are the hardware's; tile.hpp gives
// one tile's bytes for each. Freestanding, C++17.
#pragma once

#include <cstdint>

namespace ndshard::tt {

enum class DataFormat : std::uint8_t {
    Float32 = 0,
    Float16 = 1,
    Bfp8 = 2,
    Bfp4 = 3,
    Tf32 = 4,
    Float16_b = 5,
    Bfp8_b = 6,
    Bfp4_b = 7,
    Int32 = 8,
    UInt16 = 9,
    Lf8 = 10,
    Bfp2 = 11,
    Int8 = 14,
    Bfp2_b = 15,
    UInt32 = 24,
    UInt8 = 30,
    RawUInt8 = 0xf0,
    RawUInt16 = 0xf1,
    RawUInt32 = 0xf2,
    Invalid = 0xff,
};

}  // namespace ndshard::tt
