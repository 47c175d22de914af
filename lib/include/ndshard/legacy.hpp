// ndshard/legacy.hpp - interleaved and legacy HEIGHT / WIDTH / BLOCK sharding as ND specs.
//
// Legacy layouts see the tensor (in pages) as 2D [H, W], all leading dims folded into H:
//   HEIGHT [sh, W]: page (r,c) -> core r / sh;  WIDTH [H, sw]: core c / sw;
//   BLOCK  [sh, sw]: GRID_2D over one core range; a legacy layout never gives a core two
//   shards. Interleaved over B banks is the all-ones shard.
// to_nd converts any of them; from_nd (the first kind that fits) and from_nd_as (one
// given kind) go back only when the result provably maps every page to the same core and
// offset (equal canonical squeezed forms), else explain why.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ndshard/distribution.hpp"
#include "ndshard/squeeze.hpp"

namespace ndshard {

enum class legacy_layout : std::uint8_t { interleaved, height, width, block };

constexpr const char* to_string(legacy_layout k) noexcept {
    switch (k) {
        case legacy_layout::interleaved:
            return "interleaved";
        case legacy_layout::height:
            return "height";
        case legacy_layout::width:
            return "width";
        case legacy_layout::block:
            return "block";
    }
    return "?";
}

struct legacy_spec {
    legacy_layout layout = legacy_layout::height;
    shape tensor;                    // in pages
    std::uint64_t shard_height = 1;  // HEIGHT and BLOCK
    std::uint64_t shard_width = 1;   // WIDTH and BLOCK
    std::vector<core_range> cores;   // interleaved: the banks, in bank order
    orientation orient = orientation::row_major;
    std::uint64_t page_size = 1;
    std::uint64_t alignment = 1;
    std::uint64_t bank_base = 0;
    friend bool operator==(const legacy_spec&, const legacy_spec&) = default;
};

// The legacy 2D view: [2,3,4] pages -> {H = 6, W = 4}.
inline std::pair<std::uint64_t, std::uint64_t> legacy_view(const shape& tensor) {
    std::uint64_t h = 1;
    for (std::size_t d = 0; d + 1 < tensor.rank(); ++d) h = sat_mul(h, tensor[d]);
    return {h, tensor.back()};
}

// The ND spec of a legacy layout (not yet validated: pass it to make_distribution).
// Throws spec_error("legacy_cores") when HEIGHT/WIDTH would give a core two shards.
inline distribution_spec to_nd(const legacy_spec& l) {
    distribution_spec s;
    s.page = {page_kind::pages};
    s.element_size = l.page_size;
    s.alignment = l.alignment;
    s.bank_base = l.bank_base;
    s.cores = l.cores;
    s.orient = l.orient;
    if (l.tensor.rank() == 0) throw spec_error("rank", "legacy tensor has rank 0 [rule rank]");
    if (l.layout == legacy_layout::interleaved) {
        s.tensor = l.tensor;
        for (std::size_t d = 0; d < l.tensor.rank(); ++d) s.shard.push_back(1);
        return s;
    }
    const auto [h, w] = legacy_view(l.tensor);
    s.tensor = {h, w};
    switch (l.layout) {
        case legacy_layout::height:
            s.shard = {l.shard_height, w == 0 ? 1 : w};
            break;
        case legacy_layout::width:
            s.shard = {h == 0 ? 1 : h, l.shard_width};
            break;
        default:
            s.shard = {l.shard_height, l.shard_width};
            s.strat = strategy::grid_2d;
            break;
    }
    if (l.layout != legacy_layout::block && s.shard[0] != 0 && s.shard[1] != 0) {
        std::uint64_t cores = 0;
        for (const core_range& r : l.cores)
            if (r.start.x <= r.end.x && r.start.y <= r.end.y)
                cores += (std::uint64_t{r.end.x} - r.start.x + 1) * (std::uint64_t{r.end.y} - r.start.y + 1);
        const std::uint64_t shards = ceil_div(h, s.shard[0]) * ceil_div(w, s.shard[1]);
        if (shards > cores)
            throw spec_error("legacy_cores",
                             std::string(to_string(l.layout)) + " sharding of [" + std::to_string(h) + "," +
                                 std::to_string(w) + "] makes " + std::to_string(shards) + " shards for " +
                                 std::to_string(cores) +
                                 " cores; legacy layouts never give a core two shards [rule legacy_cores]");
    }
    return s;
}

// True when a and b send every page to the same core coordinate and device offset:
// equal squeezed shapes, and the same cores holding the same shard slots.
inline bool same_mapping(const distribution& a, const distribution& b) {
    const page_layout la = squeeze(a.layout), lb = squeeze(b.layout);
    if (!(la.tensor == lb.tensor) || !(la.shard == lb.shard) || la.num_shards != lb.num_shards ||
        la.max_shards_per_core != lb.max_shards_per_core)
        return false;
    if (la.max_shards_per_core <= 1) {  // each shard alone on a core: only the cores in shard order matter
        for (std::uint64_t s = 0; s < la.num_shards; ++s)
            if (!(a.cores[la.shard_home(s).core] == b.cores[lb.shard_home(s).core])) return false;
        return true;
    }
    return la.rule == lb.rule && a.cores == b.cores;
}

struct legacy_result {
    std::optional<legacy_spec> spec;  // set when exactly expressible
    std::string reason;               // why not, otherwise
};

// ND -> one legacy layout: set when d is exactly expressible as `kind` (checked page for
// page with same_mapping), else why that kind cannot express it.
inline legacy_result from_nd_as(const distribution& d, legacy_layout kind) {
    legacy_spec l;
    l.layout = kind;
    l.tensor = d.tensor_pages;
    l.page_size = d.page_size;
    l.alignment = d.spec.alignment;
    l.bank_base = d.bank_base;
    for (const core_coord& c : d.cores) l.cores.push_back({c, c});
    auto matches = [&](const legacy_spec& x) {
        try {
            return same_mapping(d, make_distribution(to_nd(x)));
        } catch (const spec_error&) {
            return false;
        }
    };
    const page_layout& lay = d.layout;
    const auto [h, w] = legacy_view(d.tensor_pages);
    const std::string view = "the 2D view [" + std::to_string(h) + "," + std::to_string(w) + "]";
    const std::uint64_t vol = lay.shard_volume;
    if (kind == legacy_layout::interleaved) {
        if (vol != 1)
            return {std::nullopt, "a shard holds " + std::to_string(vol) + " pages; interleaving deals single pages"};
        if (lay.rule != deal_rule::round_robin && lay.max_shards_per_core > 1)
            return {std::nullopt, "pages are dealt to cores in blocks of " + std::to_string(lay.max_shards_per_core) +
                                      ", not one by one"};
        if (matches(l)) return {l, ""};
        return {std::nullopt, "page i is not on bank i % " + std::to_string(d.cores.size()) + " of this core list"};
    }
    if (lay.max_shards_per_core > 1)
        return {std::nullopt, "cores hold up to " + std::to_string(lay.max_shards_per_core) +
                                  " shards; legacy layouts give a core at most one"};
    // to_nd gives a zero-size view dim a shard side of 1 (there is nothing to cover).
    const std::uint64_t full_w = w == 0 ? 1 : w, full_h = h == 0 ? 1 : h;
    switch (kind) {
        case legacy_layout::height:
            if (vol % full_w != 0)
                return {std::nullopt, "a shard of " + std::to_string(vol) + " pages is not whole rows of " + view};
            l.shard_height = vol / full_w;
            if (matches(l)) return {l, ""};
            return {std::nullopt, "HEIGHT shards [" + std::to_string(l.shard_height) + "," + std::to_string(w) +
                                      "] of " + view + " do not land on these cores in this order"};
        case legacy_layout::width:
            if (vol % full_h != 0)
                return {std::nullopt, "a shard of " + std::to_string(vol) + " pages is not whole columns of " + view};
            l.shard_width = vol / full_h;
            if (matches(l)) return {l, ""};
            return {std::nullopt, "WIDTH shards [" + std::to_string(h) + "," + std::to_string(l.shard_width) + "] of " +
                                      view + " do not land on these cores in this order"};
        default: {
            const std::uint64_t sw = d.shard_pages.back();
            if (vol % sw != 0)
                return {std::nullopt, "a shard of " + std::to_string(vol) + " pages is not a rectangle of " + view};
            l.shard_height = vol / sw;
            l.shard_width = sw;
            const auto gh = ceil_div(h, l.shard_height), gw = ceil_div(w, sw);
            // With no shards the trimmed core list is empty: any range at the origin serves.
            const core_coord c0 = d.cores.empty() ? core_coord{0, 0} : d.cores.front();
            for (orientation o : {orientation::row_major, orientation::col_major}) {
                const std::uint64_t dx = std::max<std::uint64_t>(o == orientation::row_major ? gw : gh, 1);
                const std::uint64_t dy = std::max<std::uint64_t>(o == orientation::row_major ? gh : gw, 1);
                if (c0.x + dx - 1 > max_core_coord || c0.y + dy - 1 > max_core_coord) continue;
                l.orient = o;
                l.cores = {
                    {c0, {static_cast<std::uint32_t>(c0.x + dx - 1), static_cast<std::uint32_t>(c0.y + dy - 1)}}};
                if (matches(l)) return {l, ""};
            }
            return {std::nullopt, "BLOCK shards [" + std::to_string(l.shard_height) + "," + std::to_string(sw) +
                                      "] of " + view + " are not a grid_2d deal over one core range starting at " +
                                      to_string(c0)};
        }
    }
}

// ND -> legacy when exactly expressible; prefers interleaved, then HEIGHT, WIDTH, BLOCK.
inline legacy_result from_nd(const distribution& d) {
    for (legacy_layout kind :
         {legacy_layout::interleaved, legacy_layout::height, legacy_layout::width, legacy_layout::block}) {
        legacy_result r = from_nd_as(d, kind);
        if (r.spec) return r;
    }
    const page_layout& lay = d.layout;
    if (lay.max_shards_per_core > 1)
        return {std::nullopt, "cores hold up to " + std::to_string(lay.max_shards_per_core) +
                                  " shards; legacy layouts give a core at most one"};
    const auto [h, w] = legacy_view(d.tensor_pages);
    const page_layout sq = squeeze(lay);
    if (sq.rank() > 2)
        return {std::nullopt, "squeezed to " + to_string(sq.tensor) + " in " + to_string(sq.shard) +
                                  " shards: a shard is not a rectangle of the 2D [" + std::to_string(h) + "," +
                                  std::to_string(w) + "] view"};
    return {std::nullopt, "no HEIGHT, WIDTH or BLOCK layout of the [" + std::to_string(h) + "," + std::to_string(w) +
                              "] view puts the shards on these cores in this order"};
}

}  // namespace ndshard
