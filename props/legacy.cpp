// Law 4: legacy 2D sharding is ND sharding (docs/semantics.md, Legacy HEIGHT, WIDTH and BLOCK sharding).
//
//  - HEIGHT, WIDTH and BLOCK (row_major and col_major) specs, built as legacy_spec over a
//    generated tensor and core list and converted with to_nd -> make_distribution, put
//    every page on the core and at the offset that the oracle's separate legacy_height /
//    legacy_width / legacy_block formulas give; when the legacy spec cannot exist (more
//    shards than cores, a BLOCK range too small) both sides say so;
//  - from_nd(to_nd(x)) is expressible, and the legacy spec it returns maps every page
//    identically (same_mapping and page by page);
//  - for generated ND specs, each legacy kind (from_nd_as) is either a spec of that kind
//    that maps every page identically or a reason, and from_nd is the first that fits;
//  - for generated ND specs: when from_nd finds a legacy spec, to_nd of it maps every
//    page identically (page by page); when it does not, it gives a reason. A spec that
//    is interleaving (all-ones shard dealt round robin) must be found; one that puts two
//    shards of more than one page on a core must not.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ndshard/distribution.hpp"
#include "ndshard/legacy.hpp"
#include "ndshard/testkit/describe.hpp"
#include "ndshard/testkit/oracle_bridge.hpp"
#include "ndshard/testkit/rc_entropy.hpp"
#include "ndshard/testkit/rc_oracle.hpp"
#include "ndshard/testkit/spec_gen.hpp"

