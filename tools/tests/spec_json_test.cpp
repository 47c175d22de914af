// Spec JSON and spec flags: forms, defaults, the interleaved shorthand, rejections,
// and a round trip through spec_to_json. Plus a small robustness sweep: mangled JSON
// only ever produces usage_error / spec_error (the fuzz target fuzz_cli_spec goes further).
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "cli_test_util.hpp"
#include "ndshard/cli/commands.hpp"
#include "ndshard/cli/spec_input.hpp"
#include "ndshard/distribution.hpp"

namespace ndshard::cli {
namespace {

std::string error_of(std::string_view json) {
    try {
        (void)parse_spec_json(json);
    } catch (const usage_error& e) {
        return e.what();
    }
    return "";
}

TEST(CliSpecJson, FullSpecWithEveryKey) {
    const distribution_spec s = parse_spec_json(
        R"js({"tensor":[4,8,8],"shard":[4,1,1],"grid":"2x3","page":"tile:2x4","orientation":"col_major",)js"
        R"js("strategy":"contiguous_1d","element_size":2,"alignment":32,"bank_base":64})js");
    EXPECT_EQ(s.tensor, (shape{4, 8, 8}));
    EXPECT_EQ(s.shard, (shape{4, 1, 1}));
    EXPECT_EQ(s.cores, (std::vector<core_range>{{{0, 0}, {1, 2}}}));
    EXPECT_EQ(s.page, (page_config{page_kind::tile, 2, 4}));
    EXPECT_EQ(s.orient, orientation::col_major);
    EXPECT_EQ(s.strat, strategy::contiguous_1d);
    EXPECT_EQ(s.element_size, 2u);
    EXPECT_EQ(s.alignment, 32u);
    EXPECT_EQ(s.bank_base, 64u);
}

TEST(CliSpecJson, DefaultsAndAlternativeForms) {
    const distribution_spec a = parse_spec_json(R"js({"tensor":"3,7,5","shard":[2,2,2],"cores":"(0,0)-(1,2)"})js");
    const distribution_spec b = parse_spec_json(R"js({"tensor":[3,7,5],"shard":"2,2,2","grid":[2,3]})js");
    const distribution_spec c = parse_spec_json(R"js({"tensor":[3,7,5],"shard":[2,2,2],"cores":["(0,0)-(1,2)"]})js");
    EXPECT_EQ(a, b);
    EXPECT_EQ(a, c);
    EXPECT_EQ(a.page.kind, page_kind::pages);
    EXPECT_EQ(a.element_size, 1u);
    EXPECT_EQ(a.alignment, 1u);
    EXPECT_EQ(a.orient, orientation::row_major);
    EXPECT_EQ(a.strat, strategy::round_robin_1d);
    EXPECT_EQ(a.bank_base, 0u);
    EXPECT_EQ(parse_spec_json(R"js({"tensor":[2],"shard":[1],"grid":"2x1","element_size":"4"})js").element_size, 4u);
}

TEST(CliSpecJson, InterleavedBanks) {
    // "banks": B alone is the row (0,0)-(B-1,0), every page its own shard.
    const distribution_spec s = parse_spec_json(R"js({"tensor":[4,8,8],"interleaved":true,"banks":12})js");
    EXPECT_EQ(s.shard, (shape{1, 1, 1}));
    EXPECT_EQ(s.cores, (std::vector<core_range>{{{0, 0}, {11, 0}}}));
    EXPECT_EQ(s.strat, strategy::round_robin_1d);
    // With a grid, the grid's cores are the banks (banks, if given, must agree).
    EXPECT_EQ(parse_spec_json(R"js({"tensor":[4,8,8],"interleaved":true,"grid":"4x3"})js").cores,
              (std::vector<core_range>{{{0, 0}, {3, 2}}}));
    EXPECT_EQ(parse_spec_json(R"js({"tensor":[4,8,8],"interleaved":true,"grid":"4x3","banks":12})js").cores,
              (std::vector<core_range>{{{0, 0}, {3, 2}}}));
    // One page per shard in every page kind: tile -> [1,..,h,w], row -> [1,..,T[-1]].
    EXPECT_EQ(parse_spec_json(R"js({"tensor":[2,64,96],"interleaved":true,"banks":4,"page":"tile"})js").shard,
              (shape{1, 32, 32}));
    EXPECT_EQ(parse_spec_json(R"js({"tensor":[2,3,40],"interleaved":true,"banks":4,"page":"row"})js").shard,
              (shape{1, 1, 40}));
    const distribution d =
        make_distribution(parse_spec_json(R"js({"tensor":[2,64,96],"interleaved":true,"banks":5,"page":"tile"})js"));
    EXPECT_EQ(d.shard_pages, (shape{1, 1, 1}));
    EXPECT_EQ(d.layout.num_shards, 12u);
}

// Refused specs and the one line each gets, a table per topic: {spec JSON, message}.
struct refusal {
    std::string json, message;
};

void expect_refused(const std::vector<refusal>& table) {
    for (const refusal& r : table) EXPECT_EQ(error_of(r.json), r.message) << r.json;
}

TEST(CliSpecJson, InterleavedRejections) {
    expect_refused({
        {R"js({"tensor":[4],"interleaved":true})js",
         "interleaved: give --banks B, --grid XxY or --cores for the banks"},
        {R"js({"tensor":[4],"interleaved":true,"banks":0})js",
         "--banks 0: 1..65536 banks, laid out as one row of cores (0,0)-(B-1,0)"},
        {R"js({"tensor":[4],"interleaved":true,"banks":65537})js",
         "--banks 65537: 1..65536 banks, laid out as one row of cores (0,0)-(B-1,0)"},
        {R"js({"tensor":[4],"interleaved":true,"grid":"2x2","banks":3})js",
         "--banks 3: the core list (0,0)-(1,1) has 4 cores; give one or the other"},
        {R"js({"tensor":[4],"shard":[1],"interleaved":true,"banks":3})js",
         "--shard [1]: an interleaved spec makes every page its own shard; drop --shard or --interleaved"},
        {R"js({"tensor":[4],"interleaved":true,"banks":3,"strategy":"grid_2d"})js",
         "--strategy grid_2d: interleaved pages are dealt round_robin_1d"},
        {R"js({"tensor":[4],"shard":[1],"grid":"2x2","banks":3})js",
         "--banks 3: banks belong to interleaved specs; add --interleaved, or give --grid/--cores"},
        {R"js({"tensor":[4],"interleaved":true,"banks":2,"page":"tile"})js",
         "interleaved tile pages need a tensor of rank >= 2, got [4]"},
    });
}

TEST(CliSpecJson, MissingPieces) {
    expect_refused({
        {R"js({"shard":[1],"grid":"2x2"})js",
         "no tensor shape: give --tensor (\"tensor\" in a spec), e.g. --tensor 3,7,5"},
        {R"js({"tensor":[1],"grid":"2x2"})js",
         "no shard shape: give --shard (\"shard\" in a spec), e.g. --shard 2,2,2"},
        {R"js({"tensor":[1],"shard":[1]})js", "no cores: give --grid XxY or --cores (x0,y0)-(x1,y1)"},
        {R"js({"tensor":[1],"shard":[1],"grid":"1x1","cores":"(0,0)"})js",
         "spec JSON: \"grid\" and \"cores\" both given; give one core list"},
    });
}

TEST(CliSpecJson, BadJsonAndBadTypes) {
    expect_refused({
        {R"js({"tensor":[3,7,5],"tensor":[1]})js", "spec JSON: key \"tensor\" appears twice"},
        {R"js([3,7,5])js", "spec JSON: expected an object like {\"tensor\":[3,7,5],...}, got [3,7,5]"},
        {R"js({"tensor":[[3]]})js", "spec JSON: nested lists are not part of a spec"},
        {R"js({"tensor":{"a":1}})js",
         "spec JSON: nested objects are not part of a spec (only \"cores\" takes a CoreRangeSet as ttnn writes it)"},
        {R"js({"tensor":[3,-7]})js", "spec.tensor: dim 2 -7: negative numbers are not allowed"},
        {R"js({"tensor":[3,7.5]})js", "spec.tensor: dim 2 7.5: not a non-negative integer below 2^64"},
        {R"js({"tensor":[18446744073709551616]})js",
         "spec.tensor: dim 1 1.8446744073709552e+19: not a non-negative integer below 2^64"},
        {R"js({"tensor":[]})js", "spec.tensor: empty shape; give dims like [3,7,5]"},
        {R"js({"tensor":[1,1,1,1,1,1,1,1,1]})js", "spec.tensor: 9 dims; a shape has rank 1..8"},
        {R"js({"tensor":"3,,5"})js", "spec.tensor \"3,,5\": empty dim at position 2"},
        {R"js({"tensor":[3],"shard":[1],"grid":"2x2","alignment":-1})js",
         "spec.alignment: -1: negative numbers are not allowed"},
        {R"js({"tensor":[3],"shard":[1],"grid":"2x2","alignment":true})js",
         "spec.alignment: expected a non-negative integer below 2^64, got true"},
        {R"js({"tensor":[3],"shard":[1],"grid":"2x2","interleaved":1})js",
         "spec.interleaved: expected true or false, got 1"},
        {R"js({"tensor":[3],"shard":[1],"grid":[2]})js", "spec.grid: expected a grid \"XxY\" or [X,Y], got [2]"},
        {R"js({"tensor":[3],"shard":[1],"cores":[1]})js",
         "spec.cores[0]: expected a core range string like \"(0,0)-(1,1)\" or a CoreRange "
         "{\"start\":{\"x\":0,\"y\":0},\"end\":{\"x\":1,\"y\":1}}, got 1"},
        {R"js({"tensor":[3],"shard":[1],"grid":"2x2","page":5})js",
         "spec.page: expected pages, tile, tile:HxW or row, got 5"},
        {R"js({"tensor":[3],)js",
         "spec JSON: parse error at line 1, column 15: syntax error while parsing object key - unexpected end "
         "of input; expected string literal"},
    });
    EXPECT_EQ(error_of(R"js({"tensr":[3]})js").rfind("spec JSON: unknown key \"tensr\" (keys: tensor, shard,", 0), 0u);
    EXPECT_EQ(error_of("{\"tensor\":[3]} x").rfind("spec JSON: parse error at line 1, column 16", 0), 0u);
}

TEST(CliSpecJson, RoundTripThroughSpecToJson) {
    const distribution_spec s = parse_spec_json(
        R"js({"tensor":[2,64,96],"shard":[1,32,64],"page":"tile:16x32","cores":"(0,0)-(3,3),(5,5)",)js"
        R"js("orientation":"col_major","strategy":"contiguous_1d","element_size":2,"alignment":32,"bank_base":1024})js");
    const std::string json = spec_to_json(s);
    EXPECT_EQ(
        json,
        R"js({"tensor":[2,64,96],"shard":[1,32,64],"page":"tile:16x32","element_size":2,"alignment":32,)js"
        R"js("cores":"(0,0)-(3,3),(5,5)","orientation":"col_major","strategy":"contiguous_1d","bank_base":1024})js");
    EXPECT_EQ(parse_spec_json(json), s);
}

TEST(CliSpecJson, FlagsOverrideSpecKeys) {
    spec_fields fields = parse_spec_fields_json(R"js({"tensor":[3,7,5],"shard":[2,2,2],"cores":"(0,0)-(1,2)"})js");
    spec_flag_text flags;
    flags.grid = "3x2";
    flags.strategy = "contiguous_1d";
    merge_into(fields, fields_from_flags(flags));
    const distribution_spec s = to_spec(fields);
    EXPECT_EQ(s.cores, (std::vector<core_range>{{{0, 0}, {2, 1}}}));
    EXPECT_EQ(s.strat, strategy::contiguous_1d);
}

// Mangled variants of valid specs: parsing must end in a value or a usage/spec error,
// never anything else (no crash, no other exception type).
TEST(CliSpecJson, MangledInputOnlyEverFailsCleanly) {
    const std::string seeds[] = {
        R"js({"tensor":[4,8,8],"shard":[4,1,1],"grid":"2x3","page":"tile","orientation":"col_major","strategy":"round_robin_1d","element_size":2,"alignment":32,"bank_base":0})js",
        R"js({"tensor":[4,8,8],"interleaved":true,"banks":12})js",
        R"js({"tensor":"3,7,5","shard":"2,2,2","cores":["(0,0)-(1,1)","(3,3)"]})js"};
    const std::string alphabet = "{}[]\":,0123456789-x()tilerowpagesgrid \\\x01\xff";
    std::mt19937_64 rng(20240611);
    int parsed = 0, rejected = 0;
    for (int i = 0; i < 20000; ++i) {
        std::string text = seeds[rng() % 3];
        const int edits = 1 + static_cast<int>(rng() % 4);
        for (int e = 0; e < edits && !text.empty(); ++e) {
            const std::size_t at = rng() % text.size();
            switch (rng() % 3) {
                case 0:
                    text.erase(at, 1 + rng() % 3);
                    break;
                case 1:
                    text.insert(at, 1, alphabet[rng() % alphabet.size()]);
                    break;
                default:
                    text[at] = alphabet[rng() % alphabet.size()];
                    break;
            }
        }
        try {
            const distribution_spec s = parse_spec_json(text);
            (void)make_distribution(s);
            ++parsed;
        } catch (const usage_error& e) {
            EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
            ++rejected;
        } catch (const spec_error& e) {
            EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
            ++rejected;
        }
    }
    EXPECT_GT(parsed, 100);
    EXPECT_GT(rejected, 100);
}

// parse_args never throws or exits, whatever the arguments.
TEST(CliSpecJson, ParseArgsNeverThrows) {
    const std::vector<std::vector<std::string>> cases = {
        {},
        {"--help"},
        {"map", "--help"},
        {"nonsense"},
        {"map", "--tensor"},
        {"map", "--tensor", "3", "--tensor", "4"},
        {"map", "--spec", "/nonexistent/spec.json"},
        {"map", "--spec", "{"},
        {"svg", "--highlight-core", "x"},
        {"convert"},
        {"sim", "--op", "reshard"},
        {"map", std::string("\0\x01\xff", 3)},
    };
    for (const auto& args : cases) {
        const parse_result r = parse_args(args);
        EXPECT_TRUE(r.cmd.has_value() || r.exit_code == 0 || r.exit_code == 2);
        EXPECT_EQ(r.error.find('\n'), std::string::npos) << r.error;
    }
}

// A fuzz target turns files and stdin off: --spec then takes inline JSON only.
TEST(CliSpecJson, FilesAndStdinCanBeTurnedOff) {
    const parse_options inline_only{false};
    for (const char* argument : {"-", "/etc/hostname", "spec.json"}) {
        const parse_result r = parse_args({"map", "--spec", argument}, inline_only);
        EXPECT_FALSE(r.cmd.has_value());
        EXPECT_EQ(r.exit_code, 2);
        EXPECT_EQ(r.error, "ndshard map: --spec \"" + std::string(argument) +
                               "\": give the JSON inline here (files and stdin are off)");
    }
    const parse_result ok =
        parse_args({"map", "--spec", R"js({"tensor":[3,7,5],"shard":[2,2,2],"grid":"2x3"})js"}, inline_only);
    ASSERT_TRUE(ok.cmd.has_value()) << ok.error;
    EXPECT_EQ(std::get<map_command>(*ok.cmd).spec.tensor, (shape{3, 7, 5}));
}

// tt-metal's spellings end to end, and a CoreRangeSet as ttnn's to_json writes it (a list of
// {"start":{"x":..,"y":..},"end":{"x":..,"y":..}}), bare or as {"ranges":[...]}, as the value of
// "cores" (issue 14). Malformed nested input: one line naming the value and the rule.
using test::is_one_line;
using test::run_cli;
using test::run_output;

std::string cores_error(const std::string& cores) {
    return error_of(R"js({"tensor":[8],"shard":[1],"cores":)js" + cores + "}");
}

TEST(CliSpecJson, TtMetalFlagsAndSpecJsonTakeThemEndToEnd) {
    const run_output ours = run_cli({"map", "--tensor", "2,64,96", "--shard", "1,32,64", "--page", "tile", "--cores",
                                     "(0,0)-(1,1),(3,0)", "--orientation", "col_major", "--strategy", "contiguous_1d"});
    ASSERT_EQ(ours.code, 0) << ours.err;
    const run_output flags =
        run_cli({"map", "--tensor", "2,64,96", "--shard", "1,32,64", "--page", "TILE", "--cores", "(0,0)-(1,1),(3,0)",
                 "--orientation", "COL_MAJOR", "--strategy", "CONTIGUOUS_1D"});
    EXPECT_EQ(flags.code, 0) << flags.err;
    EXPECT_EQ(flags.out, ours.out);
    const run_output json = run_cli(
        {"map", "--spec",
         R"js({"tensor":[2,64,96],"shard":[1,32,64],"page":"Layout::TILE","orientation":"ShardOrientation::COL_MAJOR",)js"
         R"js("strategy":"CONTIGUOUS_1D","cores":[{"start":{"x":0,"y":0},"end":{"x":1,"y":1}},)js"
         R"js({"start":{"x":3,"y":0},"end":{"x":3,"y":0}}]})js"});
    EXPECT_EQ(json.code, 0) << json.err;
    EXPECT_EQ(json.out, ours.out);
    const run_output height = run_cli(
        {"convert", "--from", "HEIGHT_SHARDED", "--tensor", "2,64,96", "--shard-height", "32", "--grid", "1x4"});
    const run_output height_ours =
        run_cli({"convert", "--from", "height", "--tensor", "2,64,96", "--shard-height", "32", "--grid", "1x4"});
    EXPECT_EQ(height.code, 0) << height.err;
    EXPECT_EQ(height.out, height_ours.out);
    EXPECT_EQ(run_cli({"convert", "--from", "TensorMemoryLayout::BLOCK_SHARDED", "--tensor", "64,64", "--shard-height",
                       "32", "--shard-width", "16", "--grid", "4x2"})
                  .out,
              run_cli({"convert", "--from", "block", "--tensor", "64,64", "--shard-height", "32", "--shard-width", "16",
                       "--grid", "4x2"})
                  .out);
}

// A legacy layout's JSON (convert --spec) takes the same nested form: it becomes the flag text.
TEST(CliSpecJson, TtMetalCoreRangeSetAsFlagText) {
    EXPECT_EQ(json_as_flag_text(R"js({"from":"height","cores":[{"start":{"x":0,"y":0},"end":{"x":3,"y":0}},)js"
                                R"js({"start":{"x":5,"y":1},"end":{"x":5,"y":1}}]})js"),
              (std::vector<std::pair<std::string, std::string>>{{"cores", "(0,0)-(3,0),(5,1)"}, {"from", "height"}}));
}

TEST(CliSpecJson, TtMetalCoreRangeSetAsTtnnWritesIt) {
    const std::vector<core_range> want{{{0, 0}, {3, 2}}, {{5, 5}, {5, 5}}};
    const std::string head = R"js({"tensor":[8],"shard":[1],"cores":)js";
    for (const std::string cores :
         {R"js([{"start":{"x":0,"y":0},"end":{"x":3,"y":2}},{"start":{"x":5,"y":5},"end":{"x":5,"y":5}}])js",
          R"js({"ranges":[{"start":{"x":0,"y":0},"end":{"x":3,"y":2}},{"start":{"y":5,"x":5},"end":{"x":5,"y":5}}]})js",
          R"js(["(0,0)-(3,2)",{"end":{"x":5,"y":5},"start":{"x":5,"y":5}}])js", R"js("(0,0)-(3,2),(5,5)")js"})
        EXPECT_EQ(parse_spec_json(head + cores + "}").cores, want) << cores;
}

TEST(CliSpecJson, TtMetalMalformedCoreRangeSetIsOneLineNamingTheValueAndTheRule) {
    const std::string range_rule =
        "a core range string like \"(0,0)-(1,1)\" or a CoreRange "
        "{\"start\":{\"x\":0,\"y\":0},\"end\":{\"x\":1,\"y\":1}}";
    EXPECT_EQ(cores_error(R"js([{"start":{"x":0,"y":0}}])js"),
              "spec.cores[0]: expected " + range_rule + ", got {\"start\":{\"x\":0,\"y\":0}}");
    EXPECT_EQ(cores_error(R"js([{"start":{"x":0,"y":0},"end":{"x":1,"y":1},"tag":1}])js"),
              "spec.cores[0]: expected " + range_rule +
                  ", got {\"end\":{\"x\":1,\"y\":1},\"start\":{\"x\":0,\"y\":0},\"tag\":1}");
    EXPECT_EQ(cores_error(R"js({"ranges":[{"start":{"x":0,"y":0},"end":{"x":1}}]})js"),
              "spec.cores.ranges[0].end: expected a CoreCoord {\"x\":X,\"y\":Y}, got {\"x\":1}");
    EXPECT_EQ(cores_error(R"js([{"start":{"x":-1,"y":0},"end":{"x":1,"y":1}}])js"),
              "spec.cores[0].start.x: -1: negative numbers are not allowed");
    EXPECT_EQ(cores_error(R"js([{"start":{"x":0,"y":0},"end":{"x":1,"y":4294967296}}])js"),
              "spec.cores[0].end.y: 4294967296 does not fit 32 bits");
    EXPECT_EQ(cores_error(R"js([{"start":{"x":0.5,"y":0},"end":{"x":1,"y":1}}])js"),
              "spec.cores[0].start.x: expected a non-negative integer below 2^64, got 0.5");
    EXPECT_EQ(cores_error(R"js({"ranges":[]})js"),
              "spec.cores.ranges: expected core ranges \"(0,0)-(1,1),(3,3)\", a list of them, or a CoreRangeSet "
              "[{\"start\":{\"x\":0,\"y\":0},\"end\":{\"x\":1,\"y\":1}},...], got {\"ranges\":[]}");
    EXPECT_EQ(cores_error(R"js({"ranges":[],"more":1})js").rfind("spec.cores: expected core ranges", 0), 0u);
    EXPECT_EQ(cores_error(R"js([{"start":{"x":{"deep":1},"y":0},"end":{"x":1,"y":1}}])js"),
              "spec.cores[0].start.x: expected a non-negative integer below 2^64, got {\"deep\":1}");
    EXPECT_EQ(cores_error(R"js({"ranges":[{"start":{"x":{"deep":1},"y":0},"end":{"x":1,"y":1}}]})js"),
              "spec JSON: \"cores\" nests deeper than a CoreRangeSet "
              "[{\"start\":{\"x\":0,\"y\":0},\"end\":{\"x\":1,\"y\":1}}]");
    // Only "cores" nests.
    EXPECT_EQ(cores_error(R"js("(0,0)","page":{"kind":"tile"})js"),
              "spec JSON: nested objects are not part of a spec (only \"cores\" takes a CoreRangeSet as ttnn "
              "writes it)");
    // Through the program: exit 2, one line.
    const run_output r =
        run_cli({"map", "--spec", R"js({"tensor":[8],"shard":[1],"cores":[{"start":{"x":0,"y":0}}]})js"});
    EXPECT_EQ(r.code, 2);
    EXPECT_TRUE(is_one_line(r.err)) << r.err;
    EXPECT_EQ(r.err.rfind("ndshard map: spec.cores[0]: expected a core range string", 0), 0u) << r.err;
}

}  // namespace
}  // namespace ndshard::cli
