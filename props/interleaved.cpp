// Law 3: interleaving is ND sharding with an all-ones shard (docs/semantics.md, Legacy HEIGHT, WIDTH and BLOCK
// sharding).
//
// For a generated tensor (any rank 1..8, zero-size dims and sizes near 2^32 included) over
// a generated bank list, a shard of ones of any rank 1..rank(tensor):
//  - the ND accessor, the interleaved generator (interleaved_addr_gen) and the oracle's
//    separate interleaved formula (page i -> bank i % B, offset i / B) agree address for
//    address: bank, offset, and NoC address (bank coordinate + byte address, with a byte
//    offset inside the page); the oracle's ND model says the same;
//  - the generator's own walk visits every page in order where the oracle puts it, and
//    it refuses impossible arguments by rule;
//  - a legacy interleaved spec converts with to_nd to that mapping and comes back from
//    from_nd as the same interleaved spec.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "ndshard/accessor.hpp"
#include "ndshard/args.hpp"
#include "ndshard/distribution.hpp"
#include "ndshard/interleaved.hpp"
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

// A generated distribution: its page grid, page geometry and effective core list (the
// banks, in bank order) are what the interleaved layouts below are built from.
distribution generated(testkit::entropy& e) {
    testkit::spec_options o;
    o.huge_percent = 10;
    return testkit::generate_distribution(e, o);
}

std::vector<core_range> single_core_ranges(const std::vector<core_coord>& cores) {
    std::vector<core_range> r;
    for (core_coord c : cores) r.push_back({c, c});
    return r;
}

// All pages of a small tensor, else first/last/edge/random ones.
std::vector<std::uint64_t> pages_to_check(testkit::entropy& e, const distribution& d) {
    if (d.num_pages() > 4096) return testkit::sample_pages(e, d, 64);
    std::vector<std::uint64_t> all(d.num_pages());
    for (std::uint64_t p = 0; p < all.size(); ++p) all[p] = p;
    return all;
}

RC_GTEST_PROP(Interleaved, AllOnesShardEqualsTheInterleavedGenerator, ()) {
    testkit::rc_entropy e;
    const distribution g = generated(e);
    std::vector<core_coord> banks = g.cores;
    if (banks.empty()) banks = {{0, 0}};  // grid_2d with no shards has no effective cores
    const std::size_t rank = g.tensor_pages.rank();
    const auto shard_rank = testkit::rc_choose<std::size_t>(1, rank + 1);

    distribution_spec s;
    s.tensor = g.tensor_pages;
    for (std::size_t d = 0; d < shard_rank; ++d) s.shard.push_back(1);
    s.page = {page_kind::pages};
    s.element_size = g.page_size;
    s.alignment = g.spec.alignment;
    s.bank_base = g.bank_base;
    s.cores = single_core_ranges(banks);
    RC_LOG(testkit::describe(s));
    testkit::classify_by_features(
        s, {{"rank:1", "rank 1 or 8"}, {"rank:8", "rank 1 or 8"}, "folded", "zero_dim", "near_2^32"});

    // Interleaving reserves ceil(pages / banks) pages per bank, never more than the
    // generated spec did, so the same base fits: both sides must accept.
    const oracle::model m = testkit::accepted_model(s);
    const distribution d = make_distribution(s);

    const auto base = static_cast<std::uint32_t>(d.bank_base);
    const auto page_size = static_cast<std::uint32_t>(d.aligned_page_size);
    RC_ASSERT(to_u64(m.aligned_page_size) == d.aligned_page_size);
    const interleaved_addr_gen gen(d.num_pages(), banks, base, page_size);
    RC_ASSERT(gen.num_banks() == banks.size());
    const big num_banks(banks.size());
    const accessor_words w = make_accessor_words(d, arg::all_runtime);

    const std::vector<std::uint64_t> pages = pages_to_check(e, d);
    with_runtime_accessor(w, base, page_size, [&](const auto& acc) {
        for (std::uint64_t page : pages) {
            const auto id = static_cast<std::uint32_t>(page);
            const oracle::bank_offset want = oracle::interleaved(big(page), num_banks);
            const std::uint64_t bank = to_u64(want.bank), offset = to_u64(want.offset);
            // The oracle's ND model places an all-ones shard the same way.
            const oracle::location loc = oracle::locate(m, big(page));
            RC_ASSERT(to_u64(loc.core_index) == bank);
            RC_ASSERT(to_u64(loc.device_offset) == offset);

            const bank_and_offset from_gen = gen.get_bank_and_offset(id);
            const bank_and_offset from_acc = acc.get_bank_and_offset(id);
            RC_ASSERT(from_gen.bank == bank);
            RC_ASSERT(from_gen.page_offset == offset);
            RC_ASSERT(from_acc.bank == bank);
            RC_ASSERT(from_acc.page_offset == offset);

            const oracle::core_xy& core = m.cores.at(bank);
            const std::uint32_t x = static_cast<std::uint32_t>(to_u64(core.x));
            const std::uint32_t y = static_cast<std::uint32_t>(to_u64(core.y));
            for (std::uint32_t byte : {0U, page_size - 1, static_cast<std::uint32_t>(page * 2654435761U % page_size)}) {
                const std::uint64_t addr = to_u64(m.bank_base + want.offset * m.aligned_page_size + byte);
                const noc_addr a = acc.get_noc_addr(id, byte);
                const noc_addr b = gen.get_noc_addr(id, byte);
                RC_ASSERT(a.x == x);
                RC_ASSERT(a.y == y);
                RC_ASSERT(a.addr == addr);
                RC_ASSERT(b == a);
            }
        }
    });
}

