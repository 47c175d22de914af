// Law 2, balance: how many shards (and pages) each core gets under each strategy.
//
//   round_robin_1d: counts differ by at most one; core c holds N/P + (c < N%P)
//   contiguous_1d:  with k = ceil(N/P) the cores hold k, k, ..., rest, 0, ... in order
//   grid_2d:        one shard per core of the trimmed range; shard (i, j) of the [Gh, Gw]
//                   view sits on (x0+j, y0+i) row_major, (x0+i, y0+j) col_major
//
// N (shards), P (cores), the grid and the core list come from the oracle; the expected
// counts and coordinates are computed here from docs/semantics.md's deal rules, and the per-core
// counts and real pages are also compared with oracle::shards_on_core / pages_on_core, and
// so are host_mapping.hpp's closed-form real pages per core (what `ndshard explain` prints).
// Each property takes a generated spec and sets the strategy under test (grid_2d also
// needs its one range to fit the grid, so that range is grown from the spec's first).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <ndshard/oracle/oracle.hpp>

#include "ndshard/distribution.hpp"
#include "ndshard/error.hpp"
#include "ndshard/host_mapping.hpp"
#include "ndshard/testkit/describe.hpp"
#include "ndshard/testkit/oracle_bridge.hpp"
#include "ndshard/testkit/rc_entropy.hpp"
#include "ndshard/testkit/rc_oracle.hpp"
#include "ndshard/testkit/spec_gen.hpp"

