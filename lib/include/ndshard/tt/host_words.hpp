// ndshard/tt/host_words.hpp - tt-metal's TensorAccessorArgs words written on the host for a
// distribution, in any of the 15 compile-time/runtime mixes and either layout
// (ndshard/tt/words.hpp). What tt-metal's host builder does, minus its defects: dims are
// taken from ndshard's folded layout (no 32-bit product wraps), a coordinate past 8 bits
// is refused rather than truncated.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "ndshard/args.hpp"
#include "ndshard/distribution.hpp"
#include "ndshard/tt/words.hpp"

namespace ndshard::tt {

struct tt_words {
    std::vector<std::uint32_t> compile_time;    // from CTA_OFFSET on
    std::vector<std::uint32_t> common_runtime;  // from the CRTA offset on
    friend bool operator==(const tt_words&, const tt_words&) = default;
};

// Why the words cannot carry this layout over these banks with this config, or "" when they
// can. A contiguous deal needs a compile-time bank count (its flag is bit 31 of that word,
// which ndshard reads at compile time); every coordinate must fit 8 bits.
inline std::string why_no_words(const page_layout& l, std::span<const core_coord> banks, std::uint32_t config) {
    if (!is_valid_runtime_mix(config))
        return "config " + std::to_string(config) +
               ": a runtime rank needs runtime tensor and shard shapes, a runtime bank count runtime coordinates";
    if ((config & ~flag::known) != 0) return "config " + std::to_string(config) + " has bits above bit 7";
    if (l.rule == deal_rule::contiguous && (config & flag::runtime_num_banks))
        return "a contiguous_1d deal travels as bit 31 of the bank count, which must then be a compile-time word";
    if (banks.empty() || banks.size() > max_cores) return std::to_string(banks.size()) + " banks; need 1..65536";
    for (std::size_t b = 0; b < banks.size(); ++b)
        if (banks[b].x > 255 || banks[b].y > 255)
            return "bank " + std::to_string(b) + " at (" + std::to_string(banks[b].x) + "," +
                   std::to_string(banks[b].y) + "): tt-metal packs a coordinate into 8 bits";
    for (std::size_t d = 0; d < l.rank(); ++d)
        if (l.tensor[d] > 0xFFFF'FFFFULL || l.shard[d] > 0xFFFF'FFFFULL)
            return "dim " + std::to_string(d) + " does not fit a 32-bit word";
    return "";
}

// The words of layout `l` dealt over `banks` (bank order; for DRAM each bank's x is its
// bank id). `config` is Sharded (added here), IsDram and the Runtime bits of the mix.
// Throws spec_error (rule args_config) when why_no_words says why not.
inline tt_words make_tt_words(const page_layout& l, std::span<const core_coord> banks, std::uint32_t config,
                              std::uint32_t aligned_page_size, unsigned layout = default_layout) {
    config |= flag::sharded;
    if (const std::string why = why_no_words(l, banks, config); !why.empty())
        ::ndshard::detail::reject_args("args_config", "no tt-metal accessor words: " + why);
    tt_words w;
    w.compile_time.push_back(config);
    if (layout == layout_with_page_size) w.compile_time.push_back(aligned_page_size);
    auto put = [&](std::uint32_t runtime_flag, std::uint32_t value) {
        (config & runtime_flag ? w.common_runtime : w.compile_time).push_back(value);
    };
    put(flag::runtime_rank, static_cast<std::uint32_t>(l.rank()));
    put(flag::runtime_num_banks,
        static_cast<std::uint32_t>(banks.size()) | (l.rule == deal_rule::contiguous ? contiguous_banks_bit : 0U));
    for (std::size_t d = 0; d < l.rank(); ++d) put(flag::runtime_tensor_shape, static_cast<std::uint32_t>(l.tensor[d]));
    for (std::size_t d = 0; d < l.rank(); ++d) put(flag::runtime_shard_shape, static_cast<std::uint32_t>(l.shard[d]));
    // Bank 2k in the low half, 2k + 1 in the high half (0 when the count is odd):
    // banks (1,2),(3,4) -> 0x0304'0102.
    for (std::size_t b = 0; b < banks.size(); b += 2)
        put(flag::runtime_bank_coords,
            pack_bank(banks[b]) | (b + 1 < banks.size() ? pack_bank(banks[b + 1]) << 16 : 0U));
    return w;
}

// A distribution's words: its folded layout over its effective core list, its aligned page size.
inline tt_words make_tt_words(const distribution& d, std::uint32_t config, unsigned layout = default_layout) {
    return make_tt_words(d.layout, d.cores, config, narrow_cast<std::uint32_t>(d.aligned_page_size), layout);
}

// The words of an interleaved buffer: [config] (and [aligned page size] in layout 2); banks
// come from the platform's table, not from the words.
inline tt_words make_interleaved_tt_words(bool dram, std::uint32_t aligned_page_size,
                                          unsigned layout = default_layout) {
    tt_words w;
    w.compile_time.push_back(dram ? flag::is_dram : 0U);
    if (layout == layout_with_page_size) w.compile_time.push_back(aligned_page_size);
    return w;
}

// The Runtime bits of each of the 15 mixes (ndshard's static masks, inverted).
inline std::vector<std::uint32_t> all_runtime_mixes() {
    std::vector<std::uint32_t> out;
    for (std::uint32_t m = 0; m <= arg::all_static; ++m)
        if (is_valid_static_mask(m)) out.push_back(to_runtime_flags(m));
    return out;
}

}  // namespace ndshard::tt
