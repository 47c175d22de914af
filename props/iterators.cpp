// Law 7, iterators: the accessor's walks visit exactly the right pages, once each, in
// device order, skipping padding; the compressed runs expand to the per-page mapping.
//
//   pages()          every page, in page id order, each with its (bank, offset)
//   shard_pages(s)   shard s's real pages, device offsets strictly increasing
//   local_pages(b)   bank b's real pages, its slots in turn, offsets strictly increasing
//   page_runs(d)     per core, sorted non-overlapping maximal runs that expand to slot_table
//
// Where each page lives comes from oracle::locate (checked integers); small specs are also
// compared with the oracle's own enumerations (pages_of_shard, local_pages, slot_table).
// The accessor is built from all-runtime words, as a kernel with no compile-time
// arguments would build it.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include <ndshard/oracle/oracle.hpp>

#include "ndshard/accessor.hpp"
#include "ndshard/args.hpp"
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

// The oracle's enumerations visit every slot (checked integers): only below this many in total.
constexpr uint64_t oracle_walk_limit = uint64_t{1} << 15;
// Expanding the runs into a whole slot table: below this many slots.
constexpr uint64_t table_limit = uint64_t{1} << 21;

// Where the oracle puts one page.
struct home {
    uint64_t shard, core, offset;
};

std::vector<home> oracle_homes(const oracle::model& m) {
    std::vector<home> homes;
    const uint64_t n = tk::to_u64(m.num_pages);
    homes.reserve(n);
    for (uint64_t p = 0; p < n; ++p) {
        const oracle::location at = oracle::locate(m, oracle::big(p));
        homes.push_back({tk::to_u64(at.shard_id), tk::to_u64(at.core_index), tk::to_u64(at.device_offset)});
    }
    return homes;
}

std::vector<uint64_t> to_u64s(const std::vector<oracle::big>& v) {
    std::vector<uint64_t> out;
    for (const oracle::big& x : v) out.push_back(tk::to_u64(x));
    return out;
}

// The core coordinate a page_ref carries is its bank's, as the oracle lists the cores.
void check_core(const ndshard::page_ref& r, const oracle::model& m) {
    RC_ASSERT(r.bank < m.cores.size());
    RC_ASSERT(uint64_t{r.core.x} == m.cores[r.bank].x);
    RC_ASSERT(uint64_t{r.core.y} == m.cores[r.bank].y);
}

// A walk over one shard or one bank: each page where the oracle puts it (core coordinate
// included), in increasing device offsets, never seen before in this family of walks.
// Returns the page ids.
template <class Range, class Owner>
std::vector<uint64_t> check_device_walk(const Range& walk, const oracle::model& m, const std::vector<home>& homes,
                                        std::vector<bool>& seen, Owner owned) {
    std::vector<uint64_t> ids;
    std::optional<uint64_t> last_offset;
    for (const ndshard::page_ref r : walk) {
        RC_ASSERT(ids.size() < homes.size());  // a walk longer than the tensor never ends
        RC_ASSERT(r.page_id < homes.size());   // padding has no page id
        const home& h = homes[r.page_id];
        RC_ASSERT(!seen[r.page_id]);
        seen[r.page_id] = true;
        RC_ASSERT(owned(h));
        RC_ASSERT(r.bank == h.core);
        RC_ASSERT(r.page_offset == h.offset);
        check_core(r, m);
        if (last_offset) RC_ASSERT(*last_offset < uint64_t{r.page_offset});  // device order
        last_offset = r.page_offset;
        ids.push_back(r.page_id);
    }
    return ids;
}

