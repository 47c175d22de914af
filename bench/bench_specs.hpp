// bench/bench_specs.hpp - the specs every benchmark and the callgrind driver use.
//
// One spec per rank 1..8, in pages, over the same 12 cores (a 4x3 grid, x fastest)
// that the interleaved baseline uses as its 12 banks. Every dim is cut unevenly
// (2 <= S[d] < T[d], T[d] % S[d] != 0) and no extent is a power of two, so no dim is
// trivial, no compile-time division becomes a shift, squeeze() cannot merge any two
// dims and the edge shards carry padding: rank R really costs R dims. Each shape is constexpr, so the same spec feeds
// static_words (all arguments compile-time) and make_accessor_words (all runtime).
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "ndshard/ndshard.hpp"

namespace ndshard::bench {

inline constexpr std::uint32_t num_cores = 12;
inline constexpr std::uint32_t bank_base = 0x1'0000;  // a non-zero base keeps the add in the address
inline constexpr std::uint32_t page_size = 2048;      // a bf16 32x32 tile

// The 4x3 grid (0,0)-(3,2) in row-major order: what grid_range(4, 3) expands to.
inline constexpr std::array<core_coord, num_cores> cores = [] {
    std::array<core_coord, num_cores> c{};
    for (std::uint32_t i = 0; i < num_cores; ++i) c[i] = {i % 4, i / 4};
    return c;
}();

struct nd_case {
    shape tensor;  // pages
    shape shard;   // pages
};

// rank:R -> its spec. E.g. rank 4: [7,10,14,20]/[3,3,5,6] -> grid [3,4,3,4], 144 shards, 12 per core.
constexpr nd_case nd_case_of(int rank) {
    switch (rank) {
        case 1:
            return {{1000}, {7}};
        case 2:
            return {{45, 70}, {6, 9}};
        case 3:
            return {{10, 22, 30}, {3, 5, 7}};
        case 4:
            return {{7, 10, 14, 20}, {3, 3, 5, 6}};
        case 5:
            return {{5, 7, 10, 11, 13}, {3, 3, 3, 5, 5}};
        case 6:
            return {{5, 5, 7, 7, 10, 11}, {3, 3, 3, 5, 3, 5}};
        case 7:
            return {{5, 5, 5, 7, 7, 10, 11}, {3, 3, 3, 3, 5, 3, 5}};
        case 8:
            return {{5, 5, 5, 5, 7, 7, 10, 11}, {3, 3, 3, 3, 3, 5, 3, 5}};
        default:
            throw std::invalid_argument("bench specs exist for rank 1..8");
    }
}

constexpr page_layout nd_layout(int rank) {
    const nd_case c = nd_case_of(rank);
    return make_page_layout(c.tensor, c.shard, num_cores, deal_rule::round_robin);
}

// The compile-time words of rank R with every argument static.
template <int R>
inline constexpr auto static_words_of =
    static_words<static_word_count(nd_layout(R), cores, arg::all_static)>(nd_layout(R), cores, arg::all_static);

// The same spec as a user writes it, validated; its words must agree with the constexpr
// layout above (checked by check_case).
inline distribution nd_distribution(int rank) {
    const nd_case c = nd_case_of(rank);
    distribution_spec s;
    s.tensor = c.tensor;
    s.shard = c.shard;
    s.element_size = page_size;  // page_kind::pages: the page size
    s.cores = {grid_range(4, 3)};
    s.bank_base = bank_base;
    return make_distribution(s);
}

// A value the optimiser must not see through. Bank base and page size are runtime
// constructor arguments of every generator measured here (and the interleaved
// generator's bank count is a runtime argument too): without this, a compiler that sees
// the construction folds them into the address code as constants, and what is measured
// silently becomes a different, compile-time generator.
template <class T>
T opaque(T value) {
    asm volatile("" : "+r"(value));
    return value;
}

// Every dim cut unevenly, no power of two, nothing for squeeze() to merge.
constexpr bool honest_rank(int rank) {
    const page_layout l = nd_layout(rank);
    for (std::size_t d = 0; d < l.rank(); ++d) {
        const std::uint64_t t = l.tensor[d], s = l.shard[d];
        if (s < 2 || s >= t || t % s == 0 || (s & (s - 1)) == 0 || (t & (t - 1)) == 0) return false;
    }
    return l.rank() == static_cast<std::size_t>(rank) && squeeze(l).rank() == l.rank();
}
static_assert(honest_rank(1) && honest_rank(2) && honest_rank(3) && honest_rank(4));
static_assert(honest_rank(5) && honest_rank(6) && honest_rank(7) && honest_rank(8));

}  // namespace ndshard::bench
