// tt-metalium/work_split.hpp - split_work_to_cores: units of work over a grid's first cores
// (or a CoreRangeSet's), the first (units % cores) of them one unit more. Returns, in
// tt-metal's order: the cores used, all of them, group 1 (the more loaded), group 2, units
// per core of group 1 and of group 2. Cores are taken column by column (y fastest), or row by
// row when row_wise; a CoreRangeSet's range by range, each in that order.
//
//   split_work_to_cores({4, 2}, 10)  ->  8 cores, {(0,0)-(3,1)}, {(0,0)-(0,1)}, {(1,0)-(3,1)}, 2, 1
//   split_work_to_cores({4, 2}, 3)   ->  3 cores, {(0,0)-(0,1), (1,0)-(1,0)}, the same, {}, 1, 0
//
// num_cores_to_corerangeset: the first cores of a grid (from a start core) as ranges.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "tt-metalium/core_coord.hpp"

namespace tt::tt_metal {

namespace detail {

// Cores [first, first + count) of `area`'s order as ranges: a partial line, whole lines, a
// partial line (tt-metal's cut), appended to `out`.
inline void line_ranges(std::size_t first, std::size_t count, const CoreRange& area, bool row_wise,
                        std::vector<CoreRange>& out) {
    const CoreCoord grid = area.grid_size();
    const std::size_t line = row_wise ? grid.x : grid.y;  // cores per row (or column)
    auto at = [&](std::size_t i) {
        return row_wise ? CoreCoord{area.start_coord.x + i % line, area.start_coord.y + i / line}
                        : CoreCoord{area.start_coord.x + i / line, area.start_coord.y + i % line};
    };
    std::size_t i = first;
    const std::size_t end = first + count;
    while (i < end) {
        const std::size_t in_line = i % line;
        std::size_t stop = std::min(end, i - in_line + line);                     // the end of this line
        if (in_line == 0 && end - i >= line) stop = i + (end - i) / line * line;  // whole lines
        out.emplace_back(at(i), at(stop - 1));
        i = stop;
    }
}
inline CoreRangeSet line_ranges(std::uint32_t first, std::uint32_t count, CoreCoord grid, bool row_wise) {
    std::vector<CoreRange> out;
    if (count > 0) line_ranges(first, count, CoreRange({0, 0}, {grid.x - 1, grid.y - 1}), row_wise, out);
    return CoreRangeSet(std::move(out));
}
// Cores [first, first + count) of a set's order (range by range).
inline CoreRangeSet set_ranges(std::size_t first, std::size_t count, const CoreRangeSet& set, bool row_wise) {
    std::vector<CoreRange> out;
    std::size_t base = 0;  // the set's index of the range's first core
    for (const CoreRange& r : set.ranges()) {
        const std::size_t lo = std::max(first, base), hi = std::min(first + count, base + r.size());
        if (lo < hi) line_ranges(lo - base, hi - lo, r, row_wise, out);
        base += r.size();
    }
    return CoreRangeSet(std::move(out));
}

using split_result = std::tuple<std::uint32_t, CoreRangeSet, CoreRangeSet, CoreRangeSet, std::uint32_t, std::uint32_t>;

// The split once the cores are ordered: `take(first, count)` names cores [first, first + count).
template <class Take>
split_result split(std::uint32_t max_cores, std::uint32_t units, const CoreRangeSet& whole, Take take) {
    if (units == 0 || max_cores == 0) return {0, CoreRangeSet(), CoreRangeSet(), CoreRangeSet(), 0, 0};
    const std::uint32_t cores = units < max_cores ? units : max_cores;
    const CoreRangeSet all = cores == max_cores ? whole : take(0, cores);
    const std::uint32_t base = units / cores, more = units % cores;
    if (more == 0) return {cores, all, all, CoreRangeSet(), base, 0};
    return {cores, all, take(0, more), take(more, cores - more), base + 1, base};
}

}  // namespace detail

// target_num_cores cores of a grid_size grid from start_core on, as ranges; std::invalid_argument
// when start_core is off the grid or fewer cores follow it.
inline CoreRangeSet num_cores_to_corerangeset(const CoreCoord start_core, const std::uint32_t target_num_cores,
                                              const CoreCoord grid_size, const bool row_wise = false) {
    if (start_core.x >= grid_size.x || start_core.y >= grid_size.y)
        throw std::invalid_argument("num_cores_to_corerangeset: start core " + start_core.str() +
                                    " is outside the grid " + grid_size.str());
    const std::size_t first =
        row_wise ? start_core.y * grid_size.x + start_core.x : start_core.x * grid_size.y + start_core.y;
    const std::size_t available = grid_size.x * grid_size.y - first;
    if (target_num_cores > available)
        throw std::invalid_argument("num_cores_to_corerangeset: " + std::to_string(target_num_cores) + " cores, but " +
                                    std::to_string(available) + " from " + start_core.str() + " on in the grid " +
                                    grid_size.str());
    return detail::line_ranges(static_cast<std::uint32_t>(first), target_num_cores, grid_size, row_wise);
}
inline CoreRangeSet num_cores_to_corerangeset(const std::uint32_t target_num_cores, const CoreCoord grid_size,
                                              const bool row_wise = false) {
    return num_cores_to_corerangeset({0, 0}, target_num_cores, grid_size, row_wise);
}

inline detail::split_result split_work_to_cores(const CoreCoord grid_size, const std::uint32_t units_to_divide,
                                                const bool row_wise = false) {
    const auto max_cores = static_cast<std::uint32_t>(grid_size.x * grid_size.y);
    const CoreRangeSet whole =
        max_cores == 0 ? CoreRangeSet() : CoreRangeSet(CoreRange({0, 0}, {grid_size.x - 1, grid_size.y - 1}));
    return detail::split(max_cores, units_to_divide, whole, [&](std::uint32_t first, std::uint32_t count) {
        return detail::line_ranges(first, count, grid_size, row_wise);
    });
}

// Over the cores of `core_grid`, range by range; every core of it when units_to_divide >= its cores.
inline detail::split_result split_work_to_cores(const CoreRangeSet& core_grid, const std::uint32_t units_to_divide,
                                                const bool row_wise = false) {
    return detail::split(core_grid.num_cores(), units_to_divide, core_grid,
                         [&](std::uint32_t first, std::uint32_t count) {
                             return detail::set_ranges(first, count, core_grid, row_wise);
                         });
}

}  // namespace tt::tt_metal
