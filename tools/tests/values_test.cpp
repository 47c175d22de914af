// Strict flag-value parsing: every accepted form, every rejection and its message.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ndshard/cli/spec_input.hpp"

namespace ndshard::cli {
namespace {

// The usage_error message of f(), or "" when it does not throw.
template <class F>
std::string error_of(F&& f) {
    try {
        f();
    } catch (const usage_error& e) {
        return e.what();
    }
    return "";
}

TEST(CliValues, NumbersAreStrictDecimal) {
    EXPECT_EQ(parse_u64("0", "--x"), 0u);
    EXPECT_EQ(parse_u64(" 42 ", "--x"), 42u);
    EXPECT_EQ(parse_u64("18446744073709551615", "--x"), 18446744073709551615ull);
    EXPECT_EQ(error_of([] { parse_u64("18446744073709551616", "--x"); }),
              "--x \"18446744073709551616\": does not fit 64 bits (the maximum is 18446744073709551615)");
    EXPECT_EQ(error_of([] { parse_u64("-1", "--x"); }), "--x \"-1\": negative numbers are not allowed");
    EXPECT_EQ(error_of([] { parse_u64("+1", "--x"); }), "--x \"+1\": not a non-negative decimal integer");
    EXPECT_EQ(error_of([] { parse_u64("12abc", "--x"); }), "--x \"12abc\": not a non-negative decimal integer");
    EXPECT_EQ(error_of([] { parse_u64("0x10", "--x"); }), "--x \"0x10\": not a non-negative decimal integer");
    EXPECT_EQ(error_of([] { parse_u64("4 2", "--x"); }), "--x \"4 2\": not a non-negative decimal integer");
    EXPECT_EQ(error_of([] { parse_u64("", "--x"); }), "--x \"\": empty number");
    EXPECT_EQ(error_of([] { parse_u64("1.5", "--x"); }), "--x \"1.5\": not a non-negative decimal integer");
}

TEST(CliValues, Shapes) {
    EXPECT_EQ(parse_shape("3,7,5", "--tensor"), (shape{3, 7, 5}));
    EXPECT_EQ(parse_shape("[3, 7, 5]", "--tensor"), (shape{3, 7, 5}));
    EXPECT_EQ(parse_shape("0", "--tensor"), (shape{0}));
    EXPECT_EQ(parse_shape("1,2,3,4,5,6,7,8", "--tensor").rank(), 8u);
    EXPECT_EQ(error_of([] { parse_shape("3,,5", "--tensor"); }), "--tensor \"3,,5\": empty dim at position 2");
    EXPECT_EQ(error_of([] { parse_shape("3,7,", "--tensor"); }), "--tensor \"3,7,\": empty dim at position 3");
    EXPECT_EQ(error_of([] { parse_shape("", "--tensor"); }), "--tensor \"\": empty shape; give dims like 3,7,5");
    EXPECT_EQ(error_of([] { parse_shape("3,-7", "--shard"); }),
              "--shard \"3,-7\": dim 2 \"-7\": negative numbers are not allowed");
    EXPECT_EQ(error_of([] { parse_shape("3,7x", "--shard"); }),
              "--shard \"3,7x\": dim 2 \"7x\": not a non-negative decimal integer");
    EXPECT_EQ(error_of([] { parse_shape("1,2,3,4,5,6,7,8,9", "--tensor"); }),
              "--tensor \"1,2,3,4,5,6,7,8,9\": more than 8 dims; a shape has rank 1..8");
    EXPECT_EQ(error_of([] { parse_shape("[3,7", "--tensor"); }), "--tensor \"[3,7\": '[' without a closing ']'");
    EXPECT_EQ(error_of([] { parse_shape("99999999999999999999", "--tensor"); }),
              "--tensor \"99999999999999999999\": dim 1 \"99999999999999999999\": does not fit 64 bits (the maximum "
              "is 18446744073709551615)");
}

TEST(CliValues, Grid) {
    EXPECT_EQ(parse_grid("2x3", "--grid"), (core_range{{0, 0}, {1, 2}}));
    EXPECT_EQ(parse_grid("1X1", "--grid"), (core_range{{0, 0}, {0, 0}}));
    EXPECT_EQ(error_of([] { parse_grid("0x3", "--grid"); }),
              "--grid \"0x3\": a grid needs at least 1 core in each direction");
    EXPECT_EQ(error_of([] { parse_grid("2*3", "--grid"); }), "--grid \"2*3\": expected a grid XxY, e.g. 2x3");
    EXPECT_EQ(error_of([] { parse_grid("2x", "--grid"); }), "--grid \"2x\": height \"\": empty number");
    EXPECT_EQ(error_of([] { parse_grid("4294967297x1", "--grid"); }),
              "--grid \"4294967297x1\": 4294967297 cores do not fit 32-bit coordinates");
}

TEST(CliValues, CoreLists) {
    EXPECT_EQ(parse_cores("(0,0)-(3,3),(5,5)", "--cores"),
              (std::vector<core_range>{{{0, 0}, {3, 3}}, {{5, 5}, {5, 5}}}));
    EXPECT_EQ(parse_cores(" ( 1 , 2 ) - ( 3 , 4 ) ", "--cores"), (std::vector<core_range>{{{1, 2}, {3, 4}}}));
    // A reversed range parses; make_distribution rejects it (rule bad_range).
    EXPECT_EQ(parse_cores("(3,3)-(0,0)", "--cores"), (std::vector<core_range>{{{3, 3}, {0, 0}}}));
    EXPECT_EQ(error_of([] { parse_cores("(0,0)-(3,3", "--cores"); }),
              "--cores \"(0,0)-(3,3\": expected ')' at the end");
    EXPECT_EQ(error_of([] { parse_cores("(0,0)(1,1)", "--cores"); }),
              "--cores \"(0,0)(1,1)\": expected ',' or the end at character 6");
    EXPECT_EQ(error_of([] { parse_cores("(a,0)", "--cores"); }),
              "--cores \"(a,0)\": expected a coordinate at character 2");
    EXPECT_EQ(error_of([] { parse_cores("(-1,0)", "--cores"); }),
              "--cores \"(-1,0)\": coordinate \"-1\" at character 2: negative numbers are not allowed");
    EXPECT_EQ(error_of([] { parse_cores("(4294967296,0)", "--cores"); }),
              "--cores \"(4294967296,0)\": coordinate 4294967296 does not fit 32 bits");
    EXPECT_EQ(error_of([] { parse_cores("", "--cores"); }),
              "--cores \"\": empty core list; give ranges like (0,0)-(3,3),(5,5)");
    EXPECT_EQ(error_of([] { parse_cores("(0,0),", "--cores"); }), "--cores \"(0,0),\": expected '(' at the end");
    EXPECT_EQ(format_cores(parse_cores("(0,0)-(3,3),(5,5)", "--cores")), "(0,0)-(3,3),(5,5)");
}

TEST(CliValues, OneCore) {
    EXPECT_EQ(parse_core("1,0", "--highlight-core"), (core_coord{1, 0}));
    EXPECT_EQ(parse_core("(2, 3)", "--highlight-core"), (core_coord{2, 3}));
    EXPECT_EQ(error_of([] { parse_core("1,0,3", "--highlight-core"); }),
              "--highlight-core \"1,0,3\": expected a core X,Y; junk at character 4");
    EXPECT_EQ(error_of([] { parse_core("1", "--highlight-core"); }), "--highlight-core \"1\": expected ',' at the end");
}

TEST(CliValues, PagesOrientationStrategy) {
    EXPECT_EQ(parse_page("pages", "--page"), (page_config{page_kind::pages}));
    EXPECT_EQ(parse_page("tile", "--page"), (page_config{page_kind::tile, 32, 32}));
    EXPECT_EQ(parse_page("tile:16x8", "--page"), (page_config{page_kind::tile, 16, 8}));
    EXPECT_EQ(parse_page("row", "--page"), (page_config{page_kind::row_major}));
    EXPECT_EQ(parse_page("row_major", "--page"), (page_config{page_kind::row_major}));
    EXPECT_EQ(format_page({page_kind::tile, 16, 8}), "tile:16x8");
    EXPECT_EQ(format_page({page_kind::tile, 32, 32}), "tile");
    EXPECT_EQ(error_of([] { parse_page("tiles", "--page"); }),
              "--page \"tiles\": expected pages, tile, tile:HxW or row");
    EXPECT_EQ(error_of([] { parse_page("tile:16", "--page"); }),
              "--page \"tile:16\": expected tile:HxW, e.g. tile:16x32");
    EXPECT_EQ(error_of([] { parse_page("tile:ax2", "--page"); }),
              "--page \"tile:ax2\": tile height \"a\": not a non-negative decimal integer");
    EXPECT_EQ(parse_orientation("col_major", "--orientation"), orientation::col_major);
    EXPECT_EQ(error_of([] { parse_orientation("col", "--orientation"); }),
              "--orientation \"col\": expected row_major or col_major");
    EXPECT_EQ(parse_strategy("grid_2d", "--strategy"), strategy::grid_2d);
    EXPECT_EQ(parse_strategy("contiguous_1d", "--strategy"), strategy::contiguous_1d);
    EXPECT_EQ(error_of([] { parse_strategy("block", "--strategy"); }),
              "--strategy \"block\": expected round_robin_1d, contiguous_1d or grid_2d");
}

TEST(CliValues, QuotingKeepsMessagesOnOneLine) {
    EXPECT_EQ(quote_value("a\nb\"c\\"), "\"a\\x0ab\\\"c\\\\\"");
    EXPECT_EQ(quote_value(std::string(100, 'x')), "\"" + std::string(64, 'x') + "...\"");
    const std::string message = error_of([] { parse_shape("3\n,\x01", "--tensor"); });
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

// tt-metal's and ttnn's enum spellings (issue 14), as tt-metal writes them (buffer_types.hpp:
// ShardOrientation::ROW_MAJOR / COL_MAJOR, ShardDistributionStrategy::ROUND_ROBIN_1D /
// GRID_2D; Layout::TILE / ROW_MAJOR), any case, bare or qualified as C++ and Python print them.
// The value a spec flag's text means, in ndshard's own spelling (the parsers' inverse).
std::string parsed_as(const std::string& flag, const std::string& text) {
    if (flag == "--orientation") return to_string(parse_orientation(text, flag));
    if (flag == "--strategy") return to_string(parse_strategy(text, flag));
    return format_page(parse_page(text, flag));
}

TEST(CliValues, TtMetalEnumSpellings) {
    struct spelling {
        std::string flag, text, ours;  // `flag text` means the value ndshard spells `ours`
    };
    for (const spelling& c :
         std::vector<spelling>{{"--orientation", "ROW_MAJOR", "row_major"},
                               {"--orientation", "COL_MAJOR", "col_major"},
                               {"--orientation", "Col_Major", "col_major"},
                               {"--orientation", "ShardOrientation::COL_MAJOR", "col_major"},
                               {"--orientation", "tt::tt_metal::ShardOrientation::ROW_MAJOR", "row_major"},
                               {"--orientation", "ttnn.ShardOrientation.COL_MAJOR", "col_major"},
                               {"--orientation", " row_major ", "row_major"},
                               {"--strategy", "ROUND_ROBIN_1D", "round_robin_1d"},
                               {"--strategy", "GRID_2D", "grid_2d"},
                               {"--strategy", "CONTIGUOUS_1D", "contiguous_1d"},
                               {"--strategy", "ShardDistributionStrategy::GRID_2D", "grid_2d"},
                               {"--strategy", "ttnn.ShardDistributionStrategy.ROUND_ROBIN_1D", "round_robin_1d"},
                               {"--page", "TILE", "tile"},
                               {"--page", "Layout::TILE", "tile"},
                               {"--page", "ttnn.Layout.ROW_MAJOR", "row_major"},
                               {"--page", "TILE:16X32", "tile:16x32"}})
        EXPECT_EQ(parsed_as(c.flag, c.text), c.ours) << c.flag << " " << c.text;
    // A qualifier naming another enum, or a word no enum has, is refused as before.
    for (const spelling& c : std::vector<spelling>{
             {"--orientation", "Layout::ROW_MAJOR", "expected row_major or col_major"},
             {"--orientation", "ROW-MAJOR", "expected row_major or col_major"},
             {"--strategy", "ShardOrientation::GRID_2D", "expected round_robin_1d, contiguous_1d or grid_2d"},
             {"--page", "ShardOrientation::ROW_MAJOR", "expected pages, tile, tile:HxW or row"}})
        EXPECT_EQ(error_of([&] { parsed_as(c.flag, c.text); }), c.flag + " \"" + c.text + "\": " + c.ours);
}

}  // namespace
}  // namespace ndshard::cli
