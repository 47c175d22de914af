// internal/dataflow/dataflow_api_addrgen.h - tt-metal's interleaved address generators
// (InterleavedAddrGen, InterleavedAddrGenFast, the Pow2 forms), with tt-metal's member
// names so that kernels build them with designated initializers, over one formula
// (ndshard::tt::interleaved_noc_addr) and the platform's bank tables.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include "internal/ndshard_banks.h"
#include "internal/ndshard_platform.h"
#include "ndshard/tt/tile.hpp"

// Bytes of `index` tiles of `format` (tt-metal's DataFormat values) with tile_hw elements
// (ndshard::tt::tile_bytes). Bfp8_b, 32 x 32: 1088.
template <std::uint32_t tile_hw = 1024>
constexpr std::uint32_t MUL_WITH_TILE_SIZE(std::uint32_t format, std::uint32_t index) {
    return index * ::ndshard::tt::tile_bytes(format, tile_hw);
}

constexpr std::uint32_t align_power_of_2(std::uint32_t addr, std::uint32_t alignment) {
    return ::ndshard::tt::align_up(addr, alignment);
}

template <bool DRAM>
struct InterleavedAddrGen {
    static constexpr bool is_dram = DRAM;
    std::uint32_t bank_base_address;
    const std::uint32_t page_size;
    const std::uint32_t aligned_page_size = align_power_of_2(page_size, ::ndshard::tt::bank_alignment<DRAM>);

    [[nodiscard]] std::uint64_t get_noc_addr(const std::uint32_t id, const std::uintptr_t offset = 0,
                                             std::uint8_t noc = noc_index) const {
        const std::uint32_t row = aligned_page_size;
        return ::ndshard::tt::interleaved_noc_addr(
            id, bank_base_address, static_cast<std::uint32_t>(offset), [row](std::uint32_t r) { return r * row; },
            ::ndshard::tt::platform_banks<DRAM>{noc});
    }
};

namespace ndshard::tt::detail {
// The power-of-two generators: log2 of the allocator's alignment, the page size's log2
// raised to it, and the address with a bank row of 2^shift bytes.
template <bool DRAM>
inline constexpr std::uint32_t log2_allocator_alignment = DRAM ? (::ndshard::tt::chip_dram_alignment == 64 ? 6 : 5) : 4;
template <bool DRAM>
constexpr std::uint32_t aligned_log2(std::uint32_t log2_page_size) {
    return log2_page_size > log2_allocator_alignment<DRAM> ? log2_page_size : log2_allocator_alignment<DRAM>;
}
template <bool DRAM>
std::uint64_t pow2_noc_addr(std::uint32_t id, std::uint32_t base, std::uint32_t offset, std::uint32_t shift,
                            std::uint8_t noc) {
    return ::ndshard::tt::interleaved_noc_addr(
        id, base, offset, [shift](std::uint32_t r) { return r << shift; }, ::ndshard::tt::platform_banks<DRAM>{noc});
}
}  // namespace ndshard::tt::detail

template <bool DRAM>
struct InterleavedPow2AddrGen {
    static constexpr bool is_dram = DRAM;
    const std::uint32_t bank_base_address;
    const std::uint32_t log_base_2_of_page_size;
    static constexpr std::uint32_t log_base_2_of_allocator_alignment =
        ::ndshard::tt::detail::log2_allocator_alignment<DRAM>;
    const std::uint32_t aligned_log_base_2_of_page_size =
        ::ndshard::tt::detail::aligned_log2<DRAM>(log_base_2_of_page_size);

    [[nodiscard]] std::uint64_t get_noc_addr(const std::uint32_t id, const std::uint32_t offset = 0,
                                             std::uint8_t noc = noc_index) const {
        return ::ndshard::tt::detail::pow2_noc_addr<DRAM>(id, bank_base_address, offset,
                                                          aligned_log_base_2_of_page_size, noc);
    }
};

template <bool DRAM, std::uint32_t tile_hw = 1024>
struct InterleavedAddrGenFast {
    static constexpr bool is_dram = DRAM;
    std::uint32_t bank_base_address;
    std::uint32_t page_size;
    DataFormat data_format;

