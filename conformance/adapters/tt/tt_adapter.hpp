// conformance/adapters/tt/tt_adapter.hpp - what the two adapters over tt-metal's accessor
// front end share: the C spec as ndshard's, the domain tt-metal's words can express, and
// the conversions of a query's arguments to the words' terms. No address math: every
// location comes from the accessor of the adapter that includes this.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "adapter_support.hpp"
#include "ndshard/conformance.h"
#include "ndshard/distribution.hpp"
#include "ndshard/spec.hpp"

namespace ndsc_tt {

// tt-metal packs a bank coordinate as (x << 8) | y, 8 bits each.
inline constexpr std::uint32_t max_core_coord = 255;

// ndsc_describe of a tt adapter: every query, the strategies given, every page kind and
// rank, coordinates up to 255.
inline int describe(ndsc_info* info, const char* name, std::uint32_t strategies) {
    const int status = ndsc_support::describe_full_domain(info, name, "0.1.0");
    info->queries |= NDSC_Q_PAGE_RUN | NDSC_Q_THREAD_PAGES;
    info->strategies = strategies;
    if (NDSC_INFO_HAS(info, max_core_coord)) info->max_core_coord = max_core_coord;
    return status;
}

// Whether every core of the spec's ranges fits the words' 8 bits (the declared domain).
inline bool coordinates_fit(const ndshard::distribution_spec& s) {
    for (const ndshard::core_range& r : s.cores)
        if (r.start.x > max_core_coord || r.start.y > max_core_coord || r.end.x > max_core_coord ||
            r.end.y > max_core_coord)
            return false;
    return true;
}

// A page coordinate in the tensor's rank as the words' coordinate, in the folded (shard)
// rank: the leading dims become one, row-major, as folding keeps page ids. False when the
// coordinate has another rank or a digit past its extent (NDSC_OUT_OF_RANGE).
inline bool folded_coordinate(const ndshard::distribution& d, const std::uint64_t* coord, std::uint32_t rank,
                              std::uint32_t (&folded)[NDSC_MAX_RANK]) {
    const ndshard::shape& t = d.tensor_pages;
    if (coord == nullptr || rank != t.rank()) return false;
    for (std::uint32_t k = 0; k < rank; ++k)
        if (coord[k] >= t[k]) return false;
    const std::size_t lead = t.rank() - d.layout.rank();  // dims 0..lead fold into dim 0
    std::uint64_t first = 0;
    for (std::size_t k = 0; k <= lead; ++k) first = first * t[k] + coord[k];
    folded[0] = static_cast<std::uint32_t>(first);
    for (std::size_t k = 1; k < d.layout.rank(); ++k) folded[k] = static_cast<std::uint32_t>(coord[lead + k]);
    return true;
}

// A core of a grid_2d range trimmed off the shard grid: listed, but no bank (it holds no page).
inline bool trimmed_grid_core(const ndshard::distribution_spec& s, std::uint32_t x, std::uint32_t y) {
    if (s.strat != ndshard::strategy::grid_2d || s.cores.empty()) return false;
    const ndshard::core_range& r = s.cores.front();
    return x >= r.start.x && x <= r.end.x && y >= r.start.y && y <= r.end.y;
}

}  // namespace ndsc_tt
