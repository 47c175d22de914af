// tt-metalium/data_types.hpp - tt-metal's data-movement processors, NoCs and tt::DataFormat.
#pragma once

#include <cstdint>

namespace tt {

// The values of tt-metal's DataFormat (a CB's get_dataformat in a kernel).
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
    Invalid = 0xff,
};

}  // namespace tt

namespace tt::tt_metal {

enum class DataMovementProcessor { RISCV_0 = 0, RISCV_1 = 1 };

// A NoC by number, or a processor's default one (RISCV_0 -> NoC 0, RISCV_1 -> NoC 1).
enum NOC : std::uint8_t { RISCV_0_default = 0, RISCV_1_default = 1, NOC_0 = 0, NOC_1 = 1 };

// Accepted, not simulated: each kernel uses the NoC it names.
enum NOC_MODE : std::uint8_t { DM_DEDICATED_NOC = 0, DM_DYNAMIC_NOC = 1 };

}  // namespace tt::tt_metal
