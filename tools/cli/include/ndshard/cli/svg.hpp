// ndshard/cli/svg.hpp - a picture of a distribution, like the ND-sharding proposal's.
//
// Left: the tensor's page grid, one cell per page coloured by its core - a rank-3
// tensor as an oblique 3D block of cubes (depth = dim 0, rows = dim 1, columns = dim 2),
// a rank-4+ tensor as a row of such blocks (one per index of the leading dims), rank 1-2
// as a flat grid. Shards are drawn slightly apart; padding slots of edge shards are
// faint dashed outlines. Right (or below): the cores on the core grid, each with its
// slots stacked top to bottom. Bottom: a legend of the cores.
//
// Every element a test needs is tagged: cells are <g class="page" data-page data-core
// fill>, padding <g class="pad" data-core>, core-panel slots <rect class="slot"
// data-core data-offset [data-page]>, legend entries <g class="legend" data-core data-x
// data-y fill>.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "ndshard/distribution.hpp"

namespace ndshard::cli {

// What one cell of a picture stands for: a page, or (when there are too many pages to
// draw one by one) a whole shard. automatic picks page up to the limits below.
enum class draw_level : std::uint8_t { automatic, shard, page };

struct svg_options {
    std::optional<core_coord> highlight;  // emphasise this core, fade the others
    draw_level level = draw_level::automatic;
};

// The tensor view draws at most this many cells (pages plus padding); past it padding
// is left out, and a tensor with more pages than this is refused (usage_error).
inline constexpr std::uint64_t svg_cell_limit = 20000;

// [3,7,5]/[2,2,2] on a 2x3 grid -> a 3x7x5 block in 6 colours and a 2x3 panel of cores.
std::string render_svg(const distribution& d, const svg_options& options = {});

}  // namespace ndshard::cli
