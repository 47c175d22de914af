// ndshard/tt/noc.hpp - tt-metal's 64-bit NoC addresses for the chip chosen at build time.
// Freestanding, C++17.
//
// A unicast address is y << (L + N) | x << L | local address, with L local-address bits and
// N node-id bits from each architecture's noc_parameters.h (docs/tt-args.md). The chip is
// tt-metal's own build define: ARCH_GRAYSKULL (L = 32), ARCH_BLACKHOLE or ARCH_WORMHOLE
// (L = 36, the default); N = 6 on all three. A bank table (DRAM, or L1 interleaving) holds
// a core as its packed node id, (y << N) | x, which goes above the L local bits.
#pragma once

#include <cstdint>

#include "ndshard/accessor.hpp"

namespace ndshard::tt {

// And the allocator's alignment of a page in a DRAM or an L1 bank (tt-metal's
// DRAM_ALIGNMENT and L1_ALIGNMENT), which the interleaved generators round page sizes to.
#if defined(ARCH_GRAYSKULL)
inline constexpr noc_encoding chip_noc = noc_grayskull;
inline constexpr std::uint32_t chip_dram_alignment = 32;
#elif defined(ARCH_BLACKHOLE)
inline constexpr noc_encoding chip_noc = noc_blackhole;
inline constexpr std::uint32_t chip_dram_alignment = 64;
#else
inline constexpr noc_encoding chip_noc = noc_wormhole_b0;
inline constexpr std::uint32_t chip_dram_alignment = 32;
#endif
inline constexpr std::uint32_t chip_l1_alignment = 16;

// noc_xy_addr(1, 2, 0x10200) == 0x810'0001'0200 on Wormhole.
constexpr std::uint64_t noc_xy_addr(std::uint32_t x, std::uint32_t y, std::uint32_t addr) noexcept {
    return noc_addr{x, y, addr}.encoded(chip_noc);
}
// A core as a bank table holds it: noc_xy_encoding(1, 2) == 0x81.
constexpr std::uint32_t noc_xy_encoding(std::uint32_t x, std::uint32_t y) noexcept {
    return (y << chip_noc.id_bits) | x;
}
constexpr std::uint64_t noc_packed_addr(std::uint32_t xy, std::uint32_t addr) noexcept {
    return (std::uint64_t{xy} << chip_noc.local_bits) | addr;
}
// The parts of a unicast address.
constexpr std::uint32_t noc_addr_x(std::uint64_t a) noexcept {
    return static_cast<std::uint32_t>(a >> chip_noc.local_bits) & ((1U << chip_noc.id_bits) - 1);
}
constexpr std::uint32_t noc_addr_y(std::uint64_t a) noexcept {
    return static_cast<std::uint32_t>(a >> (chip_noc.local_bits + chip_noc.id_bits)) & ((1U << chip_noc.id_bits) - 1);
}
// The local address; a 36-bit field, of which kernels' 32-bit L1 and bank addresses use the low 32.
constexpr std::uint64_t noc_addr_local(std::uint64_t a) noexcept {
    return a & ((std::uint64_t{1} << chip_noc.local_bits) - 1);
}

}  // namespace ndshard::tt
