// ndshard/tt/interleaved.hpp - where tt-metal's interleaved generators put a page: the deal
// of detail/place.hpp over one-page shards, banks taken from the platform's bank table.
// Freestanding, C++17.
#pragma once

#include <cstdint>

#include "ndshard/accessor.hpp"
#include "ndshard/detail/place.hpp"
#include "ndshard/tt/noc.hpp"

namespace ndshard::tt {

// detail/place.hpp's geometry for the deal alone: one-page shards round robin over
// `banks` banks. The quotient is a plain division, which a compile-time bank count (tt-metal's
// NUM_DRAM_BANKS) turns into a multiply.
struct interleaved_deal {
    std::uint32_t banks;
    NDSHARD_INLINE constexpr std::uint32_t deal_div(std::uint32_t s) const noexcept { return s / banks; }
    NDSHARD_INLINE constexpr std::uint32_t num_cores_of() const noexcept { return banks; }
    NDSHARD_INLINE constexpr std::uint32_t deal_block() const noexcept { return 1; }
    NDSHARD_INLINE static constexpr bool contiguous_deal() noexcept { return false; }
};

// Page `id` of an interleaved buffer over `banks` banks: interleaved_place(13, 12) == {1, 1}.
NDSHARD_INLINE constexpr bank_and_offset interleaved_place(std::uint32_t id, std::uint32_t banks) noexcept {
    const deal_result<std::uint32_t> r = ::ndshard::detail::deal(interleaved_deal{banks}, id);
    return {r.core, r.slot};
}

// The 64-bit NoC address of byte `offset` of page `id` of an interleaved buffer at `base`:
// its bank's row (row_bytes(row) bytes into the bank), plus the bank's own offset, on the
// bank's NoC endpoint. `banks` is the platform's bank table: count(), xy(bank) (the packed
// node id) and offset(bank). The one formula behind tt-metal's interleaved generators and
// the interleaved TensorAccessor.
template <class Banks, class RowBytes>
NDSHARD_INLINE inline std::uint64_t interleaved_noc_addr(std::uint32_t id, std::uint32_t base, std::uint32_t offset,
                                                         const RowBytes& row_bytes, const Banks& banks) {
    const bank_and_offset bo = interleaved_place(id, banks.count());
    const std::uint32_t addr = row_bytes(bo.page_offset) + base + offset + banks.offset(bo.bank);
    return noc_packed_addr(banks.xy(bo.bank), addr);
}

// `size` rounded up to a power-of-two alignment: align_up(2050, 32) == 2080.
constexpr std::uint32_t align_up(std::uint32_t size, std::uint32_t alignment) noexcept {
    return (size + alignment - 1) & ~(alignment - 1);
}

}  // namespace ndshard::tt