namespace {

using namespace ndshard;
using oracle::big;
using testkit::to_u64;

oracle::orientation to_oracle(orientation o) {
    return o == orientation::row_major ? oracle::orientation::row_major : oracle::orientation::col_major;
}

oracle::core_range to_oracle(core_range r) { return {r.start.x, r.start.y, r.end.x, r.end.y}; }

std::vector<oracle::core_range> to_oracle(const std::vector<core_range>& ranges) {
    std::vector<oracle::core_range> out;
    for (core_range r : ranges) out.push_back(to_oracle(r));
    return out;
}

bool same_core(core_coord c, const oracle::core_xy& o) { return c.x == o.x && c.y == o.y; }

std::uint64_t ceil_div_u64(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

// Every page of `a` sits on the same core coordinate, at the same device offset and byte
// address, in `b`; `what` names the comparison in the failure.
void expect_same_pages(const distribution& a, const distribution& b, const std::string& what) {
    RC_ASSERT(a.num_pages() == b.num_pages());
    RC_ASSERT(a.bank_base == b.bank_base);
    RC_ASSERT(a.aligned_page_size == b.aligned_page_size);
    for (std::uint64_t p = 0; p < a.num_pages(); ++p) {
        const auto x = a.layout.locate(p), y = b.layout.locate(p);
        if (!(a.cores[x.core] == b.cores[y.core]) || x.device_offset != y.device_offset)
            RC_FAIL(what + ": page " + std::to_string(p) + " is on " + to_string(a.cores[x.core]) + " at " +
                    std::to_string(x.device_offset) + ", but on " + to_string(b.cores[y.core]) + " at " +
                    std::to_string(y.device_offset));
    }
}

RC_GTEST_PROP(Legacy, HeightWidthBlockMapAsTheirFormulas, ()) {
    testkit::rc_entropy e;
    const distribution g = testkit::generate_distribution(e);
    legacy_spec l;
    l.layout = *rc::gen::element(legacy_layout::height, legacy_layout::width, legacy_layout::block);
    l.tensor = g.tensor_pages;
    l.page_size = g.page_size;
    l.alignment = g.spec.alignment;
    l.orient = *rc::gen::element(orientation::row_major, orientation::col_major);
    // The legacy 2D view [H, W], worked out here from the page grid.
    std::uint64_t H = 1;
    for (std::size_t d = 0; d + 1 < l.tensor.rank(); ++d) H *= l.tensor[d];
    const std::uint64_t W = l.tensor.back();

    // Shard sides: usually few enough shards for the cores, sometimes any.
    const bool any_size = testkit::rc_choose(0, 10) == 0;
    std::vector<core_range> ranges = g.spec.cores;
    const std::uint64_t listed = oracle::expand_cores(to_oracle(ranges), to_oracle(l.orient)).size();
    auto side = [&](std::uint64_t extent) {
        const std::uint64_t fewest = any_size || extent == 0 ? 1 : ceil_div_u64(extent, listed);
        return *rc::gen::inRange<std::uint64_t>(fewest, std::max(fewest, extent) + 2);
    };
    if (l.layout != legacy_layout::width) l.shard_height = side(H);
    if (l.layout != legacy_layout::height) l.shard_width = side(W);
    const std::uint64_t gh = ceil_div_u64(H, l.shard_height), gw = ceil_div_u64(W, l.shard_width);
    oracle::core_range block_range{};
    if (l.layout == legacy_layout::block) {
        // One range at the generated first core, sized to the grid, sometimes one too small.
        const core_coord at = g.spec.cores.front().start;
        const bool row = l.orient == orientation::row_major;
        std::uint64_t wide = std::max<std::uint64_t>(1, row ? gw : gh) + testkit::rc_choose(0, 2);
        std::uint64_t high = std::max<std::uint64_t>(1, row ? gh : gw) + testkit::rc_choose(0, 2);
        if (any_size) (*rc::gen::arbitrary<bool>() ? wide : high) -= 1;
        if (wide == 0 || high == 0) wide = high = 1;
        ranges = {{at, {static_cast<std::uint32_t>(at.x + wide - 1), static_cast<std::uint32_t>(at.y + high - 1)}}};
        block_range = to_oracle(ranges.front());
    }
    l.cores = ranges;
    l.bank_base = g.bank_base;
    const std::vector<oracle::core_xy> expanded = oracle::expand_cores(to_oracle(l.cores), to_oracle(l.orient));
    RC_LOG() << "legacy " << to_string(l.layout) << " tensor=" << to_string(l.tensor) << " sh=" << l.shard_height
             << " sw=" << l.shard_width << " " << to_string(l.orient) << " base=" << l.bank_base << "\n";
    RC_TAG(std::string(to_string(l.layout)) + " " + to_string(l.orient));

    // Can this legacy spec exist? HEIGHT/WIDTH: one core per shard; BLOCK: the range fits
    // the grid (the oracle's legacy_block throws otherwise, checked below).
    // HEIGHT shards are [sh, W] (one column of them), WIDTH shards [H, sw] (one row).
    const std::uint64_t shards = l.layout == legacy_layout::height  ? (W == 0 ? 0 : gh)
                                 : l.layout == legacy_layout::width ? (H == 0 ? 0 : gw)
                                                                    : gh * gw;
    if (l.layout != legacy_layout::block && shards > expanded.size()) {
        try {
            (void)make_distribution(to_nd(l));
            RC_FAIL(std::to_string(shards) + " shards on " + std::to_string(expanded.size()) + " cores accepted");
        } catch (const spec_error& err) {
            RC_ASSERT(err.rule() == std::string("legacy_cores"));
        }
        RC_TAG("rejected: legacy_cores");
        return;
    }
    const distribution_spec s = to_nd(l);
    RC_LOG(testkit::describe(s));
    const oracle::verdict v = oracle::evaluate(testkit::to_oracle(s));
    distribution nd;
    try {
        nd = make_distribution(s);
    } catch (const spec_error& err) {
        RC_ASSERT(!v.accepted.has_value());
        RC_ASSERT(err.rule() == v.rule);
        RC_TAG("rejected: " + err.rule());
        if (err.rule() == "grid_2d_fit" && H > 0 && W > 0)  // the legacy formula refuses it too
            RC_ASSERT_THROWS_AS(oracle::legacy_block(0, 0, H, W, l.shard_height, l.shard_width, to_oracle(l.orient),
                                                     block_range, nullptr),
                                std::out_of_range);
        return;
    }
    RC_ASSERT(v.accepted.has_value());

    for (std::uint64_t p = 0; p < nd.num_pages(); ++p) {
        const big r(p / W), c(p % W);  // page ids are row-major over the page grid: (r, c) of the [H, W] view
        oracle::legacy_place want;
        oracle::core_xy want_core;
        switch (l.layout) {
            case legacy_layout::height:
                want = oracle::legacy_height(r, c, H, W, l.shard_height);
                want_core = expanded.at(to_u64(want.core_index));
                break;
            case legacy_layout::width:
                want = oracle::legacy_width(r, c, H, W, l.shard_width);
                want_core = expanded.at(to_u64(want.core_index));
                break;
            default:
                want = oracle::legacy_block(r, c, H, W, l.shard_height, l.shard_width, to_oracle(l.orient), block_range,
                                            &want_core);
                break;
        }
        const auto at = nd.layout.locate(p);
        if (at.core != to_u64(want.core_index) || !same_core(nd.cores[at.core], want_core) ||
            at.device_offset != to_u64(want.offset))
            RC_FAIL("page " + std::to_string(p) + " (" + r.str() + "," + c.str() + ") of [" + std::to_string(H) + "," +
                    std::to_string(W) + "]: ND puts it on core " + std::to_string(at.core) + " " +
                    to_string(nd.cores[at.core]) + " at " + std::to_string(at.device_offset) +
                    ", the legacy formula on core " + want.core_index.str() + " (" + want_core.x.str() + "," +
                    want_core.y.str() + ") at " + want.offset.str());
    }

    // Back to legacy: expressible, and the same mapping.
    const legacy_result back = from_nd(nd);
    if (!back.spec)
        RC_FAIL("from_nd(to_nd(" + std::string(to_string(l.layout)) + ")) is not expressible: " + back.reason);
    RC_CLASSIFY(back.spec->layout != l.layout, "from_nd picks another kind");
    const distribution again = make_distribution(to_nd(*back.spec));
    RC_ASSERT(same_mapping(nd, again));
    expect_same_pages(nd, again, "from_nd(to_nd(legacy))");
}

RC_GTEST_PROP(Legacy, NdToLegacyToNdMapsEveryPageIdentically, ()) {
    testkit::rc_entropy e;
    const distribution d = testkit::generate_distribution(e);
    RC_LOG(testkit::describe(d.spec));
    testkit::classify_by_features(d.spec, {"uneven", {"shard>tensor", "uneven"}, {"strategy:grid_2d", "grid_2d"}});
    const oracle::verdict v = oracle::evaluate(testkit::to_oracle(d.spec));
    RC_ASSERT(v.accepted.has_value());
    const oracle::model& m = *v.accepted;

    const legacy_result r = from_nd(d);
    // Independent of from_nd's search: interleaving (with at least one shard, so that
    // there are banks) is always expressible, and a core holding two shards of more than
    // one page never is.
    const bool interleaving = m.num_shards > 0 && m.shard_volume == 1 &&
                              (m.strat != oracle::strategy::contiguous_1d || m.max_shards_per_core <= 1);
    if (interleaving) RC_ASSERT(r.spec.has_value());
    if (m.shard_volume > 1 && m.max_shards_per_core > 1) RC_ASSERT(!r.spec.has_value());
    if (!r.spec) {
        RC_ASSERT(!r.reason.empty());
        RC_TAG("not expressible");
        return;
    }
    RC_TAG(to_string(r.spec->layout));
    RC_ASSERT(r.reason.empty());
    const distribution again = make_distribution(to_nd(*r.spec));
    expect_same_pages(d, again, "to_nd(from_nd(d))");
}

// from_nd_as, one kind at a time (what `ndshard explain` lists): a spec of exactly that
// kind that maps every page identically, or a reason; from_nd is the first kind that fits.
RC_GTEST_PROP(Legacy, EachLegacyKindIsExpressibleOrSaysWhy, ()) {
    testkit::rc_entropy e;
    const distribution d = testkit::generate_distribution(e);
    RC_LOG(testkit::describe(d.spec));
    std::optional<legacy_layout> first;
    std::string kinds;
    for (legacy_layout kind :
         {legacy_layout::interleaved, legacy_layout::height, legacy_layout::width, legacy_layout::block}) {
        const legacy_result r = from_nd_as(d, kind);
        RC_ASSERT(r.spec.has_value() == r.reason.empty());
        if (!r.spec) continue;
        RC_ASSERT(r.spec->layout == kind);
        expect_same_pages(d, make_distribution(to_nd(*r.spec)),
                          std::string("to_nd(from_nd_as(d, ") + to_string(kind) + "))");
        if (!first) first = kind;
        kinds += std::string(kinds.empty() ? "" : "+") + to_string(kind);
    }
    RC_TAG(kinds.empty() ? std::string("none") : kinds);
    const legacy_result any = from_nd(d);
    RC_ASSERT(any.spec.has_value() == first.has_value());
    if (first) RC_ASSERT(any.spec->layout == *first);
}

}  // namespace
