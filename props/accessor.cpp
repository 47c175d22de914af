// Law 5: the accessor equals the oracle on every entry point, for every mix of
// compile-time and runtime arguments.
//
// Entry points: page id (get_bank_and_offset, get_noc_addr with a byte offset), page
// coordinate in the accessor's rank, i.e. the folded layout (get_bank_and_offset_at,
// get_noc_addr_at), shard id (shard_bank_and_offset, get_shard_noc_addr), shard
// coordinate (get_shard_noc_addr_at), locality (is_local_page, is_local_shard,
// is_local_addr). Expected values come from the cpp_int oracle alone: oracle::locate for
// pages (asked by page id; the coordinates handed to the accessor are that id's digits in
// the oracle's folded shape), oracle::shard_location for shards (asked by coordinate),
// and the oracle's core coordinates for locality.
//
// Argument mixes (args.hpp, 15 valid static masks):
//  - generated specs drive what can be instantiated from a spec known only at run time:
//    all-runtime (both deal rules), static rank (ranks 1..8 by a template switch), static
//    bank count and static rank + bank count (for the bank counts listed below), and the
//    words of squeeze(d.layout) (page and shard ids; coordinates are in another rank);
//  - a typed test runs all 15 masks over fixed constexpr layouts (the SEMANTICS vectors,
//    rank 8 uneven, rank 1 at the 32-bit limit, more cores than shards, contiguous,
//    grid_2d, folded, no pages), built with static_words<N>, every page and shard
//    (props/accessor_fixed.cpp; both files are property.accessor, props/accessor_check.hpp
//    holds the comparison they share).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "accessor_check.hpp"
#include "ndshard/squeeze.hpp"
#include "ndshard/testkit/describe.hpp"
#include "ndshard/testkit/rc_entropy.hpp"
#include "ndshard/testkit/rc_oracle.hpp"
#include "ndshard/testkit/spec_gen.hpp"