template <class Accessor>
void check_accessor_walks(const Accessor& a, const oracle::model& m, const std::vector<home>& homes) {
    const uint64_t pages = homes.size(), shards = tk::to_u64(m.num_shards), banks = m.cores.size();
    const bool enumerate = tk::to_u64(m.num_shards * m.shard_volume) <= oracle_walk_limit;

    uint64_t next = 0;
    for (const ndshard::page_ref r : a.pages()) {
        RC_ASSERT(next < pages);
        RC_ASSERT(r.page_id == next);  // page id order
        RC_ASSERT(r.bank == homes[next].core);
        RC_ASSERT(r.page_offset == homes[next].offset);
        check_core(r, m);
        const ndshard::bank_and_offset bo = a.get_bank_and_offset(r.page_id);
        RC_ASSERT(bo.bank == r.bank);
        RC_ASSERT(bo.page_offset == r.page_offset);
        ++next;
    }
    RC_ASSERT(next == pages);

    std::vector<bool> seen(pages, false);
    uint64_t visited = 0;
    for (uint64_t s = 0; s < shards; ++s) {
        const auto ids = check_device_walk(a.shard_pages(static_cast<std::uint32_t>(s)), m, homes, seen,
                                           [s](const home& h) { return h.shard == s; });
        visited += ids.size();
        if (enumerate) RC_ASSERT(ids == to_u64s(oracle::pages_of_shard(m, s)));
    }
    RC_ASSERT(visited == pages);  // with "never seen before": every page exactly once

    std::fill(seen.begin(), seen.end(), false);
    visited = 0;
    for (uint64_t b = 0; b < banks; ++b) {
        const auto ids = check_device_walk(a.local_pages(static_cast<std::uint32_t>(b)), m, homes, seen,
                                           [b](const home& h) { return h.core == b; });
        visited += ids.size();
        RC_ASSERT(ids.size() == tk::to_u64(oracle::pages_on_core(m, b)));
        if (enumerate) RC_ASSERT(ids == to_u64s(oracle::local_pages(m, b)));
    }
    RC_ASSERT(visited == pages);
}

RC_GTEST_PROP(iterators, accessor_walks_visit_each_page_once_in_device_order, ()) {
    tk::rc_entropy e;
    const ndshard::distribution d = tk::generate_distribution(e, {.max_pages = 2048});
    tk::log_and_classify(d.spec, {"uneven", {"strategy:contiguous_1d", "contiguous"}, "cores>shards"});

    const oracle::model m = tk::accepted_model(d.spec);
    const std::vector<home> homes = oracle_homes(m);
    RC_ASSERT(d.num_pages() == homes.size());
    const ndshard::accessor_words words = ndshard::make_accessor_words(d, ndshard::arg::all_runtime);
    ndshard::with_runtime_accessor(words, static_cast<std::uint32_t>(d.bank_base),
                                   static_cast<std::uint32_t>(d.aligned_page_size),
                                   [&](const auto& a) { check_accessor_walks(a, m, homes); });
}

RC_GTEST_PROP(iterators, page_runs_expand_to_the_slot_table, ()) {
    tk::rc_entropy e;
    const ndshard::distribution d = tk::generate_distribution(e, {.max_pages = 4096});
    tk::log_and_classify(d.spec, {"uneven", "folded", "shard>tensor"});

    const oracle::model m = tk::accepted_model(d.spec);
    const std::vector<home> homes = oracle_homes(m);
    const uint64_t cores = m.cores.size(), reserved = tk::to_u64(m.reserved_pages_per_core);
    const std::vector<std::vector<ndshard::page_run>> runs = ndshard::page_runs(d);
    RC_ASSERT(runs.size() == cores);

    uint64_t covered = 0;
    for (uint64_t c = 0; c < cores; ++c) {
        const ndshard::page_run* prev = nullptr;
        for (const ndshard::page_run& run : runs[c]) {
            RC_ASSERT(run.count > 0U);
            RC_ASSERT(run.device_offset + run.count <= reserved);
            if (prev) {
                RC_ASSERT(prev->device_offset + prev->count <= run.device_offset);  // sorted, no overlap
                const bool could_merge = prev->device_offset + prev->count == run.device_offset &&
                                         prev->first_page + prev->count == run.first_page;
                RC_ASSERT(!could_merge);  // maximal
            }
            for (uint64_t i = 0; i < run.count; ++i) {
                const uint64_t p = run.first_page + i;
                RC_ASSERT(p < homes.size());
                RC_ASSERT(homes[p].core == c);
                RC_ASSERT(homes[p].offset == run.device_offset + i);
            }
            covered += run.count;
            prev = &run;
        }
    }
    // Every run page sits where the oracle puts it, runs do not overlap: so each page is
    // covered at most once, and this makes it exactly once.
    RC_ASSERT(covered == homes.size());

    if (cores * reserved > table_limit) return;
    std::vector<std::vector<uint64_t>> expanded(cores, std::vector<uint64_t>(reserved, ndshard::padding_slot));
    for (uint64_t c = 0; c < cores; ++c)
        for (const ndshard::page_run& run : runs[c])
            for (uint64_t i = 0; i < run.count; ++i) expanded[c][run.device_offset + i] = run.first_page + i;
    RC_ASSERT(expanded == ndshard::slot_table(d));
    if (cores * reserved <= oracle_walk_limit) RC_ASSERT(expanded == tk::oracle_slot_table(m));
}

}  // namespace
