// ndshard/tt/words.hpp - tt-metal's TensorAccessorArgs words: where each part is, read at
// compile time, and turned into ndshard's own compile-time words, so that one accessor
// (accessor.hpp, with its tt-metal runtime dialect) answers for both. Freestanding, C++17.
//
// The compile-time words (CTA) at CTA_OFFSET, in docs/tt-args.md's terms:
//   layout 2 (tt-metal today, the default):  [config] [aligned page size] [rank] [banks] [tensor] [shard] [coords]
//   layout 1 (tt-metal before the page size): [config] [rank] [banks] [tensor] [shard] [coords]
// where each of the five parts is here unless the config's Runtime bit for it is set; then
// it is in the common runtime words (CRTA) at CRTA_OFFSET, in the same order. Coordinates
// are two banks to a word (bank 2k in the low half, (x << 8) | y each). An interleaved
// buffer (no Sharded bit) has only [config] (and [aligned page size] in layout 2).
// The bank-count word's bit 31 says the shards are dealt contiguously (tt-metal's newest
// arg_config.hpp); ndshard reads it from a compile-time bank count only.
// Define NDSHARD_TT_ARGS_LAYOUT to 1 for tt-metal's older words.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "ndshard/limits.hpp"
#include "ndshard/words.hpp"

#ifndef NDSHARD_TT_ARGS_LAYOUT
#define NDSHARD_TT_ARGS_LAYOUT 2
#endif

