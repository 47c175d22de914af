// ndshard/distribution.hpp - a validated spec and everything derived from it.
//
// make_distribution is the ONE place a spec is checked (rules and their order:
// docs/rules.md). Everything downstream - host mapping, accessor words, the simulated
// device - takes a distribution and may assume its limits: every page id, shard id,
// device page offset and byte address fits in 32 bits.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ndshard/checked.hpp"
#include "ndshard/error.hpp"
#include "ndshard/layout.hpp"
#include "ndshard/limits.hpp"
#include "ndshard/spec.hpp"

namespace ndshard {

struct distribution {
    distribution_spec spec;         // as given
    shape tensor_pages;             // page grid in the tensor's rank; page ids are row-major over it
    shape shard_pages;              // shard shape in pages
    page_layout layout;             // folded to the shard rank; answers every mapping question
    std::vector<core_coord> cores;  // effective core list (grid_2d: trimmed, in shard order)
    std::uint64_t page_size = 0;    // bytes
    std::uint64_t aligned_page_size = 0;
    std::uint64_t bank_base = 0;

    // [3,7,5]/[2,2,2] on a 2x3 grid: 4 slots of 8 pages -> 32 reserved pages per core.
    [[nodiscard]] std::uint64_t reserved_pages_per_core() const noexcept { return layout.reserved_pages_per_core(); }
    [[nodiscard]] std::uint64_t num_pages() const noexcept { return layout.num_pages; }
    [[nodiscard]] std::uint64_t num_shards() const noexcept { return layout.num_shards; }
    // Byte address of a device page offset in its bank (offset in pages).
    [[nodiscard]] std::uint64_t byte_address(std::uint64_t device_offset) const noexcept {
        return bank_base + device_offset * aligned_page_size;
    }
    // Page id -> its coordinate in the tensor's own rank, the inverse of page_id_of:
    // 20 in [3,7,5] -> [0,4,0]. (A page past the last one wraps, as page_id_of's sum does.)
    [[nodiscard]] shape page_coord_of(std::uint64_t page) const noexcept {
        shape c = tensor_pages;
        for (std::size_t d = c.rank(); d-- > 0;) {
            c[d] = tensor_pages[d] == 0 ? 0 : page % tensor_pages[d];
            if (tensor_pages[d] != 0) page /= tensor_pages[d];
        }
        return c;
    }
    // Page coordinate in the tensor's own rank -> page id.
    template <class Coord>
    [[nodiscard]] std::uint64_t page_id_of(const Coord& coord) const noexcept {
        const shape st = strides_of(tensor_pages);
        std::uint64_t id = 0;
        for (std::size_t d = 0; d < tensor_pages.rank(); ++d) id += static_cast<std::uint64_t>(coord[d]) * st[d];
        return id;
    }
};

namespace detail {

[[noreturn]] inline void reject(const char* rule, const std::string& message) {
    throw spec_error(rule, message + " [rule " + rule + "]");
}

inline std::string show(std::uint64_t v) { return v == saturated ? std::string(">= 2^64") : std::to_string(v); }

// The 2D view (Gh, Gw) of the shard grid that grid_2d deals over: Gw = G[-1], Gh = the
// product of the other G, with G[d] = ceil(folded[d] / S[d]). It decides rule grid_2d_fit,
// which comes before the 32-bit rules, so the page shape may still be huge here (folding
// [2^40, 2^40] gives 2^80). The fold and the grid are therefore computed in 128 bits,
// saturating, then clamped to `saturated`: every comparison with a core range's width or
// height (<= 2^16) is exact.
inline std::pair<std::uint64_t, std::uint64_t> grid_2d_view(const shape& tensor_pages, const shape& shard_pages) {
    __extension__ typedef unsigned __int128 wide;
    constexpr wide wide_max = ~wide{0};
    const auto mul = [](wide a, wide b) {
        wide r = 0;
        return __builtin_mul_overflow(a, b, &r) ? wide_max : r;
    };
    const auto clamp = [](wide v) { return v >= saturated ? saturated : static_cast<std::uint64_t>(v); };
    const std::size_t lead = tensor_pages.rank() - shard_pages.rank();  // extra dims fold into dim 0
    wide folded = 1;
    for (std::size_t d = 0; d <= lead; ++d) folded = mul(folded, tensor_pages[d]);
    wide gh = 1, gw = 1;
    for (std::size_t d = 0; d < shard_pages.rank(); ++d) {
        const wide t = d == 0 ? folded : wide{tensor_pages[lead + d]};
        const wide g = t / shard_pages[d] + (t % shard_pages[d] != 0 ? 1 : 0);
        if (d + 1 < shard_pages.rank()) gh = mul(gh, g);
        else gw = g;
    }
    return {clamp(gh), clamp(gw)};
}

// Cores of the one grid_2d range, trimmed and in shard order: shard (i, j) of the
// [Gh, Gw] view lands on (x0+j, y0+i) row_major, (x0+i, y0+j) col_major.
inline std::vector<core_coord> grid_2d_cores(core_range r, orientation o, std::uint64_t gh, std::uint64_t gw) {
    std::vector<core_coord> out;
    out.reserve(gh * gw);
    for (std::uint64_t i = 0; i < gh; ++i)
        for (std::uint64_t j = 0; j < gw; ++j) {
            const auto a = static_cast<std::uint32_t>(i);
            const auto b = static_cast<std::uint32_t>(j);
            out.push_back(o == orientation::row_major ? core_coord{r.start.x + b, r.start.y + a}
                                                      : core_coord{r.start.x + a, r.start.y + b});
        }
    return out;
}

// Rule duplicate_core: the core a rejection names, the least (by x, then y) of the cores
// listed twice, or nothing when every core is listed once. A range lists each of its own
// cores once, so the cores listed twice are those two ranges share: the union of the
// pairwise intersections, whose least is the least of the intersections' low corners
// (max x0, max y0). With few ranges that is the pairwise test (no core is looked at: one
// range of 65536 cores costs nothing); with many it is a set of the listed cores' keys
// x << 16 | y, distinct per core (coordinates are <= 65535 by rule core_coord) and ordered
// as (x, y) is: open addressing in a table at least twice the core count, key + 1 stored
// (0 = empty); every key met a second time is a candidate.
inline std::optional<core_coord> least_repeated_core(const std::vector<core_range>& ranges,
                                                     const std::vector<core_coord>& listed) {
    constexpr std::uint64_t none = ~std::uint64_t{0};
    std::uint64_t least = none;
    constexpr std::size_t pairwise_ranges = 64;
    if (ranges.size() <= pairwise_ranges) {
        for (std::size_t i = 0; i < ranges.size(); ++i)
            for (std::size_t j = i + 1; j < ranges.size(); ++j) {
                const core_range& a = ranges[i];
                const core_range& b = ranges[j];
                if (a.start.x <= b.end.x && b.start.x <= a.end.x && a.start.y <= b.end.y && b.start.y <= a.end.y)
                    least = std::min(
                        least, std::uint64_t{std::max(a.start.x, b.start.x)} << 16 | std::max(a.start.y, b.start.y));
            }
    } else {
        std::size_t size = 16;
        while (size < 2 * listed.size()) size *= 2;
        std::vector<std::uint64_t> seen(size, 0);
        for (const core_coord c : listed) {
            const std::uint64_t key = std::uint64_t{c.x} << 16 | c.y;
            std::size_t slot = static_cast<std::size_t>(((key + 1) * 0x9E3779B97F4A7C15ULL) >> 40) & (size - 1);
            while (seen[slot] != 0 && seen[slot] != key + 1) slot = (slot + 1) & (size - 1);
            if (seen[slot] == key + 1) least = std::min(least, key);
            seen[slot] = key + 1;
        }
    }
    if (least == none) return std::nullopt;
    return core_coord{static_cast<std::uint32_t>(least >> 16), static_cast<std::uint32_t>(least & 0xFFFF)};
}

}  // namespace detail

// Checks a spec against docs/rules.md (first failing rule wins) and derives the rest.
// {[3,7,5], [2,2,2], 2x3 grid} -> 24 shards, 4 per core, 6 cores.
inline distribution make_distribution(const distribution_spec& spec) {
    using detail::reject;
    using detail::show;
    const shape& t = spec.tensor;
    const shape& s = spec.shard;
    if (t.rank() < 1 || t.rank() > max_rank)
        reject("rank", "tensor rank " + std::to_string(t.rank()) + " is not in 1..8");
    if (s.rank() < 1 || s.rank() > t.rank())
        reject("shard_rank",
               "shard rank " + std::to_string(s.rank()) + " is not in 1..tensor rank " + std::to_string(t.rank()));
    for (std::size_t d = 0; d < s.rank(); ++d)
        if (s[d] == 0)
            reject("zero_shard_dim",
                   "shard " + to_string(s) + " has a 0 in dim " + std::to_string(d) + "; shard dims must be >= 1");
    if (spec.page.kind == page_kind::tile) {
        if (s.rank() < 2) reject("tile", "tile layout needs a shard of rank >= 2, got " + to_string(s));
        if (spec.page.tile_h == 0 || spec.page.tile_w == 0)
            reject("tile", "tile " + std::to_string(spec.page.tile_h) + "x" + std::to_string(spec.page.tile_w) +
                               " has a zero side");
    }
    if (spec.element_size == 0) reject("element_size", "element size 0; it must be >= 1 byte");
    if (spec.alignment == 0 || (spec.alignment & (spec.alignment - 1)) != 0)
        reject("alignment", "alignment " + std::to_string(spec.alignment) + " is not a power of two");
    if (spec.cores.empty()) reject("no_cores", "the core list is empty");
    // Each rule is checked over every range before the next rule (docs/rules.md: table order).
    for (std::size_t i = 0; i < spec.cores.size(); ++i) {
        const core_range& r = spec.cores[i];
        if (r.start.x > r.end.x || r.start.y > r.end.y)
            reject("bad_range", "core range " + std::to_string(i) + " " + to_string(r) +
                                    (r.start.x > r.end.x ? " has x0 > x1" : " has y0 > y1"));
    }
    for (std::size_t i = 0; i < spec.cores.size(); ++i) {
        const core_range& r = spec.cores[i];
        if (r.end.x > max_core_coord || r.end.y > max_core_coord)
            reject("core_coord", "core range " + std::to_string(i) + " " + to_string(r) + " has a coordinate > 65535");
    }
    std::uint64_t core_count = 0;  // at most 2^16 ranges of 2^32 cores each before the check trips
    for (const core_range& r : spec.cores) {
        core_count += (std::uint64_t{r.end.x} - r.start.x + 1) * (std::uint64_t{r.end.y} - r.start.y + 1);
        if (core_count > max_cores)
            reject("too_many_cores",
                   "the core list has " + std::to_string(core_count) + "+ cores; at most 65536 are allowed");
    }
    std::vector<core_coord> listed;
    listed.reserve(core_count);
    for (const core_range& r : spec.cores) append_range(listed, r, spec.orient);
    if (const std::optional<core_coord> twice = detail::least_repeated_core(spec.cores, listed))
        reject("duplicate_core", "core " + to_string(*twice) + " is listed twice");
    if (spec.strat == strategy::grid_2d && spec.cores.size() != 1)
        reject("grid_2d_ranges", "grid_2d takes exactly one core range, got " + std::to_string(spec.cores.size()));

    // Pages (docs/semantics.md).
    shape tp = t;
    shape sp = s;
    std::uint64_t page_size = spec.element_size;
    switch (spec.page.kind) {
        case page_kind::pages:
            break;
        case page_kind::tile:
            page_size = sat_mul(sat_mul(spec.page.tile_h, spec.page.tile_w), spec.element_size);
            for (shape* x : {&tp, &sp}) {
                (*x)[x->rank() - 1] = ceil_div((*x)[x->rank() - 1], spec.page.tile_w);
                (*x)[x->rank() - 2] = ceil_div((*x)[x->rank() - 2], spec.page.tile_h);
            }
            break;
        case page_kind::row_major:
            page_size = sat_mul(s.back(), spec.element_size);
            tp.back() = ceil_div(tp.back(), s.back());
            sp.back() = 1;
            break;
    }
    const shape folded = fold_to_rank(tp, sp.rank());  // exact once the 32-bit rules pass

    std::vector<core_coord> cores = std::move(listed);
    if (spec.strat == strategy::grid_2d) {
        const auto [gh, gw] = detail::grid_2d_view(tp, sp);
        const core_range r = spec.cores.front();
        const std::uint64_t width = std::uint64_t{r.end.x} - r.start.x + 1;
        const std::uint64_t height = std::uint64_t{r.end.y} - r.start.y + 1;
        const bool row = spec.orient == orientation::row_major;
        if ((row ? gw : gh) > width || (row ? gh : gw) > height)
            reject("grid_2d_fit", "shard grid " + show(gh) + "x" + show(gw) +
                                      " (rows x cols) does not fit core range " + to_string(r) + " (" +
                                      std::to_string(width) + " wide, " + std::to_string(height) + " high) in " +
                                      to_string(spec.orient));
        cores = detail::grid_2d_cores(r, spec.orient, gh, gw);
    }

    // 32-bit device limits (host counts stay 64-bit). A page dim and the bank base are the
    // user's own numbers (a page dim is at most the element dim), never a saturated
    // product, so they print exactly: dim 2^64-1 -> "18446744073709551615", not ">= 2^64".
    for (auto d : tp)
        if (d >= two_pow_32)
            reject("tensor_pages_32bit", "tensor page dim " + std::to_string(d) + " of " + to_string(tp) +
                                             " does not fit 32 bits (at most 2^32-1 pages per dim)");
    if (volume_of(tp, true) >= two_pow_32)
        reject("tensor_pages_32bit", "tensor page grid " + to_string(tp) + " spans " + show(volume_of(tp, true)) +
                                         " page ids (zero dims counted as 1); the limit is 2^32-1");
    for (auto d : sp)
        if (d >= two_pow_32)
            reject("shard_pages_32bit", "shard page dim " + std::to_string(d) + " of " + to_string(sp) +
                                            " does not fit 32 bits (at most 2^32-1 pages per dim)");
    if (volume_of(sp) >= two_pow_32)
        reject("shard_pages_32bit",
               "shard " + to_string(sp) + " holds " + show(volume_of(sp)) + " pages; the limit is 2^32-1");
    const std::uint64_t aligned =
        page_size == saturated ? saturated : sat_mul(ceil_div(page_size, spec.alignment), spec.alignment);
    if (aligned >= two_pow_32)
        reject("page_size_32bit",
               "aligned page size " + show(aligned) + " bytes does not fit 32 bits (at most 2^32-1 bytes)");

    const page_layout layout =
        make_page_layout(folded, sp, cores.size(),
                         spec.strat == strategy::contiguous_1d ? deal_rule::contiguous : deal_rule::round_robin,
                         spec.strat == strategy::grid_2d);
    if (spec.bank_base >= two_pow_32)
        reject("address_32bit",
               "bank base " + std::to_string(spec.bank_base) + " does not fit 32 bits (addresses are at most 2^32-1)");
    const std::uint64_t end = sat_add(spec.bank_base, sat_mul(layout.reserved_pages_per_core(), aligned));
    if (end > two_pow_32)
        reject("address_32bit", "bank base " + show(spec.bank_base) + " + " + show(layout.reserved_pages_per_core()) +
                                    " reserved pages x " + show(aligned) + " bytes ends at " + show(end) +
                                    ", past 2^32");

    return distribution{spec, tp, sp, layout, std::move(cores), page_size, aligned, spec.bank_base};
}

}  // namespace ndshard
