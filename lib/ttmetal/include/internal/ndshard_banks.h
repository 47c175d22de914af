// internal/ndshard_banks.h - the platform's bank tables (internal/ndshard_platform.h) as the
// `banks` of ndshard::tt::interleaved_noc_addr, for a DRAM or an L1 interleaved buffer.
#pragma once

#include <cstdint>

#include "internal/ndshard_platform.h"
#include "ndshard/tt/interleaved.hpp"

namespace ndshard::tt {
template <bool Dram>
struct platform_banks {
    std::uint8_t noc;
    std::uint32_t count() const { return Dram ? platform::num_dram_banks() : platform::num_l1_banks(); }
    std::uint32_t xy(std::uint32_t bank) const {
        return Dram ? platform::dram_bank_xy(bank, noc) : platform::l1_bank_xy(bank, noc);
    }
    std::uint32_t offset(std::uint32_t bank) const {
        return Dram ? platform::dram_bank_offset(bank) : platform::l1_bank_offset(bank);
    }
};
// The allocator's alignment of a page in a bank (tt-metal's DRAM_ALIGNMENT, L1_ALIGNMENT).
template <bool Dram>
inline constexpr std::uint32_t bank_alignment = Dram ? chip_dram_alignment : chip_l1_alignment;
}  // namespace ndshard::tt