namespace ndshard::tt {

// tt-metal's ArgConfig bits (hostdevcommon/tensor_accessor/arg_config.hpp).
namespace flag {
inline constexpr std::uint32_t sharded = 1U << 0;
inline constexpr std::uint32_t is_dram = 1U << 1;
inline constexpr std::uint32_t runtime_rank = 1U << 2;
inline constexpr std::uint32_t runtime_num_banks = 1U << 3;
inline constexpr std::uint32_t runtime_tensor_shape = 1U << 4;
inline constexpr std::uint32_t runtime_shard_shape = 1U << 5;
inline constexpr std::uint32_t runtime_bank_coords = 1U << 6;
inline constexpr std::uint32_t bound = 1U << 7;  // set by tt-metal's framework; says nothing of the layout
inline constexpr std::uint32_t runtime_all = 0x7C;
inline constexpr std::uint32_t known = 0xFF;
}  // namespace flag

// Bit 31 of the bank-count word: shards dealt contiguously (CONTIGUOUS_1D), not round robin.
inline constexpr std::uint32_t contiguous_banks_bit = 1U << 31;

inline constexpr unsigned layout_without_page_size = 1;
inline constexpr unsigned layout_with_page_size = 2;
inline constexpr unsigned default_layout = NDSHARD_TT_ARGS_LAYOUT;
static_assert(default_layout == 1 || default_layout == 2, "NDSHARD_TT_ARGS_LAYOUT must be 1 or 2");

// tt-metal refuses the mixes whose compile-time word positions would depend on a runtime
// value: a runtime rank with a compile-time shape, a runtime bank count with compile-time
// coordinates. That leaves 15 of the 32.
constexpr bool is_valid_runtime_mix(std::uint32_t config) noexcept {
    const bool rank = (config & flag::runtime_rank) != 0;
    const bool shapes = (config & (flag::runtime_tensor_shape | flag::runtime_shard_shape)) ==
                        (flag::runtime_tensor_shape | flag::runtime_shard_shape);
    const bool banks = (config & flag::runtime_num_banks) != 0;
    const bool coords = (config & flag::runtime_bank_coords) != 0;
    return (!rank || shapes) && (!banks || coords);
}

// The ndshard arg:: mask of the parts a config puts in the compile-time words: the
// Runtime bits inverted. to_static_mask(Sharded | RuntimeBankCoords) == arg::all_static & ~arg::bank_coords.
constexpr std::uint32_t to_static_mask(std::uint32_t config) noexcept {
    std::uint32_t m = 0;
    if (!(config & flag::runtime_rank)) m |= arg::rank;
    if (!(config & flag::runtime_num_banks)) m |= arg::num_banks;
    if (!(config & flag::runtime_tensor_shape)) m |= arg::tensor_shape;
    if (!(config & flag::runtime_shard_shape)) m |= arg::shard_shape;
    if (!(config & flag::runtime_bank_coords)) m |= arg::bank_coords;
    return m;
}
// The inverse: the Runtime bits of an ndshard static mask.
constexpr std::uint32_t to_runtime_flags(std::uint32_t static_mask) noexcept {
    std::uint32_t f = 0;
    if (!(static_mask & arg::rank)) f |= flag::runtime_rank;
    if (!(static_mask & arg::num_banks)) f |= flag::runtime_num_banks;
    if (!(static_mask & arg::tensor_shape)) f |= flag::runtime_tensor_shape;
    if (!(static_mask & arg::shard_shape)) f |= flag::runtime_shard_shape;
    if (!(static_mask & arg::bank_coords)) f |= flag::runtime_bank_coords;
    return f;
}

// A bank's coordinate as its 16-bit half of a coordinate word; bank (3,4) -> 0x0304.
constexpr std::uint32_t pack_bank(core_coord c) noexcept { return (c.x << 8) | c.y; }
// Bank b of a list of coordinate words.
template <class Words>
constexpr core_coord unpack_bank(const Words& w, std::size_t first, std::uint32_t b) noexcept {
    const std::uint32_t half = (w[first + b / 2] >> ((b & 1U) * 16)) & 0xFFFFU;
    return {half >> 8, half & 0xFFU};
}
constexpr std::uint32_t coord_words(std::uint32_t banks) noexcept { return banks / 2 + (banks & 1U); }

// Why read_cta refused a compile-time list (cta_error_text says it in words).
enum class cta_error : std::uint8_t {
    none,
    past_end,     // the config word is past the compile-time arguments
    config_bits,  // bits above bit 7
    mix,          // one of the 17 mixes tt-metal refuses
    short_list,   // the list ends before a part its config announces
    rank,         // a compile-time rank not in 1..8
    banks,        // a compile-time bank count not in 1..65536
};
constexpr const char* cta_error_text(cta_error e) noexcept {
    switch (e) {
        case cta_error::none:
            return "";
        case cta_error::past_end:
            return "the config word is past the compile-time arguments";
        case cta_error::config_bits:
            return "the config word has bits above bit 7, which are no ArgConfig flags";
        case cta_error::mix:
            return "a runtime rank needs runtime tensor and shard shapes, a runtime bank count runtime coordinates";
        case cta_error::short_list:
            return "the compile-time arguments end before a part their config announces";
        case cta_error::rank:
            return "the compile-time rank is not in 1..8";
        case cta_error::banks:
            return "the compile-time bank count is not in 1..65536";
    }
    return "?";
}

// What the compile-time words at an offset say, and where each part is; `error` is
// cta_error::none for a valid list (a kernel static_asserts on it).
struct cta_layout {
    std::uint32_t config = 0;
    bool sharded = false, dram = false;
    bool rank_rt = false, banks_rt = false, tensor_rt = false, shard_rt = false, coords_rt = false;
    std::uint32_t aligned_page_size = 0;  // layout 2 only
    std::uint32_t rank = 0;               // compile-time rank, else 0
    std::uint32_t num_banks = 0;          // compile-time bank count (bit 31 cleared), else 0
    bool contiguous = false;              // bit 31 of a compile-time bank count
    std::size_t rank_at = 0, banks_at = 0, tensor_at = 0, shard_at = 0, coords_at = 0, end = 0;
    cta_error error = cta_error::none;

