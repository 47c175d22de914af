// address_limit_32bit: a spec whose largest address reaches 2^32 is rejected; an accepted
// one answers the oracle's addresses, all below 2^32 (pages_to_check's pages, and the
// highest shard slots of the 1D strategies). Most specs end their buffer at, just below or
// just past 2^32; 3 in 10 are huge.
#include "registry.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>

#include <ndshard/oracle/oracle.hpp>

#include "generators.hpp"
#include "ndshard/conform/specs.hpp"
#include "ndshard/testkit/spec_gen.hpp"
#include "support.hpp"

namespace ndshard::conform::laws {

namespace {

bool gen_address_limit(testkit::entropy& e, const impl_info& info, distribution_spec& out) {
    for (int attempt = 0; attempt < 64; ++attempt) {
        distribution_spec s;
        if (e.between(0, 9) < 3) {
            testkit::spec_options o;
            o.huge_percent = 100;
            o.allow_grid_2d = info.has_strategy(NDSC_GRID_2D);
            s = testkit::generate_spec(e, o);
            if (!fit_to_domain(s, info)) continue;
            out = std::move(s);
            return true;
        }
        if (!generate_valid(e, info, s, 64, 0)) continue;
        s.bank_base = 0;
        if (e.chance(10) && s.tensor.rank() > 0) {
            // No shard, no reservation: any bank base below 2^32 is valid, up to 2^32 - 1.
            s.tensor[e.between(0, s.tensor.rank() - 1)] = 0;
            s.bank_base = two_32 - 1 - e.between(0, 3);
            if (!model_of(s)) continue;
            out = std::move(s);
            return true;
        }
        auto m = model_of(s);
        if (!m || m->reserved_pages_per_core == 0) continue;
        if (e.chance(40) && s.page.kind == page_kind::pages) {
            // Few pages, each huge: the limit is reached by the page size.
            const big per_core = m->reserved_pages_per_core;
            const big size = (big(two_32) / per_core);
            s.element_size = u64(std::max<big>(1, size - e.between(0, 3)));
            s.alignment = 1;
        }
        const auto end = buffer_end(s);
        if (!end || *end > big(two_32) + 64) continue;
        const auto aligned = model_of(s) ? model_of(s)->aligned_page_size : big(1);
        const big deltas[] = {0, 0, 1, -1, aligned, -aligned, 2 * aligned, 7};
        const big base = big(two_32) - *end + deltas[e.between(0, 7)];
        if (base < 0) continue;
        s.bank_base = u64(base);
        out = std::move(s);
        return true;
    }
    return false;
}

std::optional<finding> check_address_limit(const loaded_impl& impl, const distribution_spec& s) {
    const created c(impl, s);
    if (auto f = acceptance_verdict(c, s)) return f;
    if (c.status != NDSC_OK) return std::nullopt;
    const oracle::model m = *model_of(s);
    auto judge = [&](const answer& a, const place& want, const call& query) -> std::optional<finding> {
        if (a.status == NDSC_OK && a.at.address >= two_32)
            return finding{text(query), show(want), show(a) + " (not below 2^32)"};
        if (!(a.status == NDSC_OK && a.at == want)) return finding{text(query), show(want), show(a)};
        return std::nullopt;
    };
    if (impl.locate_page) {
        for (std::uint64_t p : pages_to_check(m, s))
            if (auto f = judge(ask_page(impl, c.handle(), p), oracle_page(m, p), page_call(p))) return f;
    }
    if (impl.locate_shard_page && m.num_shards > 0) {
        // The last slot of the last shard and of the last shard of the first core's block:
        // the highest addresses of the 1D strategies.
        const std::uint64_t last = u64(m.num_shards) - 1, k = u64(m.shard_volume) - 1;
        const std::uint64_t block_end = std::min(u64(m.max_shards_per_core), u64(m.num_shards)) - 1;
        for (std::uint64_t shard : {last, block_end}) {
            const oracle::shard_home h = oracle::shard_location(m, big(shard));
            const place want{u32(h.core.x), u32(h.core.y), u64(h.byte_address + big(k) * m.aligned_page_size)};
            if (auto f = judge(ask_shard(impl, c.handle(), shard, k), want, shard_call(shard, k))) return f;
        }
    }
    return std::nullopt;
}

}  // namespace

const law address_limit_32bit = {
    .name = "address_limit_32bit",
    .summary = "specs whose largest address reaches 2^32 are rejected; accepted ones stay below",
    .unavailable = always_available,
    .generate = gen_address_limit,
    .fits = fits_any,
    .check = check_address_limit,
    .retarget = retarget_address};

}  // namespace ndshard::conform::laws
