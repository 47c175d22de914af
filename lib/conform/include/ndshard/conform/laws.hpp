// ndshard/conform/laws.hpp - the laws an implementation under test must obey.
//
// Each law has a generator (specs it is about, inside the implementation's declared
// domain), a membership test for the shrinker (does a smaller spec still belong to the
// law?), and a check that asks the implementation and compares with the naive oracle
// (lib/oracle) or with a structural rule. Checks call the implementation in the calling
// process: the runner calls them in a child (isolate.hpp), the fuzz target in-process.
//
//   acceptance              accept/reject agrees with the oracle (the reason may differ)
//   address_limit_32bit     specs reaching 2^32 are rejected; accepted ones stay below it
//   page_placement          ndsc_locate_page equals the oracle
//   bijectivity             distinct pages -> distinct (core, address), inside the buffer,
//                           aligned, on a listed core (no oracle answer used)
//   balance                 per-core page and shard counts are the strategy's counts
//   coord_page_agreement    locate_coord(coordinate of p) == locate_page(p)
//   shard_addressing        locate_shard_page(s, k) is the oracle's slot address and agrees
//                           with locate_page on real pages
//   iteration_order         core_pages(c) equals the oracle's real pages of c in device order;
//                           a capacity one short is NDSC_BUFFER_TOO_SMALL with the count and
//                           nothing written past it; grid_2d cores trimmed off the grid hold none
//   contiguous_runs         ndsc_page_run(p) is the maximal run from p (pages p, p+1, ... at
//                           consecutive aligned pages of p's core), from the oracle's locations:
//                           every page of a small spec; on a large one sampled pages, their
//                           claimed runs checked at both ends, inside and one page past
//   thread_split_iteration  ndsc_thread_pages(i, k) is pages i, i+k, i+2k, ... below the page
//                           count with the oracle's locations (one thread, k dividing the runs
//                           or not, more threads than pages, the last thread); a capacity of the
//                           share is enough; one short or half is NDSC_BUFFER_TOO_SMALL with
//                           the count, nothing written past it
//   interleaved_equivalence every shard dim 1: page i -> bank i % B, offset i / B
//   legacy_equivalence      HEIGHT / WIDTH / BLOCK specs agree with the legacy formulas
//   determinism             two handles of one spec answer alike; the spec's memory is
//                           not used after ndsc_create returns
//   out_of_range            a page id, coordinate, shard slot or core outside the spec
//                           is NDSC_OUT_OF_RANGE: past the end, past 32 bits with valid low
//                           bits, a coordinate of the wrong rank, a core in a hole of the list;
//                           ndsc_page_run past the last page, ndsc_thread_pages with no thread
//                           or a thread at or past the thread count
//
// Each law is one file, lib/conform/src/laws/<name>.cpp, defining its `law` object;
// lib/conform/src/laws/registry.cpp lists them in the order above.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ndshard/conform/impl.hpp"
#include "ndshard/spec.hpp"
#include "ndshard/testkit/entropy.hpp"

namespace ndshard::conform {

// One disagreement: the query asked, the answer expected and the one given.
struct finding {
    std::string query, expected, got;
};

struct law {
    const char* name;
    const char* summary;
    // Why the law cannot run against this implementation ("" when it can): a query it
    // needs is not declared, or its domain has no spec of the law's kind.
    std::string (*unavailable)(const impl_info&);
    // A spec for the law inside the declared domain; false when none was found.
    bool (*generate)(testkit::entropy&, const impl_info&, distribution_spec&);
    // Whether a spec belongs to the law (the shrinker keeps only such specs).
    bool (*fits)(const distribution_spec&, const impl_info&);
    // The disagreement on this spec, if any. May crash or hang when the implementation does.
    std::optional<finding> (*check)(const loaded_impl&, const distribution_spec&);
    // Optional: adjusts a shrink candidate to keep what made the original fail (every law
    // keeps a buffer that ends near 2^32 at the same distance from it while it shrinks).
    void (*retarget)(distribution_spec& candidate, const distribution_spec& original);
};

// Every law, in report order.
const std::vector<law>& all_laws();
const law* find_law(std::string_view name);

// Where the implementation is right now (the last query started), for crash reports.
// The runner points it at memory shared with the parent; by default a local buffer.
void set_query_buffer(char* buffer, std::size_t size) noexcept;
std::string current_query();

}  // namespace ndshard::conform
