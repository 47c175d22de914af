// ndshard/testkit/static_kinds.hpp - from a rank and a bank count known only at run time
// to an accessor type whose compile-time words hold them (props/accessor.cpp,
// fuzz/fuzz_accessor_args.cpp).
//
// Each function calls `f.template operator()<CT>()` with the compile-time words CT of the
// kind asked for, so `f` is a lambda `[&]<auto CT>() { ... accessor<CT> a(...); ... }`, and
// returns whether that kind is instantiated for these values (a static bank count only
// for static_bank_counts, a static rank with a static bank count only for
// static_rank_bank_counts: each accessor type with a runtime rank compiles every query for
// 24 (rank, quotient) views, so each count costs seconds of compile time).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "ndshard/accessor.hpp"
#include "ndshard/args.hpp"

namespace ndshard::testkit {

template <std::uint32_t Mask, bool Contiguous, std::uint32_t... Words>
inline constexpr std::array<std::uint32_t, 1 + sizeof...(Words)> ct_words{
    arg::magic | Mask | (Contiguous ? arg::contiguous : 0U), Words...};

// One bank, a power of two, an odd count, and 12 (DRAM banks).
inline constexpr std::array<std::uint32_t, 4> static_bank_counts{1, 2, 3, 12};
inline constexpr std::array<std::uint32_t, 2> static_rank_bank_counts{1, 12};

// The all-runtime words of a deal rule.
template <class F>
bool with_runtime_kind(bool contiguous, F&& f) {
    if (contiguous) f.template operator()<ct_words<arg::all_runtime, true>>();
    else f.template operator()<ct_words<arg::all_runtime, false>>();
    return true;
}

// A compile-time rank (1..max_rank).
template <class F>
bool with_static_rank(std::uint32_t rank, bool contiguous, F&& f) {
    return [&]<std::uint32_t... R>(std::integer_sequence<std::uint32_t, R...>) {
        return ((rank == R + 1 && (contiguous ? f.template operator()<ct_words<arg::rank, true, R + 1>>()
                                              : f.template operator()<ct_words<arg::rank, false, R + 1>>(),
                                   true)) ||
                ...);
    }
    (std::make_integer_sequence<std::uint32_t, max_rank>{});
}

// A compile-time bank count (one of static_bank_counts).
template <class F>
bool with_static_banks(std::uint32_t banks, bool contiguous, F&& f) {
    return [&]<std::size_t... B>(std::index_sequence<B...>) {
        return ((banks == static_bank_counts[B] &&
                 (contiguous ? f.template operator()<ct_words<arg::num_banks, true, static_bank_counts[B]>>()
                             : f.template operator()<ct_words<arg::num_banks, false, static_bank_counts[B]>>(),
                  true)) ||
                ...);
    }
    (std::make_index_sequence<static_bank_counts.size()>{});
}

namespace static_kinds_detail {
template <std::uint32_t Rank, class F, std::size_t... B>
bool with_static_banks_of_rank(std::uint32_t banks, bool contiguous, F& f, std::index_sequence<B...>) {
    constexpr std::uint32_t mask = arg::rank | arg::num_banks;
    return ((banks == static_rank_bank_counts[B] &&
             (contiguous ? f.template operator()<ct_words<mask, true, Rank, static_rank_bank_counts[B]>>()
                         : f.template operator()<ct_words<mask, false, Rank, static_rank_bank_counts[B]>>(),
              true)) ||
            ...);
}
}  // namespace static_kinds_detail

// A compile-time rank and bank count (one of static_rank_bank_counts).
template <class F>
bool with_static_rank_banks(std::uint32_t rank, std::uint32_t banks, bool contiguous, F&& f) {
    return [&]<std::uint32_t... R>(std::integer_sequence<std::uint32_t, R...>) {
        return (
            (rank == R + 1 && static_kinds_detail::with_static_banks_of_rank<R + 1>(
                                  banks, contiguous, f, std::make_index_sequence<static_rank_bank_counts.size()>{})) ||
            ...);
    }
    (std::make_integer_sequence<std::uint32_t, max_rank>{});
}

// Any of the four masks above (all_runtime, rank, num_banks, rank | num_banks); false for
// another mask, which needs a constexpr layout.
template <class F>
bool with_static_kind(std::uint32_t mask, std::uint32_t rank, std::uint32_t banks, bool contiguous, F&& f) {
    switch (mask) {
        case arg::all_runtime:
            return with_runtime_kind(contiguous, f);
        case arg::rank:
            return with_static_rank(rank, contiguous, f);
        case arg::num_banks:
            return with_static_banks(banks, contiguous, f);
        case arg::rank | arg::num_banks:
            return with_static_rank_banks(rank, banks, contiguous, f);
        default:
            return false;
    }
}

}  // namespace ndshard::testkit
