// ndshard/words.hpp - the accessor's word format, and how a refused word list is reported.
// Freestanding: a kernel includes it (through accessor.hpp); args.hpp builds on it on the host.
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
// detected. A compile-time shape needs a compile-time rank, and compile-time coords need
// a compile-time bank count (otherwise their length is unknown at compile time).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "ndshard/config.hpp"
#include "ndshard/limits.hpp"

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
// The runtime words are tt-metal's common runtime arguments (tt/words.hpp), not ndshard's:
// bank coordinates two to a word (bank 2k in the low half, (x << 8) | y each), no checksum,
// and the list may go on past the accessor's words (other arguments follow).
inline constexpr std::uint32_t tt_dialect = 1U << 9;
// The runtime words end with the geometry the device needs, made on the host (the
// constants of detail/decode.hpp's geometry_state, read_image's layout), before the
// checksum. The accessor then copies them instead of making them: no division, no
// reciprocal, no validation (unless NDSHARD_CHECK_WORDS, below, asks for the checksum).
inline constexpr std::uint32_t precomputed = 1U << 10;
inline constexpr std::uint32_t magic = 0x4E44'0000U;
inline constexpr std::uint32_t magic_mask = 0xFFFF'0000U;
inline constexpr std::uint32_t known_bits = magic_mask | all_static | contiguous | tt_dialect | precomputed;
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
    std::array<std::uint32_t, checksum_lanes> lanes{{checksum_seed, checksum_seed, checksum_seed, checksum_seed}};
    std::uint32_t count = 0;  // words so far: the next one goes to lane count % 4

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
    NDSHARD_INLINE constexpr checksum_state& add_all(const std::uint32_t* w, std::uint32_t n) noexcept {
        const std::uint32_t first = count % checksum_lanes;
        std::uint32_t h[checksum_lanes] = {lanes[first], lanes[(first + 1) % checksum_lanes],
                                           lanes[(first + 2) % checksum_lanes], lanes[(first + 3) % checksum_lanes]};
        std::uint32_t h0 = h[0], h1 = h[1], h2 = h[2], h3 = h[3];
        std::uint32_t i = 0;
        for (; i + checksum_lanes <= n; i += checksum_lanes) {
            h0 = checksum_step(h0, w[i]);
            h1 = checksum_step(h1, w[i + 1]);
            h2 = checksum_step(h2, w[i + 2]);
            h3 = checksum_step(h3, w[i + 3]);
        }
        if (i < n) h0 = checksum_step(h0, w[i]);
        if (i + 1 < n) h1 = checksum_step(h1, w[i + 1]);
        if (i + 2 < n) h2 = checksum_step(h2, w[i + 2]);
        lanes[first] = h0;
        lanes[(first + 1) % checksum_lanes] = h1;
        lanes[(first + 2) % checksum_lanes] = h2;
        lanes[(first + 3) % checksum_lanes] = h3;
        count += n;
        return *this;
    }
    [[nodiscard]] NDSHARD_INLINE constexpr std::uint32_t value() const noexcept {
        std::uint32_t h = checksum_seed;
        for (std::uint32_t lane : lanes) h = checksum_step(h, lane);
        return h;
    }
};

// Why a word list was refused. The rule ids (args_status_rule) are those of docs/rules.md
// that the host's spec_error carries; `value` and `extra` are the offending numbers
// (which ones: see the comment of each code).
enum class args_error : std::uint8_t {
    ok = 0,
    rank,            // value: the runtime rank (not in 1..8)
    short_words,     // value: words given; extra: which part was missing (args_part)
    length,          // value: words expected; extra: words given
    too_many_banks,  // value: the bank count (> 65536)
    no_banks,        // 0 banks for a non-empty tensor
    checksum,        // the checksum word does not match
    zero_shard_dim,  // value: the dim
    tensor_span,     // vol(T) (zero dims as 1) is 2^32 or more
    shard_volume,    // vol(S) is 2^32 or more
    page_size,       // aligned page size 0
    address,         // value: bank base; extra: page size; the reservation ends past 2^32
    deal_flag,       // value: a runtime tt-metal bank count word carrying the contiguous-deal bit
    image,           // value: the first precomputed word that differs from the geometry of the shapes
};

// The part of the runtime words that was missing (args_error::short_words).
enum class args_part : std::uint8_t { rank, bank_count, tensor_shape, shard_shape, bank_coords, checksum, image };

struct args_status {
    args_error error = args_error::ok;
    std::uint32_t value = 0;
    std::uint32_t extra = 0;
    [[nodiscard]] constexpr bool ok() const noexcept { return error == args_error::ok; }
    friend constexpr bool operator==(const args_status& a, const args_status& b) noexcept {
        return a.error == b.error && a.value == b.value && a.extra == b.extra;
    }
    friend constexpr bool operator!=(const args_status& a, const args_status& b) noexcept { return !(a == b); }
};

// The rule id of docs/rules.md for a status: args_status_rule({args_error::checksum}) == "args_checksum".
constexpr const char* args_status_rule(args_error e) noexcept {
    switch (e) {
        case args_error::ok:
            return "";
        case args_error::rank:
            return "args_rank";
        case args_error::short_words:
        case args_error::length:
            return "args_length";
        case args_error::too_many_banks:
        case args_error::no_banks:
            return "args_banks";
        case args_error::checksum:
            return "args_checksum";
        case args_error::zero_shard_dim:
        case args_error::tensor_span:
        case args_error::shard_volume:
            return "args_shape";
        case args_error::page_size:
            return "args_page_size";
        case args_error::address:
            return "address_32bit";
        case args_error::deal_flag:
            return "args_config";
        case args_error::image:
            return "args_precomputed";
    }
    return "?";
}

// NDSHARD_CHECK_WORDS: whether an accessor built from precomputed words (arg::precomputed)
// by its trusting constructor still checks the checksum and the 32-bit address limit.
// On unless defined to 0: every test and sanitizer build keeps it; a kernel that takes
// its words from ndshard's host builder may turn it off to build accessors at the cost
// of copying the constants.
#ifndef NDSHARD_CHECK_WORDS
#define NDSHARD_CHECK_WORDS 1
#endif

// What a kernel's accessor does with a refused word list when it was built without a
// status to report to: call this hook (set it to record the status and stop the kernel
// the way the kernel stops on a failed assertion). The default hook traps. The hook must
// not return; if it does, the accessor traps.
using device_trap_hook = void (*)(const args_status&);
inline device_trap_hook trap_hook = nullptr;

}  // namespace ndshard
