// ndshard/cli/render.hpp - what the commands print, from a validated distribution.
//
// Every renderer reads the mapping from the library (page_layout::page_at, locate,
// shards_on_core, ...); none computes a page's core or offset itself.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "ndshard/host_mapping.hpp"  // real_pages_per_core, which explain and show print
#include "ndshard/cli/svg.hpp"
#include "ndshard/cli/tt_args.hpp"
#include "ndshard/distribution.hpp"
#include "ndshard/legacy.hpp"

namespace ndshard::cli {

// `map` JSON, one line, the issue-2 contract:
// {"tensor_pages":[..],"shard_pages":[..],"num_shards":N,"max_shards_per_core":M,
//  "shard_volume":V,"cores":[{"x":X,"y":Y,"pages":[id or null, ...]}, ...]}
// Every core of the effective list, all M*V slots in device order. Streams: memory
// does not grow with the tensor.
void write_map_json(const distribution& d, std::ostream& out);

// `map --format csv`: header core_x,core_y,slot,page; one row per slot in the same
// order as the JSON; slot = device page offset; page empty for padding.
void write_map_csv(const distribution& d, std::ostream& out);

// `show`: a header line of facts, then per core its slots as page-id blocks ('.' is
// padding). `color` adds ANSI colours (the core palette). Refuses (usage_error) more
// than show_slot_limit slots: a terminal view of millions of pages helps nobody.
// Above it (or with draw_level::shard) each core's slots are one line per shard: its id,
// grid coordinate and real pages of vol(S), as a bar.
inline constexpr std::uint64_t show_slot_limit = 200000;
void write_show(const distribution& d, std::ostream& out, bool color, draw_level level = draw_level::automatic);

// `explain`: the facts a kernel writer needs (pages, shard grid, shards per core and
// the core groups, padding, bytes, legacy expressibility, squeezed shapes, accessor
// words). Works for any valid spec and never walks the pages: per-core figures come in
// closed form over the shard grid (host_mapping.hpp's real_pages_per_core), the rest per core.
// json: one object with every figure and every argument word; arch: the L1 of that
// architecture, with a warning when the reserved bytes per core exceed it.
struct explain_options {
    bool json = false;
    std::optional<tt_arch> arch;
};
void write_explain(const distribution& d, std::ostream& out, const explain_options& options = {});

// A legacy layout as one line of JSON whose keys are `convert --from` flag names.
std::string legacy_to_json(const legacy_spec& l);

// The shard shape without its extent-1 dims, in the same row-major order, as show and
// svg draw a slot: [1,1,2,2,1] -> [2,2]; all ones -> [1].
shape display_shape(const shape& s);

// Shared wording: "[2,64,96] elements (tile 32x32 pages)" etc.
std::string describe_units(const distribution_spec& spec);

}  // namespace ndshard::cli