namespace {

namespace oracle = ndshard::oracle;
namespace tk = ndshard::testkit;
using std::uint64_t;

// oracle::pages_on_core walks a core's shards when any is padded: keep that walk short.
constexpr uint64_t pages_walk_limit = 4096;
// A direct deal (shard by shard) to cross-check the counts, below this many shards.
constexpr uint64_t deal_limit = uint64_t{1} << 16;

// The generated spec with `s` as its strategy (rr and contiguous accept the same specs,
// so this only fails for a spec that was grid_2d and reserves more slots dealt 1D).
std::optional<ndshard::distribution> with_strategy(const ndshard::distribution_spec& spec, ndshard::strategy s) {
    ndshard::distribution_spec changed = spec;
    changed.strat = s;
    try {
        return ndshard::make_distribution(changed);
    } catch (const ndshard::spec_error&) {
        return std::nullopt;
    }
}

struct counts {
    uint64_t shards, cores;
    std::vector<uint64_t> per_core;  // fast path: shards_on_core(c)
};

// Per-core shard counts from the fast path, with the checks common to every strategy:
// they match the oracle, add up to N, and pages_on_core matches the oracle too.
counts check_common(const ndshard::distribution& d, const oracle::model& m) {
    const ndshard::page_layout& l = d.layout;
    counts n{tk::to_u64(m.num_shards), m.cores.size(), {}};
    RC_ASSERT(l.num_shards == n.shards);
    RC_ASSERT(l.num_cores == n.cores);
    RC_ASSERT(l.max_shards_per_core == tk::to_u64(m.max_shards_per_core));
    uint64_t total = 0, with_data = 0;
    for (uint64_t c = 0; c < n.cores; ++c) {
        const uint64_t k = l.shards_on_core(c);
        RC_ASSERT(k == tk::to_u64(oracle::shards_on_core(m, c)));
        RC_ASSERT(k <= l.max_shards_per_core);
        n.per_core.push_back(k);
        total += k;
        with_data += k > 0 ? 1 : 0;
    }
    RC_ASSERT(total == n.shards);
    RC_ASSERT(l.cores_with_data() == with_data);
    RC_ASSERT(l.shards_on_core(n.cores) == 0U);  // past the list: nothing

    // The closed form (host_mapping.hpp) never walks, so it runs on every spec: its total
    // is the page count; per core it is the oracle's wherever the oracle's walk is short.
    const std::vector<uint64_t> closed = ndshard::real_pages_per_core(l);
    RC_ASSERT(closed.size() == n.cores);
    uint64_t closed_total = 0;
    for (const uint64_t p : closed) closed_total += p;
    RC_ASSERT(closed_total == tk::to_u64(m.num_pages));
    if (l.max_shards_per_core <= pages_walk_limit) {
        uint64_t pages = 0;
        for (uint64_t c = 0; c < n.cores; ++c) {
            const uint64_t p = l.pages_on_core(c);
            RC_ASSERT(p == tk::to_u64(oracle::pages_on_core(m, c)));
            RC_ASSERT(closed[c] == p);
            pages += p;
        }
        RC_ASSERT(pages == tk::to_u64(m.num_pages));
    }
    return n;
}

// Logs and classifies the distribution under test, then check_common against the oracle.
counts logged_counts(const ndshard::distribution& d) {
    tk::log_and_classify(d.spec, {"cores>shards", "uneven", "near_2^32"});
    return check_common(d, tk::accepted_model(d.spec));
}

tk::spec_options balance_options() {
    tk::spec_options o;
    o.max_pages = 4096;
    o.huge_percent = 10;  // billions of shards: the counts are formulas, not walks
    return o;
}

RC_GTEST_PROP(balance, round_robin_counts_differ_by_at_most_one, ()) {
    tk::rc_entropy e;
    const ndshard::distribution generated = tk::generate_distribution(e, balance_options());
    const auto d = with_strategy(generated.spec, ndshard::strategy::round_robin_1d);
    RC_PRE(d.has_value());
    const counts n = logged_counts(*d);

    if (n.cores == 0) return;
    const uint64_t low = n.shards / n.cores, extra = n.shards % n.cores;
    const auto [lo, hi] = std::minmax_element(n.per_core.begin(), n.per_core.end());
    RC_ASSERT(*hi - *lo <= 1U);
    for (uint64_t c = 0; c < n.cores; ++c) RC_ASSERT(n.per_core[c] == low + (c < extra ? 1U : 0U));
    RC_ASSERT(d->layout.cores_with_data() == std::min(n.shards, n.cores));
    RC_ASSERT(d->layout.max_shards_per_core == low + (extra ? 1U : 0U));

    if (n.shards <= deal_limit) {  // deal by hand: shard s -> core s % P
        std::vector<uint64_t> dealt(n.cores, 0);
        for (uint64_t s = 0; s < n.shards; ++s) ++dealt[s % n.cores];
        RC_ASSERT(dealt == n.per_core);
    }
}

RC_GTEST_PROP(balance, contiguous_fills_cores_in_order, ()) {
    tk::rc_entropy e;
    const ndshard::distribution generated = tk::generate_distribution(e, balance_options());
    const auto d = with_strategy(generated.spec, ndshard::strategy::contiguous_1d);
    RC_PRE(d.has_value());
    const counts n = logged_counts(*d);

    if (n.cores == 0) return;
    const uint64_t k = (n.shards + n.cores - 1) / n.cores;
    RC_ASSERT(d->layout.max_shards_per_core == k);
    // k, k, ..., rest, 0, ...: never more than k, never growing, at most one partial core.
    uint64_t partial = 0, filled = 0;
    for (uint64_t c = 0; c < n.cores; ++c) {
        const uint64_t left = n.shards > c * k ? n.shards - c * k : 0;
        RC_ASSERT(n.per_core[c] == std::min(k, left));
        if (c > 0) RC_ASSERT(n.per_core[c] <= n.per_core[c - 1]);
        partial += n.per_core[c] != 0 && n.per_core[c] != k ? 1 : 0;
        filled += n.per_core[c] != 0 ? 1 : 0;
    }
    RC_ASSERT(partial <= 1U);
    RC_ASSERT(d->layout.cores_with_data() == filled);
    RC_ASSERT(filled == (k == 0 ? 0 : (n.shards + k - 1) / k));

    if (n.shards <= deal_limit) {  // deal by hand: shard s -> core s / k
        std::vector<uint64_t> dealt(n.cores, 0);
        for (uint64_t s = 0; s < n.shards; ++s) ++dealt[s / k];
        RC_ASSERT(dealt == n.per_core);
    }
}

// The generated spec as grid_2d over one range that fits the shard grid: the spec's first
// range (its corner and, when larger, its extent), grown to the [Gh, Gw] view.
std::optional<ndshard::distribution> as_grid_2d(const ndshard::distribution_spec& spec, uint64_t gh, uint64_t gw) {
    ndshard::distribution_spec changed = spec;
    changed.strat = ndshard::strategy::grid_2d;
    ndshard::core_range r = spec.cores.front();
    const bool row = spec.orient == ndshard::orientation::row_major;
    const uint64_t width = std::max<uint64_t>({row ? gw : gh, 1, uint64_t{r.end.x} - r.start.x + 1});
    const uint64_t height = std::max<uint64_t>({row ? gh : gw, 1, uint64_t{r.end.y} - r.start.y + 1});
    if (r.start.x + width > 65536 || r.start.y + height > 65536 || width * height > 65536) return std::nullopt;
    r.end = {static_cast<std::uint32_t>(r.start.x + width - 1), static_cast<std::uint32_t>(r.start.y + height - 1)};
    changed.cores = {r};
    try {
        return ndshard::make_distribution(changed);
    } catch (const ndshard::spec_error&) {
        return std::nullopt;
    }
}

RC_GTEST_PROP(balance, grid_2d_puts_shard_i_j_on_its_core, ()) {
    tk::rc_entropy e;
    const ndshard::distribution generated = tk::generate_distribution(e, balance_options());
    // The [Gh, Gw] view of the shard grid (docs/semantics.md, rules.md "Cores"), from the oracle.
    const oracle::model g = tk::accepted_model(generated.spec);
    oracle::big gh_big = 1;
    for (std::size_t k = 0; k + 1 < g.grid.size(); ++k) gh_big *= g.grid[k];
    RC_PRE(gh_big <= 65536 && g.grid.back() <= 65536);
    const uint64_t gh = tk::to_u64(gh_big), gw = tk::to_u64(g.grid.back());
    const auto d = as_grid_2d(generated.spec, gh, gw);
    RC_PRE(d.has_value());
    const counts n = logged_counts(*d);
    const oracle::model m = tk::accepted_model(d->spec);

    // Exactly one shard per core of the trimmed list.
    RC_ASSERT(n.cores == gh * gw);
    RC_ASSERT(n.shards == gh * gw);
    for (uint64_t c = 0; c < n.cores; ++c) RC_ASSERT(n.per_core[c] == 1U);
    RC_ASSERT(d->layout.cores_with_data() == n.cores);
    RC_ASSERT(d->layout.max_shards_per_core == (n.shards == 0 ? 0U : 1U));

    const ndshard::core_coord corner = d->spec.cores.front().start;
    const bool row = d->spec.orient == ndshard::orientation::row_major;
    for (uint64_t i = 0; i < gh; ++i)
        for (uint64_t j = 0; j < gw; ++j) {
            const uint64_t s = i * gw + j;  // shards are row-major over the grid
            const auto home = d->layout.shard_home(s);
            RC_ASSERT(home.slot == 0U);
            const ndshard::core_coord at = d->cores[home.core];
            const uint64_t x = corner.x + (row ? j : i), y = corner.y + (row ? i : j);
            RC_ASSERT(at.x == x);
            RC_ASSERT(at.y == y);
            RC_ASSERT(m.cores[home.core].x == x);
            RC_ASSERT(m.cores[home.core].y == y);
        }

    // One column (row_major) or row (col_major) too few is an error, not a wrap.
    const uint64_t needed = row ? gw : gh;
    if (needed >= 2) {
        ndshard::distribution_spec tight = d->spec;
        tight.cores.front().end = {static_cast<std::uint32_t>(corner.x + needed - 2), tight.cores.front().end.y};
        try {
            (void)ndshard::make_distribution(tight);
            RC_FAIL("a grid_2d range one column short was accepted: " + tk::describe(tight));
        } catch (const ndshard::spec_error& err) {
            RC_ASSERT(err.rule() == std::string("grid_2d_fit"));
        }
    }
}

}  // namespace
