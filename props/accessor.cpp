// Law 5: the accessor equals the oracle on every entry point, for every mix of
// compile-time and runtime arguments.
//
// Entry points: all that testkit/accessor_check.hpp walks - sizes; page id
// (get_bank_and_offset, get_noc_addr and bank_address with a byte offset); page coordinate
// in the accessor's rank, i.e. the folded layout (get_bank_and_offset_at, get_noc_addr_at,
// shard_id_at); shard id (shard_bank_and_offset, get_shard_noc_addr); shard coordinate
// (get_shard_noc_addr_at); locality (is_local_page, is_local_shard, is_local_addr); banks
// (bank_coord, shards_in_bank) and the iterators (shard_pages, local_pages, pages). Expected
// values come from the checked-integer oracle alone: oracle::locate for pages (asked by page id;
// the coordinates handed to the accessor are that id's digits in the oracle's folded
// shape), oracle::shard_location for shards (asked by coordinate), pages_of_shard,
// local_pages and shards_on_core for the lists, and the oracle's core coordinates for
// locality.
//
// Argument mixes (args.hpp, 15 valid static masks):
//  - generated specs drive what can be instantiated from a spec known only at run time:
//    all-runtime (both deal rules), static rank (ranks 1..8 by a template switch), static
//    bank count and static rank + bank count (for the bank counts listed below), and the
//    words of squeeze(d.layout) (page and shard ids; coordinates are in another rank);
//  - a typed test runs all 15 masks over fixed constexpr layouts (the docs/semantics.md vectors,
//    rank 8 uneven, rank 1 at the 32-bit limit, more cores than shards, contiguous,
//    grid_2d, folded, no pages), built with static_words<N>, every page and shard
//    (props/accessor_fixed.cpp; both files are property.accessor; the comparison is
//    testkit/accessor_check.hpp's, shared with fuzz/ and bench/).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "ndshard/accessor.hpp"
#include "ndshard/args.hpp"
#include "ndshard/distribution.hpp"
#include "ndshard/squeeze.hpp"
#include "ndshard/testkit/accessor_check.hpp"
#include "ndshard/testkit/describe.hpp"
#include "ndshard/testkit/oracle_bridge.hpp"
#include "ndshard/testkit/rc_entropy.hpp"
#include "ndshard/testkit/rc_oracle.hpp"
#include "ndshard/testkit/spec_gen.hpp"
#include "ndshard/testkit/static_kinds.hpp"

namespace {

using namespace ndshard;
using oracle::big;
using testkit::to_u64;

// ---------------------------------------------------------------------------------
// Generated specs: the masks whose compile-time part is a rank and/or a bank count
// (testkit/static_kinds.hpp lists the bank counts instantiated; the typed test in
// accessor_fixed.cpp covers other counts with fixed layouts).

// Runs `mask` (a rank and/or bank-count mask) if it can be instantiated for this layout.
bool run_mask(std::uint32_t mask, const distribution& d, const page_layout& layout,
              const testkit::accessor_expectation& x, const std::string& label) {
    const accessor_words w = make_accessor_words(d, mask, &layout);
    const auto base = static_cast<std::uint32_t>(d.bank_base);
    const auto page = static_cast<std::uint32_t>(d.aligned_page_size);
    const auto rank = static_cast<std::uint32_t>(layout.rank());
    const auto banks = static_cast<std::uint32_t>(d.cores.size());
    return testkit::with_static_kind(
        mask, rank, banks, layout.rule == deal_rule::contiguous, [&]<auto CT>() {
            const accessor<CT> a(w.runtime, base, page);
            testkit::check_accessor(a, x, testkit::throw_mismatch(label));
        });
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

RC_GTEST_PROP(Accessor, EqualsTheOracleForRuntimeRankAndBankArguments, ()) {
    testkit::rc_entropy e;
    const distribution d = testkit::generate_distribution(e, {.max_pages = 4096, .huge_percent = 8});
    testkit::log_and_classify(
        d.spec,
        {{"rank:1", "rank 1 or 8"}, {"rank:8", "rank 1 or 8"}, "folded", {"strategy:contiguous_1d", "contiguous"}});
    const oracle::model m = testkit::accepted_model(d.spec);
    RC_ASSERT(to_u64(m.num_pages) == d.num_pages());

    const std::vector<std::uint64_t> pages = pages_to_check(e, d);
    // Also the first and last bank, with their pages listed up to 512 reserved per core, and
    // pages() walked up to 1024 pages.
    std::vector<std::uint32_t> banks;
    if (!d.cores.empty()) banks = {0, static_cast<std::uint32_t>(d.cores.size() - 1)};
    const testkit::accessor_expectation x =
        testkit::expect_from_oracle(m, pages, shards_to_check(e, m, pages), banks, 512, 1024);
    int masks_run = 0;
    for (std::uint32_t mask : {arg::all_runtime, arg::rank, arg::num_banks, arg::rank | arg::num_banks})
        masks_run += run_mask(mask, d, d.layout, x, "static mask " + std::to_string(mask)) ? 1 : 0;
    RC_CLASSIFY(masks_run > 2, "static bank count");

    // Squeezed words: another rank, so ask by page and shard id only.
    const page_layout squeezed = squeeze(d.layout);
    testkit::accessor_expectation by_id = x;
    by_id.coords = false;
    by_id.rank.reset();
    for (std::uint32_t mask : {arg::all_runtime, arg::rank, arg::rank | arg::num_banks})
        run_mask(mask, d, squeezed, by_id, "squeezed, static mask " + std::to_string(mask));
}

}  // namespace