namespace {

using namespace ndshard;
using namespace ndshard::props;

// ---------------------------------------------------------------------------------
// Generated specs: the masks whose compile-time part is a rank and/or a bank count.

template <std::uint32_t Mask, bool Contiguous, std::uint32_t... Words>
inline constexpr std::array<std::uint32_t, 1 + sizeof...(Words)> ct_words{
    arg::magic | Mask | (Contiguous ? arg::contiguous : 0U), Words...};

// Bank counts instantiated at compile time: one bank, a power of two, an odd count, and
// 12 (DRAM banks). Each accessor type with a runtime rank compiles every query for 24
// (rank, quotient) views, so each count here costs seconds of compile time per build; the
// typed test in accessor_fixed.cpp covers other counts with fixed layouts.
inline constexpr std::array<std::uint32_t, 4> static_bank_counts{1, 2, 3, 12};
inline constexpr std::array<std::uint32_t, 2> static_rank_bank_counts{1, 12};

struct run_context {
    const accessor_words& words;
    std::uint32_t base, page_size;
    const check_plan& plan;
    std::string label;
};

template <bool C, std::size_t... R>
bool run_static_rank(std::uint32_t rank, const run_context& x, std::index_sequence<R...>) {
    return (
        (rank == R + 1 &&
         (check_static<ct_words<arg::rank, C, R + 1>>(x.words.runtime, x.base, x.page_size, x.plan, x.label), true)) ||
        ...);
}

template <bool C, std::size_t... B>
bool run_static_banks(std::uint32_t banks, const run_context& x, std::index_sequence<B...>) {
    return ((banks == static_bank_counts[B] && (check_static<ct_words<arg::num_banks, C, static_bank_counts[B]>>(
                                                    x.words.runtime, x.base, x.page_size, x.plan, x.label),
                                                true)) ||
            ...);
}

template <bool C, std::uint32_t Rank, std::size_t... B>
bool run_static_rank_banks_for(std::uint32_t banks, const run_context& x, std::index_sequence<B...>) {
    return ((banks == static_rank_bank_counts[B] &&
             (check_static<ct_words<arg::rank | arg::num_banks, C, Rank, static_rank_bank_counts[B]>>(
                  x.words.runtime, x.base, x.page_size, x.plan, x.label),
              true)) ||
            ...);
}

template <bool C, std::size_t... R>
bool run_static_rank_banks(std::uint32_t rank, std::uint32_t banks, const run_context& x, std::index_sequence<R...>) {
    return ((rank == R + 1 && run_static_rank_banks_for<C, R + 1>(
                                  banks, x, std::make_index_sequence<static_rank_bank_counts.size()>{})) ||
            ...);
}

// Runs `mask` (a rank and/or bank-count mask) if it can be instantiated for this layout.
bool run_mask(std::uint32_t mask, const distribution& d, const page_layout& layout, const check_plan& plan,
              const std::string& label) {
    const accessor_words w = make_accessor_words(d, mask, &layout);
    const auto base = static_cast<std::uint32_t>(d.bank_base);
    const auto page = static_cast<std::uint32_t>(d.aligned_page_size);
    const run_context x{w, base, page, plan, label};
    const auto rank = static_cast<std::uint32_t>(layout.rank());
    const auto banks = static_cast<std::uint32_t>(d.cores.size());
    const bool contiguous = layout.rule == deal_rule::contiguous;
    switch (mask) {
        case arg::all_runtime:
            with_runtime_accessor(w, base, page, [&](const auto& a) {
                check_accessor(probe<std::decay_t<decltype(a)>>(a), plan, label);
            });
            return true;
        case arg::rank:
            return contiguous ? run_static_rank<true>(rank, x, std::make_index_sequence<max_rank>{})
                              : run_static_rank<false>(rank, x, std::make_index_sequence<max_rank>{});
        case arg::num_banks: {
            constexpr auto all = std::make_index_sequence<static_bank_counts.size()>{};
            return contiguous ? run_static_banks<true>(banks, x, all) : run_static_banks<false>(banks, x, all);
        }
        case arg::rank | arg::num_banks: {
            constexpr auto all = std::make_index_sequence<max_rank>{};
            return contiguous ? run_static_rank_banks<true>(rank, banks, x, all)
                              : run_static_rank_banks<false>(rank, banks, x, all);
        }
        default:
            throw std::logic_error("run_mask: mask " + std::to_string(mask) + " needs a constexpr layout");
    }
}

// Pages to ask: all of a small spec, else first/last/edge-shard/random ones.
std::vector<std::uint64_t> pages_to_check(testkit::entropy& e, const distribution& d) {
    if (d.num_pages() <= 4096) {
        std::vector<std::uint64_t> all(d.num_pages());
        for (std::uint64_t p = 0; p < all.size(); ++p) all[p] = p;
        return all;
    }
    return testkit::sample_pages(e, d, 48);
}

std::vector<std::uint64_t> shards_to_check(testkit::entropy& e, const oracle::model& m,
                                           const std::vector<std::uint64_t>& pages) {
    const std::uint64_t n = to_u64(m.num_shards);
    std::vector<std::uint64_t> s;
    if (n <= 256) {
        for (std::uint64_t i = 0; i < n; ++i) s.push_back(i);
        return s;
    }
    s = {0, n - 1, n / 2};
    for (int i = 0; i < 24; ++i) s.push_back(e.between(0, n - 1));
    for (std::size_t i = 0; i < pages.size() && i < 24; ++i)
        s.push_back(to_u64(oracle::locate(m, big(pages[i])).shard_id));
    return s;
}

void classify_features(const distribution_spec& s) {
    const std::vector<std::string> f = testkit::features(s);
    RC_CLASSIFY(testkit::has_feature(f, "rank:1") || testkit::has_feature(f, "rank:8"), "rank 1 or 8");
    RC_CLASSIFY(testkit::has_feature(f, "folded"), "folded");
    RC_CLASSIFY(testkit::has_feature(f, "strategy:contiguous_1d"), "contiguous");
}

RC_GTEST_PROP(Accessor, EqualsTheOracleForRuntimeRankAndBankArguments, ()) {
    testkit::rc_entropy e;
    testkit::spec_options o;
    o.max_pages = 4096;
    o.huge_percent = 8;
    const distribution d = testkit::generate_distribution(e, o);
    RC_LOG(testkit::describe(d.spec));
    classify_features(d.spec);
    const oracle::model m = accepted_model(d.spec);
    RC_ASSERT(to_u64(m.num_pages) == d.num_pages());

    const std::vector<std::uint64_t> pages = pages_to_check(e, d);
    const check_plan plan = plan_for(m, pages, shards_to_check(e, m, pages));
    int masks_run = 0;
    for (std::uint32_t mask : {arg::all_runtime, arg::rank, arg::num_banks, arg::rank | arg::num_banks})
        masks_run += run_mask(mask, d, d.layout, plan, "static mask " + std::to_string(mask)) ? 1 : 0;
    RC_CLASSIFY(masks_run > 2, "static bank count");

    // Squeezed words: another rank, so ask by page and shard id only.
    const page_layout squeezed = squeeze(d.layout);
    check_plan by_id = plan;
    by_id.coords = false;
    for (std::uint32_t mask : {arg::all_runtime, arg::rank, arg::rank | arg::num_banks})
        run_mask(mask, d, squeezed, by_id, "squeezed, static mask " + std::to_string(mask));
}

}  // namespace
