// Law 8, squeezing preserves the mapping (docs/semantics.md, Squeezing).
//
//   @post squeeze(l).locate(p) has the core and device offset of l.locate(p), for every page
//   @post page_at agrees on every slot; pages, shards, shard volume and reservation agree
//
// Exhaustive on small shapes: every tensor page shape of rank 1..4 with dims 0..4, every
// shard shape with dims 1..T[d]+1, several core counts, both deal rules and the grid_2d
// one-shard-per-core reservation. Then generated specs up to rank 8 (and near 2^32,
// sampled), and the four examples of docs/semantics.md's Squeezing, typed in from it.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "ndshard/distribution.hpp"
#include "ndshard/layout.hpp"
#include "ndshard/shape.hpp"
#include "ndshard/squeeze.hpp"
#include "ndshard/testkit/describe.hpp"
#include "ndshard/testkit/rc_entropy.hpp"
#include "ndshard/testkit/rc_oracle.hpp"
#include "ndshard/testkit/spec_gen.hpp"

namespace {

namespace tk = ndshard::testkit;
using ndshard::deal_rule;
using ndshard::page_layout;
using ndshard::shape;
using std::uint64_t;

std::string show(const page_layout& l) {
    return ndshard::to_string(l.tensor) + "/" + ndshard::to_string(l.shard) + " on " + std::to_string(l.num_cores) +
           (l.rule == deal_rule::round_robin ? " cores round robin" : " cores contiguous") + ", " +
           std::to_string(l.max_shards_per_core) + " slots per core";
}

// "" when squeezing `l` keeps every page and slot where it was, else the first difference.
std::string squeeze_difference(const page_layout& l) {
    const page_layout sq = ndshard::squeeze(l);
    const std::string where = show(l) + " squeezed to " + show(sq) + ": ";
    if (sq.rank() > l.rank()) return where + "rank grew";
    if (sq.num_pages != l.num_pages || sq.num_shards != l.num_shards || sq.shard_volume != l.shard_volume ||
        sq.num_cores != l.num_cores || sq.reserved_pages_per_core() != l.reserved_pages_per_core())
        return where + "sizes differ";
    for (uint64_t p = 0; p < l.num_pages; ++p) {
        const auto a = l.locate(p);
        const auto b = sq.locate(p);
        if (a.core != b.core || a.device_offset != b.device_offset)
            return where + "page " + std::to_string(p) + " moves from (" + std::to_string(a.core) + "," +
                   std::to_string(a.device_offset) + ") to (" + std::to_string(b.core) + "," +
                   std::to_string(b.device_offset) + ")";
    }
    for (uint64_t c = 0; c < l.num_cores; ++c)
        for (uint64_t o = 0; o < l.reserved_pages_per_core(); ++o)
            if (l.page_at(c, o) != sq.page_at(c, o))
                return where + "slot (" + std::to_string(c) + "," + std::to_string(o) + ") changes";
    return "";
}

// Calls f(s) for every shape of rank `lo.size()` with lo[d] <= s[d] <= hi[d].
void for_each_shape(const std::vector<uint64_t>& lo, const std::vector<uint64_t>& hi,
                    const std::function<void(const shape&)>& f) {
    shape s;
    for (const uint64_t v : lo) s.push_back(v);
    for (;;) {
        f(s);
        std::size_t d = lo.size();
        while (d-- > 0) {
            if (++s[d] <= hi[d]) break;
            s[d] = lo[d];
        }
        if (d == static_cast<std::size_t>(-1)) return;
    }
}

TEST(squeeze, preserves_every_page_of_all_shapes_up_to_4x4x4x4) {
    uint64_t layouts = 0, squeezed = 0, failures = 0;
    for (std::size_t rank = 1; rank <= 4; ++rank) {
        for_each_shape(std::vector<uint64_t>(rank, 0), std::vector<uint64_t>(rank, 4), [&](const shape& tensor) {
            std::vector<uint64_t> shard_hi;
            for (const uint64_t t : tensor) shard_hi.push_back(t + 1);  // dims 1..T[d], plus T[d]+1
            for_each_shape(std::vector<uint64_t>(rank, 1), shard_hi, [&](const shape& shard) {
                std::vector<page_layout> cases;
                for (const uint64_t cores : {1, 2, 3, 5})
                    for (const deal_rule rule : {deal_rule::round_robin, deal_rule::contiguous})
                        cases.push_back(ndshard::make_page_layout(tensor, shard, cores, rule));
                const uint64_t shards = cases.front().num_shards;
                if (shards > 0)  // grid_2d: one core per shard, one slot each
                    cases.push_back(ndshard::make_page_layout(tensor, shard, shards, deal_rule::round_robin, true));
                for (const page_layout& l : cases) {
                    ++layouts;
                    squeezed += ndshard::squeeze(l).rank() < l.rank() ? 1 : 0;
                    const std::string diff = squeeze_difference(l);
                    if (!diff.empty() && ++failures <= 10) ADD_FAILURE() << diff;
                }
            });
        });
    }
    std::printf("%llu layouts, %llu of them squeezed to a lower rank\n", static_cast<unsigned long long>(layouts),
                static_cast<unsigned long long>(squeezed));
    EXPECT_EQ(failures, 0U);
    EXPECT_GT(squeezed, layouts / 4);  // the merges are really exercised
}

RC_GTEST_PROP(squeeze, preserves_the_mapping_of_generated_specs, ()) {
    tk::rc_entropy e;
    tk::spec_options opts;
    opts.max_pages = uint64_t{1} << 14;
    opts.huge_percent = 10;
    const ndshard::distribution d = tk::generate_distribution(e, opts);
    RC_LOG() << tk::describe(d.spec) << "\n";
    const page_layout& l = d.layout;
    const page_layout sq = ndshard::squeeze(l);
    RC_CLASSIFY(sq.rank() < l.rank(), "squeezed");
    tk::classify_by_features(d.spec, {"rank:8", "near_2^32"});

    RC_ASSERT(sq.rank() <= l.rank());
    RC_ASSERT(sq.num_pages == l.num_pages);
    RC_ASSERT(sq.num_shards == l.num_shards);
    RC_ASSERT(sq.shard_volume == l.shard_volume);
    RC_ASSERT(sq.reserved_pages_per_core() == l.reserved_pages_per_core());
    if (l.num_pages <= (uint64_t{1} << 16) && l.num_cores * l.reserved_pages_per_core() <= (uint64_t{1} << 20)) {
        RC_ASSERT(squeeze_difference(l) == std::string());
        return;
    }
    for (const uint64_t p : tk::sample_pages(e, d)) {
        const auto a = l.locate(p);
        const auto b = sq.locate(p);
        RC_ASSERT(a.core == b.core);
        RC_ASSERT(a.device_offset == b.device_offset);
    }
    for (int i = 0; i < 64 && l.reserved_pages_per_core() > 0; ++i) {
        const uint64_t c = e.between(0, l.num_cores - 1), o = e.between(0, l.reserved_pages_per_core() - 1);
        RC_ASSERT(l.page_at(c, o) == sq.page_at(c, o));
    }
}

// The shapes a spec in pages squeezes to (after folding to the shard rank).
void expect_squeezed(const shape& tensor, const shape& shard, const shape& want_tensor, const shape& want_shard) {
    ndshard::distribution_spec spec;
    spec.tensor = tensor;
    spec.shard = shard;
    spec.cores = {ndshard::grid_range(2, 3)};
    const ndshard::distribution d = ndshard::make_distribution(spec);
    const page_layout sq = ndshard::squeeze(d.layout);
    EXPECT_EQ(ndshard::to_string(sq.tensor), ndshard::to_string(want_tensor)) << tk::describe(spec);
    EXPECT_EQ(ndshard::to_string(sq.shard), ndshard::to_string(want_shard)) << tk::describe(spec);
    EXPECT_EQ(squeeze_difference(d.layout), "");
}

TEST(squeeze, semantics_section_5_examples) {
    expect_squeezed({5, 3, 6}, {2, 2}, {15, 6}, {2, 2});
    expect_squeezed({4, 4, 6}, {1, 2, 2}, {16, 6}, {2, 2});
    expect_squeezed({5, 1, 11, 11}, {5, 1, 1}, {5, 121}, {5, 1});
    expect_squeezed({2, 3, 6}, {1, 2, 2}, {2, 3, 6}, {1, 2, 2});  // stays
}

}  // namespace
