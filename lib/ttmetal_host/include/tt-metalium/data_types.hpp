// tt-metalium/data_types.hpp - tt-metal's data-movement processors, NoCs and tt::DataFormat.
#pragma once

#include <cstdint>

#include "ndshard/tt/data_format.hpp"

namespace tt {

// The values of tt-metal's DataFormat (a CB's get_dataformat in a kernel).
using DataFormat = ::ndshard::tt::DataFormat;

}  // namespace tt

namespace tt::tt_metal {

enum class DataMovementProcessor { RISCV_0 = 0, RISCV_1 = 1 };

// A NoC by number, or a processor's default one (RISCV_0 -> NoC 0, RISCV_1 -> NoC 1).
enum NOC : std::uint8_t { RISCV_0_default = 0, RISCV_1_default = 1, NOC_0 = 0, NOC_1 = 1 };

// Accepted, not simulated: each kernel uses the NoC it names.
enum NOC_MODE : std::uint8_t { DM_DEDICATED_NOC = 0, DM_DYNAMIC_NOC = 1 };

}  // namespace tt::tt_metal
