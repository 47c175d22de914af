// Law 9: no silent wrap-around. For every generated spec, with sizes near 2^31 and 2^32
// on purpose (spec_options::huge_percent) and broken rules now and then, sometimes
// several at once (invalid_percent):
//  - make_distribution accepts exactly when the checked-integer oracle's evaluate accepts, and
//    when both refuse they name the same rule (docs/rules.md, first failing rule wins);
//  - when accepted, the derived sizes are the oracle's, make_accessor_words and the
//    32-bit accessor build, and every sampled page (first, last, the edges of the last
//    shards, random ones) gets from the accessor exactly the oracle's core (index and
//    coordinate), device offset and byte address, for the first and the last byte of the
//    page (byte offset aligned_page_size - 1); the shards of those pages too.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ndshard/accessor.hpp"
#include "ndshard/args.hpp"
#include "ndshard/distribution.hpp"
#include "ndshard/testkit/describe.hpp"
#include "ndshard/testkit/oracle_bridge.hpp"
#include "ndshard/testkit/rc_entropy.hpp"
#include "ndshard/testkit/rc_oracle.hpp"
#include "ndshard/testkit/spec_gen.hpp"

namespace {

using namespace ndshard;
using oracle::big;
using testkit::to_u64;

testkit::spec_options overflow_options() {
    testkit::spec_options o;
    o.huge_percent = 40;
    o.invalid_percent = 15;
    return o;
}

// Every spec breaks at least one rule; a fifth break two or three, with broken core
// ranges at random places in the list. Both sides must name the same (first) rule: the
// check order of docs/rules.md, over ALL ranges per rule, not range by range.
RC_GTEST_PROP(Overflow, RejectionsNameTheFirstBrokenRuleInTableOrder, ()) {
    testkit::spec_options o = overflow_options();
    o.invalid_percent = 100;
    // Ten specs per case: they are cheap, and an order slip needs two broken rules in
    // the right places, which one spec in ~60 has.
    for (int i = 0; i < 10; ++i) {
        testkit::rc_entropy e;
        const distribution_spec s = testkit::generate_spec(e, o);
        const oracle::verdict v = oracle::evaluate(testkit::to_oracle(s));
        const std::string want = v.accepted ? std::string("accepted") : v.rule;
        if (i == 0) {
            RC_CLASSIFY(s.cores.size() > 1, "several core ranges");
            RC_TAG(want);
        }
        std::string fast_rule = "accepted";
        try {
            (void)make_distribution(s);
        } catch (const spec_error& err) {
            fast_rule = err.rule();
        }
        if (fast_rule != want)
            RC_FAIL("fast path reports [" + fast_rule + "], the oracle [" + want + "] for " + testkit::describe(s));
    }
}

RC_GTEST_PROP(Overflow, FastPathAcceptsExactlyWhatTheOracleAcceptsAndAgreesOnEveryAddress, ()) {
    testkit::rc_entropy e;
    const distribution_spec s = testkit::generate_spec(e, overflow_options());
    RC_LOG(testkit::describe(s));
    testkit::classify_by_features(s, {"near_2^32", "base_at_limit", {"rejected:*", "rejected"}});

    const oracle::verdict v = oracle::evaluate(testkit::to_oracle(s));
    std::optional<distribution> fast;
    std::string fast_rule;
    try {
        fast = make_distribution(s);
    } catch (const spec_error& err) {
        fast_rule = err.rule();
    }
    if (!fast) {
        if (v.accepted) RC_FAIL("make_distribution refuses [" + fast_rule + "] a spec the oracle accepts");
        RC_ASSERT(fast_rule == v.rule);
        return;
    }
    if (!v.accepted) RC_FAIL("make_distribution accepts a spec the oracle refuses: [" + v.rule + "] " + v.message);
    const distribution& d = *fast;
    const oracle::model& m = *v.accepted;

    // Sizes the device relies on.
    RC_ASSERT(d.num_pages() == to_u64(m.num_pages));
    RC_ASSERT(d.num_shards() == to_u64(m.num_shards));
    RC_ASSERT(d.aligned_page_size == to_u64(m.aligned_page_size));
    RC_ASSERT(d.reserved_pages_per_core() == to_u64(m.reserved_pages_per_core));
    RC_ASSERT(d.cores.size() == m.cores.size());
    RC_ASSERT(m.bank_base + m.reserved_pages_per_core * m.aligned_page_size <= big(two_pow_32));

    const auto base = static_cast<std::uint32_t>(d.bank_base);
    const auto page_size = static_cast<std::uint32_t>(d.aligned_page_size);
    const accessor_words w = make_accessor_words(d, arg::all_runtime);
    const std::vector<std::uint64_t> pages = testkit::sample_pages(e, d);
    with_runtime_accessor(w, base, page_size, [&](const auto& a) {
        RC_ASSERT(a.num_pages() == d.num_pages());
        for (std::uint64_t page : pages) {
            const auto id = static_cast<std::uint32_t>(page);
            const oracle::location loc = oracle::locate(m, big(page));
            const bank_and_offset bo = a.get_bank_and_offset(id);
            RC_ASSERT(bo.bank == to_u64(loc.core_index));
            RC_ASSERT(bo.page_offset == to_u64(loc.device_offset));
            for (std::uint32_t byte : {0U, page_size - 1}) {
                const noc_addr n = a.get_noc_addr(id, byte);
                RC_ASSERT(n.x == to_u64(loc.core.x));
                RC_ASSERT(n.y == to_u64(loc.core.y));
                RC_ASSERT(n.addr == to_u64(loc.byte_address + byte));
            }
            const oracle::shard_home home = oracle::shard_location(m, loc.shard_id);
            const noc_addr first =
                a.get_shard_noc_addr(static_cast<std::uint32_t>(to_u64(loc.shard_id)), page_size - 1);
            RC_ASSERT(first.x == to_u64(home.core.x));
            RC_ASSERT(first.y == to_u64(home.core.y));
            RC_ASSERT(first.addr == to_u64(home.byte_address + page_size - 1));
        }
    });
}

}  // namespace
