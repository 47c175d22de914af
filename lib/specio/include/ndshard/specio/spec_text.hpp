// ndshard/specio/spec_text.hpp - a distribution spec from flag text or from JSON, and
// back to JSON or flags. Used by the `ndshard` program (tools/) and the fuzz targets.
//
// Flags and JSON share one vocabulary: the JSON keys are the flag names (with '_'
// where the flag has '-'). Both fill a spec_fields; to_spec turns it into a
// distribution_spec (not yet validated: make_distribution does that, once).
//
//   {"tensor":[3,7,5],"shard":[2,2,2],"grid":"2x3"}
//   {"tensor":[4,8,8],"interleaved":true,"banks":12}
//
// Interleaved specs: every page is its own shard, dealt round robin over the banks.
// The banks are the cores given by "cores" or "grid" when present; otherwise "banks": B
// stands for one row of cores (0,0)-(B-1,0). With both, B must equal the core count.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "ndshard/spec.hpp"

namespace ndshard::specio {

struct spec_fields {
    std::optional<shape> tensor;
    std::optional<shape> shard;
    std::optional<core_range> grid;
    std::optional<std::vector<core_range>> cores;
    std::optional<page_config> page;
    std::optional<orientation> orient;
    std::optional<strategy> strat;
    std::optional<std::uint64_t> element_size;
    std::optional<std::uint64_t> alignment;
    std::optional<std::uint64_t> bank_base;
    std::optional<bool> interleaved;
    std::optional<std::uint64_t> banks;

    // Every field, in declaration order: the one list of them that code walking all fields
    // (merge_into) uses, so a new field cannot be forgotten there.
    auto all() {
        return std::tie(tensor, shard, grid, cores, page, orient, strat, element_size, alignment, bank_base,
                        interleaved, banks);
    }
    auto all() const {
        return std::tie(tensor, shard, grid, cores, page, orient, strat, element_size, alignment, bank_base,
                        interleaved, banks);
    }
};

// The raw flag values of one spec (unset flags stay empty).
struct spec_flag_text {
    std::optional<std::string> tensor, shard, grid, cores, page, orientation, strategy, element_size, alignment,
        bank_base, banks;
    bool interleaved = false;
};

// Every field set in `over` replaces the one in `base`.
void merge_into(spec_fields& base, const spec_fields& over);

// Parses each given flag with its strict parser (labels "--tensor", ...).
spec_fields fields_from_flags(const spec_flag_text& flags);

// A JSON object whose keys are the flag names. Shapes: [3,7,5] or "3,7,5"; grid: "2x3"
// or [2,3]; cores: "(0,0)-(1,1),(3,3)" or ["(0,0)-(1,1)","(3,3)"]; numbers: non-negative
// integers (or their decimal strings); interleaved: true/false. Unknown or repeated keys,
// other JSON types and nesting deeper than the forms above are errors.
spec_fields parse_spec_fields_json(std::string_view json);

// The spec the fields describe: {"tensor":[3,7,5],"shard":[2,2,2],"grid":"2x3"} ->
// tensor [3,7,5], shard [2,2,2], cores (0,0)-(1,2). Throws input_error for a missing
// tensor, shard or core list and for contradictory keys.
distribution_spec to_spec(const spec_fields& fields);

// parse_spec_fields_json + to_spec. Never exits; throws input_error (or spec_error for
// a shape of rank > 8) on bad input, nothing else.
distribution_spec parse_spec_json(std::string_view json);

// A flat JSON object as flag text, keys in order: {"tensor":[8,5],"shard_height":2} ->
// {{"tensor","8,5"},{"shard_height","2"}}. Strings stay as they are; non-negative
// integers and lists of them become decimal text; true/false become "true"/"false".
// Same guards as parse_spec_fields_json (repeated keys, nesting, size).
std::vector<std::pair<std::string, std::string>> json_as_flag_text(std::string_view json);

// The interleaved bank row: banks_row(12, "--banks") == {(0,0)-(11,0)}; 1..65536 banks.
std::vector<core_range> banks_row(std::uint64_t banks, std::string_view what);

// The largest spec text read (JSON or a file holding it); a spec is a few hundred bytes.
inline constexpr std::size_t max_spec_bytes = std::size_t{1} << 20;

// The spec as one line of JSON with every key, readable back by parse_spec_json.
std::string spec_to_json(const distribution_spec& spec);

// The spec as flags `ndshard map` accepts, values quoted for a POSIX shell:
// --tensor 3,7,5 --shard 2,2,2 --cores '(0,0)-(1,2)' --page pages ... (every field given).
std::string spec_to_flags(const distribution_spec& spec);

}  // namespace ndshard::specio
