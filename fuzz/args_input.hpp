// fuzz/args_input.hpp - the input format of fuzz_accessor_args, written once for
// decoding (the target) and encoding (fuzz/seedgen.cpp builds seeds with it).
//
// An input is a list of byte_entropy choices:
//   mode 0 (raw words):  accessor kind, the fields of the words (rank, banks, shapes,
//                        coordinates, bank base, page size), then a corruption
//   mode 1 (from a spec): a spec through the testkit generator, a static mask, squeeze
//                        or not, then a corruption
// The words of mode 0 get a correct checksum before the corruption is applied, so most
// inputs reach the accessor's shape and address checks instead of dying at the checksum.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include <ndshard/args.hpp>
#include <ndshard/testkit/arg_words.hpp>
#include <ndshard/testkit/entropy.hpp>
#include <ndshard/testkit/spec_gen.hpp>

namespace ndshard::fuzz {

// Accessor kinds the target can instantiate: templates need their compile-time words, so
// these are all-runtime (round robin, contiguous) and rank-static for ranks 1..8 (both).
inline constexpr std::uint64_t kind_count = 18;
constexpr bool kind_contiguous(std::uint64_t kind) { return kind == 1 || kind >= 10; }
constexpr std::uint32_t kind_static_rank(std::uint64_t kind) {  // 0: runtime rank
    return kind < 2 ? 0 : static_cast<std::uint32_t>(kind < 10 ? kind - 1 : kind - 9);
}
constexpr std::uint64_t kind_of(std::uint32_t static_rank, bool contiguous) {
    if (static_rank == 0) return contiguous ? 1 : 0;
    return static_rank + (contiguous ? 9 : 1);
}

// The compile-time words of a kind.
inline std::vector<std::uint32_t> kind_words(std::uint64_t kind) {
    const std::uint32_t contiguous = kind_contiguous(kind) ? arg::contiguous : 0U;
    const std::uint32_t rank = kind_static_rank(kind);
    if (rank == 0) return {arg::magic | contiguous};
    return {arg::magic | arg::rank | contiguous, rank};
}

// How the words are damaged after the checksum is computed.
enum class corruption : std::uint64_t { none, flip, truncate, append, checksum, drop_checksum };
inline constexpr std::uint64_t corruption_choices = 16;  // 0..10 none, then one each
constexpr corruption corruption_of(std::uint64_t choice) {
    return choice <= 10 ? corruption::none : static_cast<corruption>(choice - 10);
}

struct damage {
    std::uint64_t choice = 0;  // corruption_of(choice)
    std::uint64_t where = 0;   // word index (modulo the length)
    std::uint32_t what = 0;    // xor mask / appended word / checksum delta (0 becomes 1)
};

struct raw_args {
    std::uint64_t kind = 0;
    std::uint32_t rank = 1;  // read only for runtime-rank kinds
    std::uint32_t banks = 0;
    std::vector<std::uint32_t> tensor, shard;  // min(rank, 8) dims each
    // Bank coordinates: a list, or a pattern (x0 + i % width, y0 + i / width) with overrides.
    std::uint64_t listed = 0;
    std::vector<std::uint32_t> coords;  // listed: one word per bank (banks <= coord_list_limit)
    std::uint32_t width = 1, x0 = 0, y0 = 0;
    std::vector<std::pair<std::uint64_t, std::uint32_t>> overrides;  // (bank, word)
    std::uint32_t bank_base = 0;
    std::uint32_t page_size = 1;
    damage dmg;
};

struct spec_tail {
    std::uint64_t mask = 0;     // static mask 0..31 (16 of the 32 are invalid)
    std::uint64_t squeeze = 0;  // 1: words of squeeze(layout)
    damage dmg;
};

inline constexpr std::uint32_t coord_list_limit = 4096;
inline constexpr std::uint32_t coord_word_limit = 65537;  // more banks are rejected before their coordinates

// mode 1's spec comes from the one generator; explicit mode lets a seed spell it out.
inline testkit::spec_options args_spec_options() {
    testkit::spec_options o;
    o.max_pages = 4096;
    o.huge_percent = 15;
    o.explicit_percent = 20;
    return o;
}

// A 32-bit word: small, 16-bit, next to a power of two 2^0..2^32 (modulo 2^32), or any
// value (testkit/entropy.hpp).
template <class Io>
void word_value(Io& io, std::uint32_t& v) {
    testkit::edge_value<32>(io, v);
}

// Bank counts: mostly small, sometimes at the 65536 limit or anywhere.
template <class Io>
void banks_value(Io& io, std::uint32_t& v) {
    std::uint64_t form = 0;
    if constexpr (Io::writing) form = v <= 16 ? 0 : v <= 300 ? 1 : 2;
    io(0, 2, form);
    if (form == 0) io(0, 16, v);
    else if (form == 1) io(0, 300, v);
    else word_value(io, v);
}

template <class Io>
void damage_fields(Io& io, damage& d) {
    io(0, corruption_choices - 1, d.choice);
    if (corruption_of(d.choice) == corruption::none) return;
    io(0, 0xFFFF, d.where);
    word_value(io, d.what);
}

template <class Io>
void raw_fields(Io& io, raw_args& a) {
    io(0, kind_count - 1, a.kind);
    if (kind_static_rank(a.kind) == 0) word_value(io, a.rank);
    else a.rank = kind_static_rank(a.kind);
    banks_value(io, a.banks);
    const std::uint32_t dims = std::min<std::uint32_t>(a.rank, 8);
    if constexpr (!Io::writing) {
        a.tensor.assign(dims, 0);
        a.shard.assign(dims, 0);
    }
    for (auto& t : a.tensor) word_value(io, t);
    for (auto& s : a.shard) word_value(io, s);
    if (a.banks <= coord_list_limit) io(0, 1, a.listed);
    if (a.listed) {
        if constexpr (!Io::writing) a.coords.assign(a.banks, 0);
        for (auto& c : a.coords) io(0, 0xFFFF'FFFFULL, c);
    } else {
        word_value(io, a.width);
        io(0, 0xFFFF, a.x0);
        io(0, 0xFFFF, a.y0);
        std::uint64_t n = a.overrides.size();
        io(0, 8, n);
        if constexpr (!Io::writing) a.overrides.assign(n, {0, 0});
        for (auto& [bank, word] : a.overrides) {
            io(0, 0xFFFF'FFFFULL, bank);
            io(0, 0xFFFF'FFFFULL, word);
        }
    }
    word_value(io, a.bank_base);
    word_value(io, a.page_size);
    damage_fields(io, a.dmg);
}

template <class Io>
void tail_fields(Io& io, spec_tail& t) {
    io(0, 31, t.mask);
    io(0, 1, t.squeeze);
    damage_fields(io, t.dmg);
}

// The runtime words of raw args, checksum included (the compile-time words are the kind's).
inline std::vector<std::uint32_t> runtime_words(const raw_args& a) {
    std::vector<std::uint32_t> rt;
    rt.reserve(3 + a.tensor.size() + a.shard.size() +
               (a.listed ? a.coords.size() : std::min(a.banks, coord_word_limit)));
    if (kind_static_rank(a.kind) == 0) rt.push_back(a.rank);
    rt.push_back(a.banks);
    rt.insert(rt.end(), a.tensor.begin(), a.tensor.end());
    rt.insert(rt.end(), a.shard.begin(), a.shard.end());
    if (a.listed) {
        rt.insert(rt.end(), a.coords.begin(), a.coords.end());
    } else {
        const std::uint32_t n = std::min(a.banks, coord_word_limit);
        const std::uint32_t width = a.width == 0 ? 1 : a.width;
        const std::size_t first = rt.size();
        // Bank i at (x0 + i % width, y0 + i / width), written row by row (one bank per
        // row when the width is 1).
        rt.resize(first + n);
        std::uint32_t* out = rt.data() + first;
        if (width == 1) {
            for (std::uint32_t i = 0; i < n; ++i) out[i] = ((a.x0 & 0xFFFFU) << 16) | ((a.y0 + i) & 0xFFFFU);
        } else {
            for (std::uint32_t i = 0, row = 0; i < n; ++row) {
                const std::uint32_t y = (a.y0 + row) & 0xFFFFU;
                const std::uint32_t columns = std::min(width, n - i);
                for (std::uint32_t column = 0; column < columns; ++column)
                    out[i + column] = (((a.x0 + column) & 0xFFFFU) << 16) | y;
                i += columns;
            }
        }
        for (const auto& [bank, word] : a.overrides)
            if (n > 0) rt[first + bank % n] = word;
    }
    rt.push_back(testkit::arg_words::checksum(kind_words(a.kind), rt));  // as documented, not the library's
    return rt;
}

inline void damage_words(const damage& d, std::vector<std::uint32_t>& words) {
    const std::uint32_t what = d.what == 0 ? 1 : d.what;
    switch (corruption_of(d.choice)) {
        case corruption::none:
            break;
        case corruption::flip:
            if (!words.empty()) words[d.where % words.size()] ^= what;
            break;
        case corruption::truncate:
            words.resize(words.empty() ? 0 : d.where % words.size());
            break;
        case corruption::append:
            words.push_back(d.what);
            break;
        case corruption::checksum:
            if (!words.empty()) words.back() += what;
            break;
        case corruption::drop_checksum:
            if (!words.empty()) words.pop_back();
            break;
    }
}

}  // namespace ndshard::fuzz