    [[nodiscard]] std::uint64_t get_noc_addr(const std::uint32_t id, const std::uint32_t offset = 0,
                                             std::uint8_t noc = noc_index) const {
        const auto format = static_cast<std::uint32_t>(data_format);
        return ::ndshard::tt::interleaved_noc_addr(
            id, bank_base_address, offset, [format](std::uint32_t r) { return MUL_WITH_TILE_SIZE<tile_hw>(format, r); },
            ::ndshard::tt::platform_banks<DRAM>{noc});
    }
};

template <bool DRAM>
struct InterleavedPow2AddrGenFast {
    static constexpr bool is_dram = DRAM;
    std::uint32_t bank_base_address;
    const std::uint32_t log_base_2_of_page_size;
    static constexpr std::uint32_t log_base_2_of_allocator_alignment =
        ::ndshard::tt::detail::log2_allocator_alignment<DRAM>;
    const std::uint32_t aligned_log_base_2_of_page_size =
        ::ndshard::tt::detail::aligned_log2<DRAM>(log_base_2_of_page_size);

    [[nodiscard]] std::uint64_t get_noc_addr(const std::uint32_t id, const std::uint32_t offset = 0,
                                             std::uint8_t noc = noc_index) const {
        return ::ndshard::tt::detail::pow2_noc_addr<DRAM>(id, bank_base_address, offset,
                                                          aligned_log_base_2_of_page_size, noc);
    }
};

// The traits tt-metal's generic page functions ask of an address generator.
template <class T, class = void>
inline constexpr bool has_get_noc_addr_v = false;
template <class T>
inline constexpr bool has_get_noc_addr_v<
    T, std::void_t<decltype(std::declval<const T&>().get_noc_addr(
           std::declval<std::uint32_t>(), std::declval<std::uint32_t>(), std::declval<std::uint8_t>()))>> = true;
template <class T, class = void>
inline constexpr bool has_page_size_v = false;
template <class T>
inline constexpr bool has_page_size_v<T, std::void_t<decltype(std::declval<const T&>().page_size)>> = true;
template <class T, class = void>
inline constexpr bool has_get_aligned_page_size_v = false;
template <class T>
inline constexpr bool
    has_get_aligned_page_size_v<T, std::void_t<decltype(std::declval<const T&>().get_aligned_page_size())>> = true;
template <class T, class = void>
inline constexpr bool has_log_base_2_of_page_size_v = false;
template <class T>
inline constexpr bool
    has_log_base_2_of_page_size_v<T, std::void_t<decltype(std::declval<const T&>().log_base_2_of_page_size)>> = true;
template <class T>
inline constexpr bool has_required_addrgen_traits_v = has_get_noc_addr_v<T> &&
                                                      (has_get_aligned_page_size_v<T> || has_page_size_v<T> ||
                                                       has_log_base_2_of_page_size_v<T>);

// One page's bytes for an address generator: get_aligned_page_size(), else page_size,
// else 1 << log_base_2_of_page_size (tt-metal's order).
template <class AddrGen>
constexpr std::uint32_t page_size_of(const AddrGen& a) {
    if constexpr (has_get_aligned_page_size_v<AddrGen>) return a.get_aligned_page_size();
    else if constexpr (has_page_size_v<AddrGen>) return a.page_size;
    else return std::uint32_t{1} << a.log_base_2_of_page_size;
}

// The NoC address of page `id` (+ offset) of any address generator or TensorAccessor.
template <class AddrGen, std::enable_if_t<has_get_noc_addr_v<AddrGen>, int> = 0>
FORCE_INLINE std::uint64_t get_noc_addr(const std::uint32_t id, const AddrGen& addrgen, std::uint32_t offset = 0,
                                        std::uint8_t noc = noc_index) {
    return addrgen.get_noc_addr(id, offset, noc);
}

// A bank's NoC address, from the platform's table (a DRAM bank adds its offset).
template <bool DRAM>
FORCE_INLINE std::uint64_t get_noc_addr_from_bank_id(std::uint32_t bank_id, std::uint32_t bank_address_offset,
                                                     std::uint8_t noc = noc_index) {
    const ::ndshard::tt::platform_banks<DRAM> banks{noc};
    return ::ndshard::tt::noc_packed_addr(banks.xy(bank_id), bank_address_offset + (DRAM ? banks.offset(bank_id) : 0U));
}
