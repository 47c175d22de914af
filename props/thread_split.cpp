// Laws of tt-metal's newer accessor features, against the oracle (checked integers):
//
//   pages(i, k)           the pages of data-movement thread i of k: every k-th page from
//                         page i, in page id order, each with the oracle's (bank, offset);
//                         the k threads together visit every page exactly once
//   contiguous_pages(p)   the length of the run of pages from p that lie at consecutive
//                         offsets of p's bank (one bulk transfer): p + j sits at
//                         (bank(p), offset(p) + j) for every j < run, and p + run does not
//                         (or is past the last page)
//
// Through an all-runtime accessor (drawn specs are not known at compile time); the
// compile-time instances are checked against the oracle on the device (tests/device).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include <ndshard/oracle/oracle.hpp>

#include "ndshard/accessor.hpp"
#include "ndshard/args.hpp"
#include "ndshard/distribution.hpp"
#include "ndshard/testkit/describe.hpp"
#include "ndshard/testkit/oracle_bridge.hpp"
#include "ndshard/testkit/rc_entropy.hpp"
#include "ndshard/testkit/rc_oracle.hpp"
#include "ndshard/testkit/spec_gen.hpp"

namespace {

namespace oracle = ndshard::oracle;
namespace tk = ndshard::testkit;
using std::uint64_t;

struct home {
    uint64_t core, offset;
};

std::vector<home> oracle_homes(const oracle::model& m) {
    std::vector<home> homes;
    const uint64_t n = tk::to_u64(m.num_pages);
    for (uint64_t p = 0; p < n; ++p) {
        const oracle::location at = oracle::locate(m, oracle::big(p));
        homes.push_back({tk::to_u64(at.core_index), tk::to_u64(at.device_offset)});
    }
    return homes;
}

ndshard::distribution small_distribution(tk::rc_entropy& e) {
    tk::spec_options opts;
    opts.max_pages = 1024;
    return tk::generate_distribution(e, opts);
}

RC_GTEST_PROP(thread_split, every_kth_page_from_thread_i_and_together_every_page_once, ()) {
    tk::rc_entropy e;
    const ndshard::distribution d = small_distribution(e);
    RC_LOG() << tk::describe(d.spec) << "\n";
    const std::uint32_t threads = *rc::gen::inRange<std::uint32_t>(1, 6);
    const oracle::model m = tk::accepted_model(d.spec);
    const std::vector<home> homes = oracle_homes(m);
    const ndshard::accessor_words words = ndshard::make_accessor_words(d, ndshard::arg::all_runtime);
    ndshard::with_runtime_accessor(words, static_cast<std::uint32_t>(d.bank_base),
                                   static_cast<std::uint32_t>(d.aligned_page_size), [&](const auto& a) {
                                       std::vector<int> seen(homes.size(), 0);
                                       for (std::uint32_t t = 0; t < threads; ++t) {
                                           uint64_t expected = t;
                                           for (const ndshard::page_ref r : a.pages(t, threads)) {
                                               RC_ASSERT(r.page_id == expected);
                                               RC_ASSERT(r.page_id < homes.size());
                                               RC_ASSERT(r.bank == homes[r.page_id].core);
                                               RC_ASSERT(r.page_offset == homes[r.page_id].offset);
                                               RC_ASSERT(r.core == d.cores[r.bank]);
                                               ++seen[r.page_id];
                                               expected += threads;
                                           }
                                           RC_ASSERT(expected >= homes.size());  // it ran to the end
                                       }
                                       for (int s : seen) RC_ASSERT(s == 1);
                                   });
}

RC_GTEST_PROP(contiguous_pages, is_the_longest_run_at_consecutive_offsets_of_one_bank, ()) {
    tk::rc_entropy e;
    const ndshard::distribution d = small_distribution(e);
    RC_LOG() << tk::describe(d.spec) << "\n";
    const oracle::model m = tk::accepted_model(d.spec);
    const std::vector<home> homes = oracle_homes(m);
    const ndshard::accessor_words words = ndshard::make_accessor_words(d, ndshard::arg::all_runtime);
    ndshard::with_runtime_accessor(
        words, static_cast<std::uint32_t>(d.bank_base), static_cast<std::uint32_t>(d.aligned_page_size),
        [&](const auto& a) {
            uint64_t longest = 0;
            for (uint64_t p = 0; p < homes.size(); ++p) {
                uint64_t run = 1;
                while (p + run < homes.size() && homes[p + run].core == homes[p].core &&
                       homes[p + run].offset == homes[p].offset + run)
                    ++run;
                RC_ASSERT(uint64_t{a.contiguous_pages(static_cast<std::uint32_t>(p))} == run);
                longest = std::max(longest, run);
            }
            RC_CLASSIFY(longest > 1, "some run longer than 1");
            RC_CLASSIFY(longest == homes.size() && longest > 1, "one run");
        });
}

// The examples of accessor.hpp's comment.
TEST(contiguous_pages, documented_examples) {
    using namespace ndshard;
    for (auto [tensor, shard, cores, page, run] :
         {std::tuple{shape{3, 7, 5}, shape{2, 2, 2}, 6U, 36U, 1U}, std::tuple{shape{4, 6}, shape{2, 6}, 2U, 1U, 11U}}) {
        distribution_spec s;
        s.tensor = tensor;
        s.shard = shard;
        s.cores = {grid_range(cores, 1)};
        const distribution d = make_distribution(s);
        // Copies: clang 14 cannot capture structured bindings in a lambda.
        const std::uint32_t at = page, expected = run;
        const std::string what = to_string(tensor) + "/" + to_string(shard);
        with_runtime_accessor(make_accessor_words(d, arg::all_runtime), 0, 1,
                              [&](const auto& a) { EXPECT_EQ(a.contiguous_pages(at), expected) << what; });
    }
}

}  // namespace
