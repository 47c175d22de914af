// ndshard/args.hpp - accessor arguments as flat lists of 32-bit words.
//
// Five arguments - rank, number of banks, tensor shape, shard shape, bank coordinates -
// are each compile-time or runtime. A config word (always compile-time, first) says
// which, and how shards are dealt. Layout, with absent parts skipped:
//
//   compile-time: [config] [rank] [num_banks] [tensor x rank] [shard x rank] [coords x banks]
//   runtime:              [rank] [num_banks] [tensor x rank] [shard x rank] [coords x banks] [checksum]
//
// config = 0x4E44'0000 | static flags (bits 0-4) | contiguous deal (bit 8).
// A coordinate word is (x << 16) | y. The checksum covers every word of both lists
// (checksum_state below: four interleaved FNV-1a lanes), so any single corrupted word is
// detected. A compile-time shape needs a
// compile-time rank, and compile-time coords need a compile-time bank count (otherwise
// their length is unknown at compile time).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "ndshard/checked.hpp"
#include "ndshard/distribution.hpp"
#include "ndshard/error.hpp"

namespace ndshard {

namespace arg {
inline constexpr std::uint32_t rank = 1U << 0;
inline constexpr std::uint32_t num_banks = 1U << 1;
inline constexpr std::uint32_t tensor_shape = 1U << 2;
inline constexpr std::uint32_t shard_shape = 1U << 3;
inline constexpr std::uint32_t bank_coords = 1U << 4;
inline constexpr std::uint32_t all_static = 0x1F;
inline constexpr std::uint32_t all_runtime = 0;
inline constexpr std::uint32_t contiguous = 1U << 8;  // deal rule, not an argument
inline constexpr std::uint32_t magic = 0x4E44'0000U;
inline constexpr std::uint32_t magic_mask = 0xFFFF'0000U;
inline constexpr std::uint32_t known_bits = magic_mask | all_static | contiguous;
}  // namespace arg

// The 15 masks in which every compile-time part knows its own length.
constexpr bool is_valid_static_mask(std::uint32_t mask) noexcept {
    if (mask & ~arg::all_static) return false;
    if ((mask & (arg::tensor_shape | arg::shard_shape)) && !(mask & arg::rank)) return false;
    if ((mask & arg::bank_coords) && !(mask & arg::num_banks)) return false;
    return true;
}

constexpr std::uint32_t pack_core(core_coord c) noexcept { return (c.x << 16) | c.y; }
constexpr core_coord unpack_core(std::uint32_t w) noexcept { return {w >> 16, w & 0xFFFFU}; }

// The checksum: word i of the list (compile-time words, then runtime words) goes to FNV-1a
// lane i % 4, and the value is FNV-1a over the four lane states. One FNV-1a chain costs a
// dependent multiply per word; four independent lanes let those multiplies overlap, which
// is most of what building an accessor from runtime words costs. It still detects any
// single corrupted word: a step (h ^ w) * 16777619 is a bijection of w for fixed h and of
// h for fixed w (the prime is odd), so one changed word changes its lane's final state,
// and the fold is a bijection of each lane's state given the others.
constexpr std::uint32_t checksum_step(std::uint32_t h, std::uint32_t w) noexcept { return (h ^ w) * 16777619U; }
inline constexpr std::uint32_t checksum_seed = 2166136261U;
inline constexpr std::size_t checksum_lanes = 4;

struct checksum_state {
    std::array<std::uint32_t, checksum_lanes> lanes{checksum_seed, checksum_seed, checksum_seed, checksum_seed};
    std::size_t count = 0;  // words so far: the next one goes to lane count % 4

