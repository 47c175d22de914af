// ndshard/specio/values.hpp - strict parsing of every value of a spec given as text
// (a flag's value, or a string in spec JSON), and printing them back.
//
// Each parser takes the text and a label naming where it came from ("--tensor",
// "spec.tensor") and either returns the value or throws input_error with one line that
// names the value and the rule it breaks:
//   parse_shape("3,,5", "--tensor")  ->  --tensor "3,,5": empty dim at position 2
// Numbers are unsigned decimal digits only: no sign, no junk, nothing above 2^64-1.
// Nothing here checks a spec's semantics; make_distribution does that, once.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "ndshard/shape.hpp"
#include "ndshard/spec.hpp"

namespace ndshard::specio {

// A bad value or spec text: what() is one line, without a trailing newline.
class input_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Quotes user text for an error message: control bytes escaped, long text shortened,
// so the message stays one readable line. quote_value("3,,5") == "\"3,,5\"".
std::string quote_value(std::string_view text);

// "42" -> 42. Rejects "", "-1", "+1", "4 2", "0x10", "18446744073709551616".
std::uint64_t parse_u64(std::string_view text, std::string_view what);

// "3,7,5" or "[3,7,5]" -> [3,7,5]; 1..8 dims, each >= 0 (a zero dim is a spec question).
shape parse_shape(std::string_view text, std::string_view what);

// "2x3" -> the range (0,0)-(1,2): X cores wide (x), Y cores high (y); both >= 1.
core_range parse_grid(std::string_view text, std::string_view what);

// "(0,0)-(3,3),(5,5)" -> two ranges, in the order given. Coordinates must fit 32 bits
// here; the 16-bit device limit is make_distribution's rule core_coord.
std::vector<core_range> parse_cores(std::string_view text, std::string_view what);

// "X,Y" or "(X,Y)" -> one core.
core_coord parse_core(std::string_view text, std::string_view what);

// tt-metal's and ttnn's enum spellings are taken too: every enum value below is matched
// case-insensitively (no two values differ only in case), and may carry a qualifier that
// names its enum, as C++ or Python print it:
//   enum_spelling("ttnn.ShardOrientation.COL_MAJOR", "ShardOrientation") == "col_major"
//   enum_spelling("ROW_MAJOR", "Layout") == "row_major"
// A qualifier naming another enum stays, so that value is refused with the usual message.
std::string enum_spelling(std::string_view text, std::string_view enum_name);

// "pages" | "tile" | "tile:HxW" | "row" | "row_major" (tt-metal's Layout::TILE / ROW_MAJOR).
page_config parse_page(std::string_view text, std::string_view what);

// "row_major" | "col_major" (tt-metal's ShardOrientation::ROW_MAJOR / COL_MAJOR).
orientation parse_orientation(std::string_view text, std::string_view what);

// "round_robin_1d" | "contiguous_1d" | "grid_2d" (tt-metal's ShardDistributionStrategy::
// ROUND_ROBIN_1D / GRID_2D; CONTIGUOUS_1D is ndshard's own, spelled alike).
strategy parse_strategy(std::string_view text, std::string_view what);

// The inverse of parse_page / parse_cores, for spec JSON written by the program:
// format_page({tile, 16, 32}) == "tile:16x32"; format_cores(...) == "(0,0)-(3,3),(5,5)".
std::string format_page(const page_config& page);
std::string format_cores(const std::vector<core_range>& cores);

}  // namespace ndshard::specio
