// ndshard/spec.hpp - a distribution spec as a plain value (what a user writes down).
//
// Nothing here is validated; make_distribution (distribution.hpp) is the one place
// that checks a spec against docs/rules.md and derives everything else.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ndshard/limits.hpp"
#include "ndshard/shape.hpp"

namespace ndshard {

enum class page_kind : std::uint8_t {
    pages,      // shapes are already in pages
    tile,       // TILE layout: a page is a tile_h x tile_w tile of the last two dims
    row_major,  // ROW_MAJOR layout: a page is one row of shard[-1] elements
};

struct page_config {
    page_kind kind = page_kind::pages;
    std::uint64_t tile_h = 32;
    std::uint64_t tile_w = 32;
    friend constexpr bool operator==(const page_config&, const page_config&) = default;
};

enum class orientation : std::uint8_t { row_major, col_major };

enum class strategy : std::uint8_t {
    round_robin_1d,  // shard s -> core s % P, slot s / P
    contiguous_1d,   // k = ceil(vol(G)/P): shard s -> core s / k, slot s % k
    grid_2d,         // legacy block sharding: one shard per core over one trimmed range
};

// Inclusive range (x0,y0)-(x1,y1); a single core is a 1x1 range.
struct core_range {
    core_coord start;
    core_coord end;
    friend constexpr bool operator==(const core_range&, const core_range&) = default;
};

struct distribution_spec {
    shape tensor;  // elements (pages when page.kind == pages)
    shape shard;   // same units, rank <= rank(tensor)
    page_config page{};
    std::uint64_t element_size = 1;  // bytes; for page_kind::pages, the page size
    std::uint64_t alignment = 1;     // power of two; pages are padded to it
    std::vector<core_range> cores;   // ordered; expanded range by range
    orientation orient = orientation::row_major;
    strategy strat = strategy::round_robin_1d;
    std::uint64_t bank_base = 0;  // the buffer's byte address in every bank

    friend bool operator==(const distribution_spec&, const distribution_spec&) = default;
};

constexpr const char* to_string(page_kind k) noexcept {
    switch (k) {
        case page_kind::pages:
            return "pages";
        case page_kind::tile:
            return "tile";
        case page_kind::row_major:
            return "row_major";
    }
    return "?";
}
constexpr const char* to_string(orientation o) noexcept {
    return o == orientation::row_major ? "row_major" : "col_major";
}
constexpr const char* to_string(strategy s) noexcept {
    switch (s) {
        case strategy::round_robin_1d:
            return "round_robin_1d";
        case strategy::contiguous_1d:
            return "contiguous_1d";
        case strategy::grid_2d:
            return "grid_2d";
    }
    return "?";
}
inline std::string to_string(core_coord c) {
    std::string out = "(";
    out += std::to_string(c.x);
    out += ',';
    out += std::to_string(c.y);
    out += ')';
    return out;
}
inline std::string to_string(core_range r) {
    return r.start == r.end ? to_string(r.start) : to_string(r.start) + "-" + to_string(r.end);
}

// Cores of one range in orientation order: (0,0)-(1,1) row_major -> (0,0),(1,0),(0,1),(1,1).
// Assumes start <= end in both coordinates (validated by make_distribution).
inline void append_range(std::vector<core_coord>& out, core_range r, orientation o) {
    if (o == orientation::row_major) {
        for (std::uint64_t y = r.start.y; y <= r.end.y; ++y)
            for (std::uint64_t x = r.start.x; x <= r.end.x; ++x)
                out.push_back({static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y)});
    } else {
        for (std::uint64_t x = r.start.x; x <= r.end.x; ++x)
            for (std::uint64_t y = r.start.y; y <= r.end.y; ++y)
                out.push_back({static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y)});
    }
}

// The grid "XxY" as one range: grid(2, 3) == (0,0)-(1,2).
constexpr core_range grid_range(std::uint32_t x, std::uint32_t y) noexcept { return {{0, 0}, {x - 1, y - 1}}; }

}  // namespace ndshard
