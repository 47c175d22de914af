// `ndshard convert`: legacy -> ND spec JSON, ND -> legacy, and the round trips.
#include <gtest/gtest.h>

#include "cli_test_util.hpp"

namespace ndshard::cli::test {
namespace {

std::string map_of_spec(const std::string& spec) { return ok({"map", "--spec", spec}); }

TEST(CliConvert, HeightToNd) {
    // HEIGHT over [2,64,96] pages seen as [128,96]: shards of 32 full rows, one per core.
    EXPECT_EQ(ok({"convert", "--from", "height", "--tensor", "2,64,96", "--shard-height", "32", "--grid", "1x4"}),
              R"js({"tensor":[128,96],"shard":[32,96],"page":"pages","element_size":1,"alignment":1,)js"
              R"js("cores":"(0,0)-(0,3)","orientation":"row_major","strategy":"round_robin_1d","bank_base":0})js");
}

TEST(CliConvert, WidthAndBlockToNd) {
    EXPECT_EQ(ok({"convert", "--from", "width", "--tensor", "8,6", "--shard-width", "2", "--cores", "(0,0)-(2,0)",
                  "--orientation", "col_major", "--page-size", "2048", "--alignment", "32"}),
              R"js({"tensor":[8,6],"shard":[8,2],"page":"pages","element_size":2048,"alignment":32,)js"
              R"js("cores":"(0,0)-(2,0)","orientation":"col_major","strategy":"round_robin_1d","bank_base":0})js");
    EXPECT_EQ(ok({"convert", "--from", "block", "--tensor", "64,64", "--shard-height", "32", "--shard-width", "16",
                  "--grid", "4x2"}),
              R"js({"tensor":[64,64],"shard":[32,16],"page":"pages","element_size":1,"alignment":1,)js"
              R"js("cores":"(0,0)-(3,1)","orientation":"row_major","strategy":"grid_2d","bank_base":0})js");
}

TEST(CliConvert, InterleavedToNdMapsPageIToBankIModB) {
    const std::string spec = ok({"convert", "--from", "interleaved", "--tensor", "2,5", "--banks", "3"});
    EXPECT_EQ(spec,
              R"js({"tensor":[2,5],"shard":[1,1],"page":"pages","element_size":1,"alignment":1,)js"
              R"js("cores":"(0,0)-(2,0)","orientation":"row_major","strategy":"round_robin_1d","bank_base":0})js");
    // Interleaved over B banks: page i -> bank i % B, offset i / B (docs/semantics.md).
    EXPECT_EQ(map_of_spec(spec),
              R"js({"tensor_pages":[2,5],"shard_pages":[1,1],"num_shards":10,"max_shards_per_core":4,)js"
              R"js("shard_volume":1,"cores":[{"x":0,"y":0,"pages":[0,3,6,9]},{"x":1,"y":0,"pages":[1,4,7,null]},)js"
              R"js({"x":2,"y":0,"pages":[2,5,8,null]}]})js");
}

TEST(CliConvert, NdToLegacy) {
    EXPECT_EQ(ok({"convert", "--to", "legacy", "--tensor", "8,5", "--shard", "2,5", "--grid", "4x1"}),
              R"js({"from":"height","tensor":[8,5],"shard_height":2,"cores":"(0,0),(1,0),(2,0),(3,0)",)js"
              R"js("orientation":"row_major","page_size":1,"alignment":1,"bank_base":0})js");
    EXPECT_EQ(ok({"convert", "--to", "legacy", "--tensor", "4,6", "--shard", "2,3", "--grid", "2x2", "--strategy",
                  "grid_2d"}),
              R"js({"from":"block","tensor":[4,6],"shard_height":2,"shard_width":3,"cores":"(0,0)-(1,1)",)js"
              R"js("orientation":"row_major","page_size":1,"alignment":1,"bank_base":0})js");
    const run_output no =
        run_cli({"convert", "--to", "legacy", "--tensor", "3,7,5", "--shard", "2,2,2", "--grid", "2x3"});
    EXPECT_EQ(no.code, 1);
    EXPECT_EQ(no.out, "");
    EXPECT_EQ(no.err,
              "ndshard convert: not expressible as a legacy layout: cores hold up to 4 shards; legacy "
              "layouts give a core at most one\n");
}

// legacy -> ND -> legacy -> ND: the same mapping all the way (compared through map).
TEST(CliConvert, RoundTrips) {
    const std::vector<std::vector<std::string>> legacy_inputs = {
        {"convert", "--from", "height", "--tensor", "3,4,5", "--shard-height", "4", "--grid", "3x1"},
        {"convert", "--from", "width", "--tensor", "6,8", "--shard-width", "3", "--cores", "(0,0)-(0,2)"},
        {"convert", "--from", "block", "--tensor", "6,8", "--shard-height", "3", "--shard-width", "4", "--grid", "2x2",
         "--orientation", "col_major"},
        {"convert", "--from", "interleaved", "--tensor", "3,3", "--grid", "2x2"},
    };
    for (const auto& args : legacy_inputs) {
        const std::string nd = ok(args);
        const std::string legacy = ok({"convert", "--to", "legacy", "--spec", nd});
        const std::string nd_again = ok({"convert", "--spec", legacy});
        EXPECT_EQ(map_of_spec(nd), map_of_spec(nd_again)) << nd << "\n" << legacy << "\n" << nd_again;
    }
}

}  // namespace
}  // namespace ndshard::cli::test
