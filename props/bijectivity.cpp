// Law 1, bijectivity: page -> (core, device offset) is one-to-one into the reserved slots.
//
//   @post locate(p).core < P and locate(p).device_offset < reserved_pages_per_core
//   @post locate is injective, and page_at(locate(p)) == p
//   @post a slot holds a page (page_at(c, o) == q) exactly when locate(q) == (c, o);
//         the real slots number num_pages, all others are padding
//   and the coordinates on the way: page id <-> page coordinate, shard coordinate, a
//   shard's real (non-padding) shape, each against the oracle
//
// Small specs are walked whole and their slot table compared with the oracle's; specs
// near 2^32 pages are sampled (first/last pages, shard edges, random ones) and every
// sampled page and slot compared with the oracle. Expected values come from the oracle
// (lib/oracle, checked integers) or from the laws above, never from the code under test.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include <ndshard/oracle/oracle.hpp>

#include "ndshard/distribution.hpp"
#include "ndshard/host_mapping.hpp"
#include "ndshard/testkit/oracle_bridge.hpp"
#include "ndshard/testkit/rc_entropy.hpp"
#include "ndshard/testkit/rc_oracle.hpp"
#include "ndshard/testkit/spec_gen.hpp"

namespace {

namespace oracle = ndshard::oracle;
namespace tk = ndshard::testkit;
using std::uint64_t;

// Whole-table walks stay below these many slots (all cores x reserved pages).
constexpr uint64_t walk_limit = uint64_t{1} << 21;
// The oracle's slot table (checked integers, one page_in_shard per slot) below this many slots.
constexpr uint64_t oracle_table_limit = uint64_t{1} << 14;

// The sizes the laws are stated in, from the oracle; the fast path must agree.
struct sizes {
    uint64_t cores, reserved, pages;
};

sizes checked_sizes(const ndshard::distribution& d, const oracle::model& m) {
    const sizes s{m.cores.size(), tk::to_u64(m.reserved_pages_per_core), tk::to_u64(m.num_pages)};
    RC_ASSERT(d.layout.num_cores == s.cores);
    RC_ASSERT(d.reserved_pages_per_core() == s.reserved);
    RC_ASSERT(d.num_pages() == s.pages);
    return s;
}

// One slot, both directions, against the oracle.
void check_slot(const ndshard::page_layout& l, const oracle::model& m, uint64_t core, uint64_t offset) {
    const std::optional<uint64_t> fast = l.page_at(core, offset);
    const std::optional<oracle::big> slow = oracle::page_at(m, core, offset);
    RC_ASSERT(fast.has_value() == slow.has_value());
    if (!fast) return;
    RC_ASSERT(*fast == tk::to_u64(*slow));
    const auto at = l.locate(*fast);
    RC_ASSERT(at.core == core);
    RC_ASSERT(at.device_offset == offset);
}

// Sampled pages and slots against the oracle: for specs too large to walk.
void check_sampled(tk::entropy& e, const ndshard::distribution& d, const oracle::model& m, const sizes& n) {
    const ndshard::page_layout& l = d.layout;
    std::set<uint64_t> pages;
    std::set<std::pair<uint64_t, uint64_t>> slots;
    for (const uint64_t p : tk::sample_pages(e, d)) {
        RC_ASSERT(p < n.pages);
        const auto fast = l.locate(p);
        const oracle::location slow = oracle::locate(m, oracle::big(p));
        RC_ASSERT(fast.core == tk::to_u64(slow.core_index));
        RC_ASSERT(fast.device_offset == tk::to_u64(slow.device_offset));
        RC_ASSERT(fast.shard_id == tk::to_u64(slow.shard_id));
        RC_ASSERT(fast.slot == tk::to_u64(slow.slot));
        RC_ASSERT(fast.core < n.cores);
        RC_ASSERT(fast.device_offset < n.reserved);
        RC_ASSERT(l.page_at(fast.core, fast.device_offset) == std::optional<uint64_t>(p));
        // Distinct sampled pages land in distinct slots.
        if (pages.insert(p).second) RC_ASSERT(slots.insert({fast.core, fast.device_offset}).second);
    }
    if (n.cores == 0 || n.reserved == 0) return;
    // Slots: the corners of the reservation, the last slot of the first shard, random ones.
    const uint64_t volume = tk::to_u64(m.shard_volume);
    check_slot(l, m, 0, 0);
    check_slot(l, m, n.cores - 1, n.reserved - 1);
    check_slot(l, m, 0, volume - 1);
    for (int i = 0; i < 64; ++i) check_slot(l, m, e.between(0, n.cores - 1), e.between(0, n.reserved - 1));
}

// Every page and every slot of a spec small enough to walk.
void check_walk(const ndshard::page_layout& l, const sizes& n) {
    std::vector<bool> taken(n.cores * n.reserved, false);
    for (uint64_t p = 0; p < n.pages; ++p) {
        const auto at = l.locate(p);
        RC_ASSERT(at.core < n.cores);
        RC_ASSERT(at.device_offset < n.reserved);
        const uint64_t slot = at.core * n.reserved + at.device_offset;
        RC_ASSERT(!taken[slot]);  // injective
        taken[slot] = true;
        RC_ASSERT(l.page_at(at.core, at.device_offset) == std::optional<uint64_t>(p));
    }
    uint64_t real = 0;
    for (uint64_t c = 0; c < n.cores; ++c)
        for (uint64_t o = 0; o < n.reserved; ++o) {
            const std::optional<uint64_t> q = l.page_at(c, o);
            RC_ASSERT(q.has_value() == taken[c * n.reserved + o]);  // padding exactly where no page landed
            if (!q) continue;
            ++real;
            const auto at = l.locate(*q);
            RC_ASSERT(at.core == c);
            RC_ASSERT(at.device_offset == o);
        }
    RC_ASSERT(real == n.pages);
}

RC_GTEST_PROP(bijectivity, every_page_has_its_own_slot_and_back, ()) {
    tk::rc_entropy e;
    const ndshard::distribution d = tk::generate_distribution(e, {.max_pages = 2048});
    tk::log_and_classify(d.spec, {"uneven", "cores>shards", "folded"});

    const oracle::model m = tk::accepted_model(d.spec);
    const sizes n = checked_sizes(d, m);
    const uint64_t slots = n.cores * n.reserved;
    if (slots <= walk_limit) check_walk(d.layout, n);
    if (slots <= oracle_table_limit) {
        RC_ASSERT(ndshard::slot_table(d) == tk::oracle_slot_table(m));
        for (uint64_t c = 0; c < n.cores; ++c)
            for (uint64_t o = 0; o < n.reserved; ++o) check_slot(d.layout, m, c, o);
    } else {
        check_sampled(e, d, m, n);
    }
}

// The coordinate questions of the public API against the oracle, page by page:
//   @post page_id_of(page_coord_of(p)) == p, and the oracle locates that coordinate where
//         it locates p
//   @post shard_coord(s) is the oracle's shard coordinate of every page of shard s
//   @post real_shard_shape(s)[k] is one more than the largest within-shard coordinate along
//         k of s's pages (their oracle in-shard offsets, split over the shard shape)
RC_GTEST_PROP(bijectivity, page_and_shard_coordinates_match_the_oracle, ()) {
    tk::rc_entropy e;
    const ndshard::distribution d = tk::generate_distribution(e, {.max_pages = 2048});
    tk::log_and_classify(d.spec, {"uneven", "cores>shards", "zero_dim"});

    const oracle::model m = tk::accepted_model(d.spec);
    const ndshard::page_layout& l = d.layout;
    const std::size_t r = m.shard_pages.size();
    RC_ASSERT(l.num_shards == tk::to_u64(m.num_shards));
    // Per shard: the largest within-shard coordinate seen along each dim, plus one.
    std::vector<std::vector<uint64_t>> seen(l.num_shards, std::vector<uint64_t>(r, 0));
    for (uint64_t p = 0; p < d.num_pages(); ++p) {
        const ndshard::shape c = d.page_coord_of(p);
        RC_ASSERT(d.page_id_of(c) == p);
        const oracle::location by_id = oracle::locate(m, oracle::big(p));
        const oracle::location by_coord = oracle::locate(m, std::vector<oracle::big>(c.begin(), c.end()));
        RC_ASSERT(by_coord.core_index == by_id.core_index);
        RC_ASSERT(by_coord.device_offset == by_id.device_offset);

        const uint64_t s = tk::to_u64(by_id.shard_id);
        const ndshard::shape q = l.shard_coord(s);
        RC_ASSERT(std::vector<oracle::big>(q.begin(), q.end()) == by_id.shard_coord);
        oracle::big in = by_id.in_shard_offset;
        for (std::size_t k = r; k-- > 0;) {
            const uint64_t along = tk::to_u64(in % m.shard_pages[k]);
            in /= m.shard_pages[k];
            seen[s][k] = std::max(seen[s][k], along + 1);
        }
    }
    for (uint64_t s = 0; s < l.num_shards; ++s) {
        const ndshard::shape real = l.real_shard_shape(s);
        RC_ASSERT(std::vector<uint64_t>(real.begin(), real.end()) == seen[s]);
    }
}

RC_GTEST_PROP(bijectivity, sampled_pages_match_the_oracle_near_2_32, ()) {
    tk::rc_entropy e;
    const ndshard::distribution d = tk::generate_distribution(e, {.huge_percent = 100});
    tk::log_and_classify(d.spec, {"near_2^32", "uneven", "zero_dim"});

    const oracle::model m = tk::accepted_model(d.spec);
    check_sampled(e, d, m, checked_sizes(d, m));
}

}  // namespace