// The baseline's own iterator (what BM_interleaved_iter measures): every page once, in
// page order, each with the oracle's bank, offset and bank coordinate.
RC_GTEST_PROP(Interleaved, GeneratorWalkVisitsEveryPageInOrder, ()) {
    const auto num_banks = testkit::rc_choose<std::uint32_t>(1, 40);
    const auto num_pages = *rc::gen::inRange<std::uint32_t>(0, 3000);
    RC_CLASSIFY(num_pages < num_banks, "fewer pages than banks");
    RC_CLASSIFY(num_pages % num_banks != 0, "uneven last row");
    std::vector<core_coord> banks;
    for (std::uint32_t b = 0; b < num_banks; ++b) banks.push_back({b % 7, b / 7 + 3});
    const std::uint32_t base = 4096, page_size = 96;
    const interleaved_addr_gen gen(num_pages, banks, base, page_size);
    std::uint64_t next = 0;
    for (const page_ref r : gen.pages()) {
        RC_ASSERT(r.page_id == next);
        const oracle::bank_offset want = oracle::interleaved(big(next), big(num_banks));
        RC_ASSERT(r.bank == to_u64(want.bank));
        RC_ASSERT(r.page_offset == to_u64(want.offset));
        RC_ASSERT(r.core == banks[r.bank]);
        const noc_addr a = gen.noc_address_of(r, 5);
        RC_ASSERT(a == gen.get_noc_addr(r.page_id, 5));
        RC_ASSERT(a.addr == to_u64(base + want.offset * page_size + 5));
        ++next;
    }
    RC_ASSERT(next == num_pages);
}

// The generator refuses what a bank could not hold, naming the rule.
TEST(Interleaved, GeneratorRejectsImpossibleArguments) {
    const std::vector<core_coord> banks(12, core_coord{1, 2});
    const auto rule_of = [](auto&& make) {
        try {
            make();
        } catch (const spec_error& err) {
            return std::string(err.rule());
        }
        return std::string("accepted");
    };
    EXPECT_EQ(rule_of([] { interleaved_addr_gen(10, {}, 0, 32); }), "args_banks");
    const std::vector<core_coord> too_many(65537, core_coord{0, 0});
    EXPECT_EQ(rule_of([&] { interleaved_addr_gen(10, too_many, 0, 32); }), "args_banks");
    EXPECT_EQ(rule_of([&] { interleaved_addr_gen(10, banks, 0, 0); }), "args_page_size");
    EXPECT_EQ(rule_of([&] { interleaved_addr_gen(two_pow_32, banks, 0, 1); }), "address_32bit");
    // 12 banks x 2^28 pages of 16 bytes end exactly at 2^32: accepted; one byte more is not.
    EXPECT_EQ(rule_of([&] { interleaved_addr_gen(12ULL << 28, banks, 0, 16); }), "accepted");
    EXPECT_EQ(rule_of([&] { interleaved_addr_gen(12ULL << 28, banks, 1, 16); }), "address_32bit");
}

RC_GTEST_PROP(Interleaved, LegacyInterleavedRoundTripsThroughNd, ()) {
    testkit::rc_entropy e;
    const distribution g = generated(e);
    legacy_spec l;
    l.layout = legacy_layout::interleaved;
    l.tensor = g.tensor_pages;
    l.cores = single_core_ranges(g.cores.empty() ? std::vector<core_coord>{{0, 0}} : g.cores);
    l.page_size = g.page_size;
    l.alignment = g.spec.alignment;
    l.bank_base = g.bank_base;

    const distribution_spec s = to_nd(l);
    RC_LOG(testkit::describe(s));
    testkit::classify_by_features(
        s, {{"rank:1", "rank 1 or 8"}, {"rank:8", "rank 1 or 8"}, "folded", "zero_dim", "near_2^32"});
    const oracle::model m = testkit::accepted_model(s);
    const distribution d = make_distribution(s);

    // to_nd: the oracle's interleaved formula, page by page (host layout).
    const big num_banks(l.cores.size());
    const std::vector<std::uint64_t> pages = pages_to_check(e, d);
    for (std::uint64_t page : pages) {
        const oracle::bank_offset want = oracle::interleaved(big(page), num_banks);
        const auto at = d.layout.locate(page);
        RC_ASSERT(at.core == to_u64(want.bank));
        RC_ASSERT(at.device_offset == to_u64(want.offset));
        RC_ASSERT(d.cores[at.core].x == to_u64(m.cores.at(at.core).x));
        RC_ASSERT(d.cores[at.core].y == to_u64(m.cores.at(at.core).y));
    }

    // from_nd: back to the same interleaved spec, which maps every page the same way.
    const legacy_result back = from_nd(d);
    RC_ASSERT(back.spec.has_value());
    RC_ASSERT(back.spec->layout == legacy_layout::interleaved);
    RC_ASSERT(back.spec->tensor == l.tensor);
    RC_ASSERT(back.spec->cores == l.cores);
    RC_ASSERT(back.spec->page_size == l.page_size);
    RC_ASSERT(back.spec->alignment == l.alignment);
    RC_ASSERT(back.spec->bank_base == l.bank_base);
    const distribution again = make_distribution(to_nd(*back.spec));
    for (std::uint64_t page : pages) {
        const auto a = d.layout.locate(page), b = again.layout.locate(page);
        RC_ASSERT(d.cores[a.core] == again.cores[b.core]);
        RC_ASSERT(a.device_offset == b.device_offset);
    }
}

}  // namespace
