// ndshard/args.hpp - accessor arguments as flat lists of 32-bit words, made on the host.
//
// The word format itself (and the checksum) is words.hpp, which kernels include; this
// header makes word lists from a validated distribution, with std::vector and exceptions.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "ndshard/checked.hpp"
#include "ndshard/detail/decode.hpp"
#include "ndshard/distribution.hpp"
#include "ndshard/error.hpp"
#include "ndshard/words.hpp"

namespace ndshard {

struct accessor_words {
    std::vector<std::uint32_t> compile_time;
    std::vector<std::uint32_t> runtime;
    friend bool operator==(const accessor_words&, const accessor_words&) = default;
};

namespace detail {

// The host's message for a status of the accessor's word checks (words.hpp); rank, tensor
// and shard are the decoded arguments as far as they were read (for the 64-bit counts
// a message names, which the 32-bit check does not keep).
[[noreturn]] NDSHARD_COLD inline void throw_args_status(const args_status& s, std::uint32_t rank,
                                                        const std::uint32_t* tensor, const std::uint32_t* shard) {
    const char* rule = args_status_rule(s.error);
    auto span = [&](bool tensor_span) {
        std::uint64_t v = 1;
        for (std::uint32_t d = 0; d < rank; ++d)
            v = sat_mul(v, tensor_span ? (tensor[d] == 0 ? 1 : tensor[d]) : shard[d]);
        return v;
    };
    static constexpr const char* parts[] = {
        "the rank",     "the bank count",          "the tensor shape", "the shard shape", "the bank coordinates",
        "the checksum", "the precomputed geometry"};
    switch (s.error) {
        case args_error::ok:
            break;
        case args_error::rank:
            reject_args(rule, "runtime rank " + std::to_string(s.value) + " is not in 1..8");
        case args_error::short_words:
            reject_args(rule, std::string("runtime words end before ") + parts[s.extra] + " (have " +
                                  std::to_string(s.value) + ")");
        case args_error::length:
            reject_args(rule, "expected " + std::to_string(s.value) + " runtime words, got " + std::to_string(s.extra));
        case args_error::too_many_banks:
            reject_args(rule, std::to_string(s.value) + " banks; at most 65536");
        case args_error::no_banks: {
            std::uint64_t shards = 1;
            for (std::uint32_t d = 0; d < rank; ++d) shards = sat_mul(shards, ceil_div(tensor[d], shard[d]));
            reject_args(rule, "0 banks for " + std::to_string(shards) + " shards");
        }
        case args_error::checksum:
            reject_args(rule, "runtime words fail their checksum");
        case args_error::zero_shard_dim:
            reject_args(rule, "shard dim " + std::to_string(s.value) + " is 0");
        case args_error::tensor_span:
            reject_args(rule, "tensor spans " + std::to_string(span(true)) + " page ids, past 2^32-1");
        case args_error::shard_volume:
            reject_args(rule, "shard holds " + std::to_string(span(false)) + " pages, past 2^32-1");
        case args_error::page_size:
            reject_args(rule, "aligned page size 0");
        case args_error::address:
            reject_args(rule, "bank base " + std::to_string(s.value) + " + reserved pages x " +
                                  std::to_string(s.extra) + " bytes ends past 2^32");
        case args_error::image:
            reject_args(rule, "precomputed word " + std::to_string(s.value) +
                                  " differs from the geometry of the shapes the words carry");
        case args_error::deal_flag:
            reject_args(rule, "runtime bank count word " + std::to_string(s.value) +
                                  " carries tt-metal's contiguous-deal bit (bit 31); ndshard decides the deal "
                                  "rule at compile time, so the bank count must be a compile-time word");
    }
    reject_args("args", "unknown word list status");
}

}  // namespace detail

// How the runtime words carry the geometry: as the shapes alone (the accessor derives and
// checks it), or with the derived constants too (words.hpp, arg::precomputed).
enum class word_format : std::uint8_t { plain, precomputed };

// Appends the words of `l` dealt over `cores` to `ct` and `rt` (any containers with
// push_back, so the same code fills std::vector at run time and fixed arrays at compile
// time). The caller has checked the mask.
template <class CtOut, class RtOut, class Cores>
constexpr void emit_accessor_words(const page_layout& l, const Cores& cores, std::uint32_t static_mask, CtOut& ct,
                                   RtOut& rt, word_format format = word_format::plain) {
    const std::uint32_t config = arg::magic | static_mask | (l.rule == deal_rule::contiguous ? arg::contiguous : 0U) |
                                 (format == word_format::precomputed ? arg::precomputed : 0U);
    ct.push_back(config);
    auto put = [&](std::uint32_t flag, std::uint32_t value) {
        if (static_mask & flag) ct.push_back(value);
        else rt.push_back(value);
    };
    put(arg::rank, static_cast<std::uint32_t>(l.rank()));
    put(arg::num_banks, static_cast<std::uint32_t>(l.num_cores));
    for (auto t : l.tensor) put(arg::tensor_shape, narrow_cast<std::uint32_t>(t));
    for (auto s : l.shard) put(arg::shard_shape, narrow_cast<std::uint32_t>(s));
    for (const core_coord& c : cores) put(arg::bank_coords, pack_core(c));
    const std::uint32_t shapes = arg::rank | arg::num_banks | arg::tensor_shape | arg::shard_shape;
    if (format == word_format::precomputed && (static_mask & shapes) != shapes) {
        // The device's geometry, made here by the device's own builder.
        std::array<std::uint32_t, max_rank> t{}, s{};
        for (std::size_t d = 0; d < l.rank(); ++d) {
            t[d] = narrow_cast<std::uint32_t>(l.tensor[d]);
            s[d] = narrow_cast<std::uint32_t>(l.shard[d]);
        }
        detail::geometry_state g{};
        const auto rank = static_cast<std::uint32_t>(l.rank());
        const args_status status = detail::make_geometry(
            g, rank, t.data(), s.data(), static_cast<std::uint32_t>(l.num_cores), l.rule == deal_rule::contiguous);
        if (!status.ok()) detail::throw_args_status(status, rank, t.data(), s.data());
        detail::write_image(g, rt);
    }
    rt.push_back(checksum_state{}.add_all(ct).add_all(rt).value());
}

// Words for an accessor of `d`. `static_mask` (arg:: flags) picks the compile-time
// arguments. `layout` defaults to d.layout; pass squeeze(d.layout) for fewer dims (the
// accessor's page coordinates are then in that layout's rank).
inline accessor_words make_accessor_words(const distribution& d, std::uint32_t static_mask,
                                          const page_layout* layout = nullptr,
                                          word_format format = word_format::plain) {
    if (!is_valid_static_mask(static_mask))
        detail::reject_args("args_config",
                            "static mask " + std::to_string(static_mask) +
                                " is not one of the 15 valid mixes (a compile-time shape needs a "
                                "compile-time rank; compile-time coords need a compile-time bank count)");
    accessor_words w;
    emit_accessor_words(layout ? *layout : d.layout, d.cores, static_mask, w.compile_time, w.runtime, format);
    return w;
}

// A fixed-capacity word list usable in constant expressions.
template <std::size_t Cap>
struct word_list {
    std::array<std::uint32_t, Cap> words{};
    std::size_t size = 0;
    constexpr void push_back(std::uint32_t w) {
        if (size == Cap) detail::reject_args("args_length", "more than " + std::to_string(Cap) + " words");
        words[size++] = w;
    }
    constexpr const std::uint32_t* begin() const { return words.data(); }
    constexpr const std::uint32_t* end() const { return words.data() + size; }
};

// Compile-time words of a layout known at compile time, e.g. in a kernel or benchmark:
//   constexpr auto w = static_words<N>(layout, cores, arg::all_static);  accessor<w> a(rt...);
// N must equal the number of compile-time words (1 + the static parts).
template <std::size_t N, class Cores>
constexpr std::array<std::uint32_t, N> static_words(const page_layout& l, const Cores& cores, std::uint32_t mask) {
    if (!is_valid_static_mask(mask)) detail::reject_args("args_config", "invalid static mask");
    word_list<N> ct;
    struct discard {  // the runtime words are not needed here
        constexpr void push_back(std::uint32_t) noexcept {}
        constexpr const std::uint32_t* begin() const noexcept { return nullptr; }
        constexpr const std::uint32_t* end() const noexcept { return nullptr; }
    } rt;
    emit_accessor_words(l, cores, mask, ct, rt);
    if (ct.size != N) detail::reject_args("args_length", "static_words<N>: N does not match the word count");
    return ct.words;
}

// Number of compile-time words for a layout and mask.
template <class Cores>
constexpr std::size_t static_word_count(const page_layout& l, const Cores& cores, std::uint32_t mask) noexcept {
    std::size_t n = 1;
    if (mask & arg::rank) n += 1;
    if (mask & arg::num_banks) n += 1;
    if (mask & arg::tensor_shape) n += l.rank();
    if (mask & arg::shard_shape) n += l.rank();
    if (mask & arg::bank_coords) n += static_cast<std::size_t>(std::size(cores));
    return n;
}

}  // namespace ndshard
