// The specs several laws draw (generators.hpp).
#include "generators.hpp"

#include <algorithm>
#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

#include "ndshard/conform/specs.hpp"
#include "ndshard/testkit/spec_gen.hpp"
#include "support.hpp"

namespace ndshard::conform::laws {

namespace {

// A dim of `pages` pages as elements, `side` elements a page, with a random remainder.
std::uint64_t to_elements(testkit::entropy& e, std::uint64_t pages, std::uint64_t side) {
    return pages == 0 ? 0 : (pages - 1) * side + e.between(1, side);
}

// A spec given in pages rewritten in elements of one byte: rows of r elements (row_major)
// or 1 x w / 2 x w tiles. Only page dims must stay below 2^32; element dims of a large
// spec now pass it ([3, 2^31] pages as row_major rows of 4 -> [3, 2^33 - 1] elements), where
// an implementation that holds element counts in 32 bits truncates them.
distribution_spec in_element_units(testkit::entropy& e, distribution_spec s) {
    s.element_size = 1;
    if (s.shard.rank() >= 2 && e.chance(50)) {
        s.page.kind = page_kind::tile;
        s.page.tile_h = e.pick<std::uint64_t>({1, 2});
        s.page.tile_w = e.pick<std::uint64_t>({2, 4, 8, 32});
        for (shape* x : {&s.tensor, &s.shard}) {
            x->back() = to_elements(e, x->back(), s.page.tile_w);
            (*x)[x->rank() - 2] = to_elements(e, (*x)[x->rank() - 2], s.page.tile_h);
        }
    } else {
        s.page.kind = page_kind::row_major;
        const std::uint64_t row = e.pick<std::uint64_t>({2, 3, 4, 8, 32});
        s.tensor.back() = to_elements(e, s.tensor.back(), row);
        s.shard.back() = row;
    }
    return s;
}

// The bank base that puts the end of the spec's buffer `below` aligned pages under 2^32
// (nullopt when the buffer alone does not fit).
std::optional<std::uint64_t> base_near_limit(const distribution_spec& s, std::uint64_t below) {
    distribution_spec probe = s;
    probe.bank_base = 0;
    const auto m = model_of(probe);
    if (!m) return std::nullopt;
    const big base =
        big(two_32) - m->reserved_pages_per_core * m->aligned_page_size - big(below) * m->aligned_page_size;
    if (base < 0) return std::nullopt;
    return u64(base);
}

// A spec made for long runs and their ends: shard dims that span the tensor's trailing dims
// whole (rows follow rows in one shard, and a full shard is followed by the next shard in
// the core's next slot under contiguous_1d, or round_robin_1d on one core), or not
// (uneven edges, a shard larger than the tensor); rank 1 to 8; sometimes more cores than
// shards; grid_2d over a range a little larger than the shard grid.
bool gen_run_shaped(testkit::entropy& e, const impl_info& info, distribution_spec& out) {
    for (int attempt = 0; attempt < 32; ++attempt) {
        distribution_spec s;
        const auto rank = static_cast<std::size_t>(e.between(info.min_rank, info.max_rank));
        const std::uint64_t per_dim = rank == 1 ? 48 : rank == 2 ? 12 : rank == 3 ? 6 : rank <= 5 ? 3 : 2;
        for (std::size_t d = 0; d < rank; ++d) s.tensor.push_back(e.between(1, per_dim));
        const std::size_t shard_rank = e.chance(25) ? static_cast<std::size_t>(e.between(1, rank)) : rank;
        // The folded tensor the shard applies to: leading dims multiplied into the first.
        std::vector<std::uint64_t> folded(shard_rank, 1);
        for (std::size_t d = 0; d <= rank - shard_rank; ++d) folded[0] *= s.tensor[d];
        for (std::size_t d = 1; d < shard_rank; ++d) folded[d] = s.tensor[rank - shard_rank + d];
        for (std::size_t d = 0; d < shard_rank; ++d) {
            const std::uint64_t t = std::max<std::uint64_t>(folded[d], 1);
            switch (d == 0 ? e.between(1, 3) : e.between(0, 3)) {
                case 0:
                case 1:  // whole: runs go on into the next row
                    s.shard.push_back(t);
                    break;
                case 2:  // a part: full shards and, unless it divides, an uneven edge
                    s.shard.push_back(e.between(1, t));
                    break;
                default:  // larger than the tensor: one shard with padding
                    s.shard.push_back(t + e.between(1, 2));
                    break;
            }
        }
        const std::uint64_t kind = e.between(0, 9);
        s.strat = kind < 4 ? strategy::contiguous_1d : kind < 7 ? strategy::round_robin_1d : strategy::grid_2d;
        s.orient = e.chance(30) ? orientation::col_major : orientation::row_major;
        if (s.strat == strategy::grid_2d) {
            std::uint64_t gw = 1, gh = 1;
            for (std::size_t d = 0; d < shard_rank; ++d) {
                const std::uint64_t g = (folded[d] + s.shard[d] - 1) / s.shard[d];
                (d + 1 == shard_rank ? gw : gh) *= g;
            }
            const bool rows = s.orient == orientation::row_major;
            const std::uint64_t w = (rows ? gw : gh) + e.between(0, 1), h = (rows ? gh : gw) + e.between(0, 1);
            if (w > 64 || h > 64) continue;
            s.cores = {{{0, 0}, {static_cast<std::uint32_t>(w - 1), static_cast<std::uint32_t>(h - 1)}}};
        } else {
            const auto n = static_cast<std::uint32_t>(e.pick<std::uint64_t>({1, 1, 2, 3, 4, 7, 16}));
            if (e.chance(50)) {
                s.cores = {{{0, 0}, {n - 1, 0}}};
            } else {
                const auto x = static_cast<std::uint32_t>(e.between(1, 3));
                s.cores = {{{0, 0}, {x - 1, (n + x - 1) / x - 1}}};
            }
        }
        s.element_size = e.pick<std::uint64_t>({1, 2, 32, 2048});
        s.alignment = e.pick<std::uint64_t>({1, 1, 16, 64});
        if (e.chance(8)) s.tensor[e.between(0, rank - 1)] = 0;  // no page at all
        if (!fit_to_domain(s, info)) continue;
        if (!model_of(s)) continue;
        out = std::move(s);
        return true;
    }
    return false;
}

// A fifth of the specs moved to end their buffer exactly at 2^32 or one aligned page below.
void near_limit_now_and_then(testkit::entropy& e, distribution_spec& s) {
    if (!e.chance(20)) return;
    if (const auto base = base_near_limit(s, e.between(0, 1))) {
        distribution_spec moved = s;
        moved.bank_base = *base;
        if (model_of(moved)) s = std::move(moved);
    }
}

}  // namespace

// An implementation that keeps a coordinate in 8 bits, or packs one into too few bits,
// answers for the wrong core. Distinct cores stay distinct; grid_2d's fit does not depend
// on where its range is.
void move_cores_far(testkit::entropy& e, distribution_spec& s) {
    if (s.cores.empty()) return;
    std::uint32_t min_x = UINT32_MAX, min_y = UINT32_MAX, max_x = 0, max_y = 0;
    for (const core_range& r : s.cores) {
        min_x = std::min(min_x, r.start.x);
        min_y = std::min(min_y, r.start.y);
        max_x = std::max(max_x, r.end.x);
        max_y = std::max(max_y, r.end.y);
    }
    if (max_x > 65535 || max_y > 65535) return;
    // An offset for one axis: none, the list's near edge at 256 (just past 8 bits), its far
    // edge at 65535, or anywhere up to that.
    auto offset = [&](std::uint32_t lo, std::uint32_t hi) -> std::uint64_t {
        const std::uint64_t room = 65535 - hi;
        switch (e.between(0, 3)) {
            case 0:
                return 0;
            case 1:
                return std::min<std::uint64_t>(room, hi < 256 ? 256 - lo : 0);
            case 2:
                return room;
            default:
                return e.between(0, room);
        }
    };
    const std::uint64_t dx = offset(min_x, max_x), dy = offset(min_y, max_y);
    for (core_range& r : s.cores) {
        r.start.x += static_cast<std::uint32_t>(dx);
        r.end.x += static_cast<std::uint32_t>(dx);
        r.start.y += static_cast<std::uint32_t>(dy);
        r.end.y += static_cast<std::uint32_t>(dy);
    }
}

bool generate_valid(testkit::entropy& e, const impl_info& info, distribution_spec& out, std::uint64_t max_pages,
                    std::uint32_t huge_percent) {
    for (int attempt = 0; attempt < 64; ++attempt) {
        testkit::spec_options o;
        o.max_pages = max_pages;
        o.max_cores = 32;
        o.huge_percent = huge_percent;
        o.allow_grid_2d = info.has_strategy(NDSC_GRID_2D);
        distribution_spec s = testkit::generate_spec(e, o);
        if (e.chance(12)) move_cores_far(e, s);
        if (!fit_to_domain(s, info)) continue;
        auto m = model_of(s);
        if (!m || (huge_percent == 0 && !small_model(*m))) continue;
        if (!small_model(*m) && s.page.kind == page_kind::pages && e.chance(50)) {
            // A large spec: now and then in elements (kept only when valid and in the domain).
            distribution_spec elements = in_element_units(e, s);
            if (in_domain(elements, info) && model_of(elements)) s = std::move(elements);
        }
        out = std::move(s);
        return true;
    }
    return false;
}

bool gen_small(testkit::entropy& e, const impl_info& info, distribution_spec& out) {
    return generate_valid(e, info, out, 256, 0);
}

bool gen_placement(testkit::entropy& e, const impl_info& info, distribution_spec& out) {
    return generate_valid(e, info, out, 256, 3);
}

bool fits_any(const distribution_spec& s, const impl_info& info) { return in_domain(s, info); }

bool fits_valid(const distribution_spec& s, const impl_info& info) {
    return in_domain(s, info) && model_of(s).has_value();
}

bool fits_small_valid(const distribution_spec& s, const impl_info& info) {
    if (!in_domain(s, info)) return false;
    const auto m = model_of(s);
    return m && small_model(*m);
}

bool gen_v2_mix(testkit::entropy& e, const impl_info& info, distribution_spec& out,
                bool (*large)(testkit::entropy&, const impl_info&, distribution_spec&)) {
    distribution_spec s;
    const std::uint64_t kind = e.between(0, 19);
    const bool made = kind < 8    ? gen_run_shaped(e, info, s)
                      : kind < 17 ? generate_valid(e, info, s, 256, 0)
                                  : large(e, info, s);
    if (!made) return false;
    near_limit_now_and_then(e, s);
    out = std::move(s);
    return true;
}

}  // namespace ndshard::conform::laws
