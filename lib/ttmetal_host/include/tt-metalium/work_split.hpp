// tt-metalium/work_split.hpp - split_work_to_cores: units of work over a grid's first cores,
// the first (units % cores) of them one unit more. Returns, in tt-metal's order: the cores
// used, all of them, group 1 (the more loaded), group 2, units per core of group 1 and of
// group 2. Cores are taken column by column (y fastest), or row by row when row_wise.
//
//   split_work_to_cores({4, 2}, 10)  ->  8 cores, {(0,0)-(3,1)}, {(0,0)-(0,1)}, {(1,0)-(3,1)}, 2, 1
//   split_work_to_cores({4, 2}, 3)   ->  3 cores, {(0,0)-(0,1), (1,0)-(1,0)}, the same, {}, 1, 0
#pragma once

#include <cstdint>
#include <tuple>
#include <vector>

#include "tt-metalium/core_coord.hpp"

namespace tt::tt_metal {

namespace detail {

// Cores [first, first + count) of the grid's order as ranges: a partial line, full lines, a partial line.
inline CoreRangeSet line_ranges(std::uint32_t first, std::uint32_t count, CoreCoord grid, bool row_wise) {
    const std::size_t line = row_wise ? grid.x : grid.y;  // cores per row (or column)
    auto at = [&](std::size_t i) { return row_wise ? CoreCoord{i % line, i / line} : CoreCoord{i / line, i % line}; };
    std::vector<CoreRange> out;
    std::size_t i = first;
    const std::size_t end = std::size_t{first} + count;
    while (i < end) {
        const std::size_t in_line = i % line;
        std::size_t stop = std::min(end, i - in_line + line);                     // the end of this line
        if (in_line == 0 && end - i >= line) stop = i + (end - i) / line * line;  // whole lines
        out.emplace_back(at(i), at(stop - 1));
        i = stop;
    }
    return CoreRangeSet(std::move(out));
}

}  // namespace detail

inline std::tuple<std::uint32_t, CoreRangeSet, CoreRangeSet, CoreRangeSet, std::uint32_t, std::uint32_t>
split_work_to_cores(const CoreCoord grid_size, const std::uint32_t units_to_divide, const bool row_wise = false) {
    const auto max_cores = static_cast<std::uint32_t>(grid_size.x * grid_size.y);
    if (units_to_divide == 0 || max_cores == 0) return {0, CoreRangeSet(), CoreRangeSet(), CoreRangeSet(), 0, 0};
    const std::uint32_t cores = units_to_divide < max_cores ? units_to_divide : max_cores;
    const CoreRangeSet all = cores == max_cores ? CoreRangeSet(CoreRange({0, 0}, {grid_size.x - 1, grid_size.y - 1}))
                                                : detail::line_ranges(0, cores, grid_size, row_wise);
    const std::uint32_t base = units_to_divide / cores, more = units_to_divide % cores;
    if (more == 0) return {cores, all, all, CoreRangeSet(), base, 0};
    return {cores,
            all,
            detail::line_ranges(0, more, grid_size, row_wise),
            detail::line_ranges(more, cores - more, grid_size, row_wise),
            base + 1,
            base};
}

}  // namespace tt::tt_metal