    constexpr checksum_state& add(std::uint32_t w) noexcept {
        std::uint32_t& h = lanes[count++ % checksum_lanes];
        h = checksum_step(h, w);
        return *this;
    }
    template <class Words>
    constexpr checksum_state& add_all(const Words& words) noexcept {
        for (std::uint32_t w : words) add(w);
        return *this;
    }
    // The same for n words at w. Each lane is its own variable, rotated so that w[0] goes
    // to the first, and the words go four at a time: the four chains run side by side.
    constexpr checksum_state& add_all(const std::uint32_t* w, std::size_t n) noexcept {
        const std::size_t first = count % checksum_lanes;
        auto lane = [&](std::size_t k) -> std::uint32_t& { return lanes[(first + k) % checksum_lanes]; };
        std::uint32_t h0 = lane(0), h1 = lane(1), h2 = lane(2), h3 = lane(3);
        std::size_t i = 0;
        for (; i + checksum_lanes <= n; i += checksum_lanes) {
            h0 = checksum_step(h0, w[i]);
            h1 = checksum_step(h1, w[i + 1]);
            h2 = checksum_step(h2, w[i + 2]);
            h3 = checksum_step(h3, w[i + 3]);
        }
        if (i < n) h0 = checksum_step(h0, w[i]);
        if (i + 1 < n) h1 = checksum_step(h1, w[i + 1]);
        if (i + 2 < n) h2 = checksum_step(h2, w[i + 2]);
        lane(0) = h0;
        lane(1) = h1;
        lane(2) = h2;
        lane(3) = h3;
        count += n;
        return *this;
    }
    [[nodiscard]] constexpr std::uint32_t value() const noexcept {
        std::uint32_t h = checksum_seed;
        for (std::uint32_t lane : lanes) h = checksum_step(h, lane);
        return h;
    }
};

struct accessor_words {
    std::vector<std::uint32_t> compile_time;
    std::vector<std::uint32_t> runtime;
    friend bool operator==(const accessor_words&, const accessor_words&) = default;
};

namespace detail {

[[noreturn]] inline void reject_args(const char* rule, const std::string& message) {
    throw spec_error(rule, message + " [rule " + rule + "]");
}

// Shape limits an accessor relies on (same limits make_distribution proves for specs):
// rank 1..8, shard dims >= 1, vol(S) < 2^32, vol(T) with zeros as 1 < 2^32, at most
// 65536 banks, and no banks only when there is nothing to place.
template <class Dims>
constexpr void check_arg_shapes(std::uint32_t rank, const Dims& tensor, const Dims& shard, std::uint32_t banks) {
    std::uint64_t tv = 1, sv = 1, shards = 1;
    for (std::uint32_t d = 0; d < rank; ++d) {
        if (shard[d] == 0) reject_args("args_shape", "shard dim " + std::to_string(d) + " is 0");
        tv = sat_mul(tv, tensor[d] == 0 ? 1 : tensor[d]);
        sv = sat_mul(sv, shard[d]);
        shards = sat_mul(shards, ceil_div(tensor[d], shard[d]));
    }
    if (tv >= two_pow_32) reject_args("args_shape", "tensor spans " + std::to_string(tv) + " page ids, past 2^32-1");
    if (sv >= two_pow_32) reject_args("args_shape", "shard holds " + std::to_string(sv) + " pages, past 2^32-1");
    if (banks > max_cores) reject_args("args_banks", std::to_string(banks) + " banks; at most 65536");
    if (banks == 0 && shards != 0) reject_args("args_banks", "0 banks for " + std::to_string(shards) + " shards");
}

}  // namespace detail

// Appends the words of `l` dealt over `cores` to `ct` and `rt` (any containers with
// push_back, so the same code fills std::vector at run time and fixed arrays at compile
// time). The caller has checked the mask.
template <class CtOut, class RtOut, class Cores>
constexpr void emit_accessor_words(const page_layout& l, const Cores& cores, std::uint32_t static_mask, CtOut& ct,
                                   RtOut& rt) {
    const std::uint32_t config =
        arg::magic | static_mask | (l.rule == deal_rule::contiguous ? arg::contiguous : 0U);
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
    rt.push_back(checksum_state{}.add_all(ct).add_all(rt).value());
}

// Words for an accessor of `d`. `static_mask` (arg:: flags) picks the compile-time
// arguments. `layout` defaults to d.layout; pass squeeze(d.layout) for fewer dims (the
// accessor's page coordinates are then in that layout's rank).
inline accessor_words make_accessor_words(const distribution& d, std::uint32_t static_mask,
                                          const page_layout* layout = nullptr) {
    if (!is_valid_static_mask(static_mask))
        detail::reject_args("args_config", "static mask " + std::to_string(static_mask) +
                                               " is not one of the 15 valid mixes (a compile-time shape needs a "
                                               "compile-time rank; compile-time coords need a compile-time bank count)");
    accessor_words w;
    emit_accessor_words(layout ? *layout : d.layout, d.cores, static_mask, w.compile_time, w.runtime);
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

// Compile-time words as a std::array, for `accessor<words>`: the size is a template
// argument because it must be known before the words are.
template <std::size_t N>
constexpr std::array<std::uint32_t, N> to_static_words(const std::vector<std::uint32_t>& v) {
    if (v.size() != N)
        detail::reject_args("args_length", "expected " + std::to_string(N) + " compile-time words, got " +
                                               std::to_string(v.size()));
    std::array<std::uint32_t, N> a{};
    for (std::size_t i = 0; i < N; ++i) a[i] = v[i];
    return a;
}

}  // namespace ndshard
