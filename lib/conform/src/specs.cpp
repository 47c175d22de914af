// Specs for the C ABI, as command-line flags, and inside an implementation's domain.
#include "ndshard/conform/specs.hpp"

#include <algorithm>
#include <cstring>

#include <ndshard/oracle/oracle.hpp>

#include "ndshard/specio/spec_text.hpp"
#include "ndshard/testkit/oracle_bridge.hpp"

namespace ndshard::conform {

abi_spec::abi_spec(const distribution_spec& s) {
    spec_.struct_size = sizeof(ndsc_spec);
    spec_.rank = static_cast<std::uint32_t>(s.tensor.rank());
    for (std::size_t d = 0; d < s.tensor.rank() && d < NDSC_MAX_RANK; ++d) spec_.tensor[d] = s.tensor[d];
    spec_.shard_rank = static_cast<std::uint32_t>(s.shard.rank());
    for (std::size_t d = 0; d < s.shard.rank() && d < NDSC_MAX_RANK; ++d) spec_.shard[d] = s.shard[d];
    switch (s.page.kind) {
        case page_kind::pages:
            spec_.page_kind = NDSC_PAGES;
            break;
        case page_kind::tile:
            spec_.page_kind = NDSC_TILE;
            break;
        case page_kind::row_major:
            spec_.page_kind = NDSC_ROW_MAJOR_PAGES;
            break;
    }
    spec_.tile_h = s.page.tile_h;
    spec_.tile_w = s.page.tile_w;
    spec_.element_size = s.element_size;
    spec_.alignment = s.alignment;
    spec_.orientation = s.orient == orientation::row_major ? NDSC_ROW_MAJOR : NDSC_COL_MAJOR;
    spec_.strategy = static_cast<std::uint32_t>(s.strat);  // same numbering as enum ndsc_strategy
    spec_.bank_base = s.bank_base;
    for (const core_range& r : s.cores) ranges_.push_back({r.start.x, r.start.y, r.end.x, r.end.y});
    spec_.num_ranges = static_cast<std::uint32_t>(ranges_.size());
    spec_.ranges = ranges_.empty() ? nullptr : ranges_.data();
}

void abi_spec::scribble() noexcept {
    const std::uint32_t size = spec_.struct_size;
    std::memset(static_cast<void*>(&spec_), 0xA5, sizeof spec_);
    spec_.struct_size = size;
    for (auto& r : ranges_) r = {0xA5A5A5A5U, 0xA5A5A5A5U, 0, 0};
}

std::uint64_t total_pages(const distribution_spec& s) {
    try {
        const oracle::verdict v = oracle::evaluate(testkit::to_oracle(s));
        if (v.accepted && v.accepted->num_pages <= oracle::big(UINT64_MAX))
            return static_cast<std::uint64_t>(v.accepted->num_pages);
    } catch (const std::exception&) {}
    std::uint64_t product = 1;  // saturating
    for (auto d : s.tensor) product = d != 0 && product > UINT64_MAX / d ? UINT64_MAX : product * d;
    return product;
}

bool in_domain(const distribution_spec& s, const impl_info& info) {
    const auto rank = static_cast<std::uint32_t>(s.tensor.rank());
    if (rank < info.min_rank || rank > info.max_rank) return false;
    if (!info.has_strategy(static_cast<std::uint32_t>(s.strat))) return false;
    const std::uint32_t kind = s.page.kind == page_kind::pages  ? NDSC_PAGES
                               : s.page.kind == page_kind::tile ? NDSC_TILE
                                                                : NDSC_ROW_MAJOR_PAGES;
    if (!info.has_page_kind(kind) || s.cores.size() > UINT32_MAX) return false;
    return std::all_of(s.cores.begin(), s.cores.end(), [&](const core_range& r) {
        return info.has_core_coord(r.start.x) && info.has_core_coord(r.start.y) && info.has_core_coord(r.end.x) &&
               info.has_core_coord(r.end.y);
    });
}

namespace {

// Moves every core range towards the origin along an axis whose coordinates pass the
// declared largest one: (300,2)-(301,3) under 255 -> (0,2)-(1,3). Distinct cores stay
// distinct and grid_2d's fit does not depend on where its range is.
void move_cores_into(distribution_spec& s, std::uint32_t max_coord) {
    if (max_coord == 0 || s.cores.empty()) return;
    std::uint32_t min_x = UINT32_MAX, min_y = UINT32_MAX, max_x = 0, max_y = 0;
    for (const core_range& r : s.cores)
        for (const core_coord c : {r.start, r.end}) {
            min_x = std::min(min_x, c.x);
            min_y = std::min(min_y, c.y);
            max_x = std::max(max_x, c.x);
            max_y = std::max(max_y, c.y);
        }
    const std::uint32_t dx = max_x > max_coord ? min_x : 0, dy = max_y > max_coord ? min_y : 0;
    for (core_range& r : s.cores)
        for (core_coord* c : {&r.start, &r.end}) {
            c->x -= dx;
            c->y -= dy;
        }
}

}  // namespace

bool fit_to_domain(distribution_spec& s, const impl_info& info) {
    move_cores_into(s, info.max_core_coord);
    if (!info.has_strategy(static_cast<std::uint32_t>(s.strat))) {
        if (info.has_strategy(NDSC_ROUND_ROBIN_1D)) s.strat = strategy::round_robin_1d;
        else if (info.has_strategy(NDSC_CONTIGUOUS_1D)) s.strat = strategy::contiguous_1d;
        else return false;  // grid_2d only: the law's own generator must aim at it
    }
    const std::uint32_t kind = s.page.kind == page_kind::pages  ? NDSC_PAGES
                               : s.page.kind == page_kind::tile ? NDSC_TILE
                                                                : NDSC_ROW_MAJOR_PAGES;
    if (!info.has_page_kind(kind) && info.has_page_kind(NDSC_PAGES)) {
        // The same page grid, given in pages; the page size stays the same.
        try {
            const oracle::verdict v = oracle::evaluate(testkit::to_oracle(s));
            if (!v.accepted) return false;
            const oracle::model& m = *v.accepted;
            shape t, sh;
            for (const auto& d : m.tensor_pages) t.push_back(testkit::to_u64(d));
            // The model's shard is at the shard rank; the spec keeps that rank.
            for (const auto& d : m.shard_pages) sh.push_back(testkit::to_u64(d));
            s.tensor = t;
            s.shard = sh;
            s.element_size = testkit::to_u64(m.page_size);
            s.page = page_config{};
        } catch (const std::exception&) {
            return false;
        }
    }
    return in_domain(s, info);
}

std::string spec_key(const distribution_spec& s) {
    return specio::spec_to_flags(s) + " " + std::to_string(s.page.tile_h) + "x" + std::to_string(s.page.tile_w);
}

}  // namespace ndshard::conform