    // Compile-time words this buffer's arguments take.
    [[nodiscard]] constexpr std::size_t count(std::size_t offset) const noexcept { return end - offset; }
    // Common runtime words they take, for a rank and bank count (the runtime ones as read).
    [[nodiscard]] constexpr std::uint32_t runtime_count(std::uint32_t r, std::uint32_t banks) const noexcept {
        if (!sharded) return 0;
        return (rank_rt ? 1U : 0U) + (banks_rt ? 1U : 0U) + (tensor_rt ? r : 0U) + (shard_rt ? r : 0U) +
               (coords_rt ? coord_words(banks) : 0U);
    }
};

// Reads the compile-time words w[offset..]: n is how many words w has.
template <class Words>
constexpr cta_layout read_cta(const Words& w, std::size_t n, std::size_t offset,
                              unsigned layout = default_layout) noexcept {
    cta_layout c;
    if (offset >= n) {
        c.error = cta_error::past_end;
        return c;
    }
    c.config = w[offset];
    c.sharded = (c.config & flag::sharded) != 0;
    c.dram = (c.config & flag::is_dram) != 0;
    c.rank_rt = (c.config & flag::runtime_rank) != 0;
    c.banks_rt = (c.config & flag::runtime_num_banks) != 0;
    c.tensor_rt = (c.config & flag::runtime_tensor_shape) != 0;
    c.shard_rt = (c.config & flag::runtime_shard_shape) != 0;
    c.coords_rt = (c.config & flag::runtime_bank_coords) != 0;
    std::size_t i = offset + 1;
    if ((c.config & ~flag::known) != 0) {
        c.error = cta_error::config_bits;
        return c;
    }
    if (layout == layout_with_page_size) {
        if (i >= n) {
            c.error = cta_error::short_list;
            return c;
        }
        c.aligned_page_size = w[i++];
    }
    if (!c.sharded) {
        c.end = i;
        return c;
    }
    if (!is_valid_runtime_mix(c.config)) {
        c.error = cta_error::mix;
        return c;
    }
    c.rank_at = i;
    if (!c.rank_rt) {
        if (i >= n) {
            c.error = cta_error::short_list;
            return c;
        }
        c.rank = w[i++];
        if (c.rank < 1 || c.rank > max_rank) {
            c.error = cta_error::rank;
            return c;
        }
    }
    c.banks_at = i;
    if (!c.banks_rt) {
        if (i >= n) {
            c.error = cta_error::short_list;
            return c;
        }
        c.num_banks = w[i] & ~contiguous_banks_bit;
        c.contiguous = (w[i++] & contiguous_banks_bit) != 0;
        if (c.num_banks < 1 || c.num_banks > max_cores) {
            c.error = cta_error::banks;
            return c;
        }
    }
    c.tensor_at = i;
    if (!c.tensor_rt) i += c.rank;
    c.shard_at = i;
    if (!c.shard_rt) i += c.rank;
    c.coords_at = i;
    if (!c.coords_rt) i += coord_words(c.num_banks);
    c.end = i;
    if (i > n) c.error = cta_error::short_list;
    return c;
}

// How many ndshard compile-time words read_cta's buffer becomes (to_ndshard_words' N).
constexpr std::size_t ndshard_word_count(const cta_layout& c) noexcept {
    return 1 + (c.rank_rt ? 0 : 1 + (c.tensor_rt ? 0 : c.rank) + (c.shard_rt ? 0 : c.rank)) +
           (c.banks_rt ? 0 : 1 + (c.coords_rt ? 0 : c.num_banks));
}

// The same arguments as ndshard's compile-time words (words.hpp), in tt-metal's runtime
// dialect: the compile-time parts copied, coordinates unpacked to (x << 16) | y.
template <std::size_t N, class Words>
constexpr std::array<std::uint32_t, N> to_ndshard_words(const cta_layout& c, const Words& w) noexcept {
    std::array<std::uint32_t, N> out{};
    std::size_t k = 0;
    out[k++] = arg::magic | arg::tt_dialect | to_static_mask(c.config) | (c.contiguous ? arg::contiguous : 0U);
    if (!c.rank_rt) out[k++] = c.rank;
    if (!c.banks_rt) out[k++] = c.num_banks;
    if (!c.tensor_rt)
        for (std::uint32_t d = 0; d < c.rank; ++d) out[k++] = w[c.tensor_at + d];
    if (!c.shard_rt)
        for (std::uint32_t d = 0; d < c.rank; ++d) out[k++] = w[c.shard_at + d];
    if (!c.coords_rt)
        for (std::uint32_t b = 0; b < c.num_banks; ++b) out[k++] = pack_core(unpack_bank(w, c.coords_at, b));
    return out;
}

}  // namespace ndshard::tt
