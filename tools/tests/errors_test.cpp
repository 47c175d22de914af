// Error paths of every command: exit 2, nothing on stdout, exactly one line on stderr
// that names the offending value and the rule. Also --help for every command.
#include <gtest/gtest.h>

#include "cli_test_util.hpp"

namespace ndshard::cli::test {
namespace {

struct bad_case {
    std::vector<std::string> args;
    std::string message;  // the whole stderr line, without its newline
};

void expect_rejected(const bad_case& c) {
    const run_output r = run_cli(c.args);
    std::string joined;
    for (const auto& a : c.args) joined += a + " ";
    EXPECT_EQ(r.code, 2) << joined;
    EXPECT_EQ(r.out, "") << joined;
    EXPECT_TRUE(is_one_line(r.err)) << joined << "\n" << r.err;
    EXPECT_EQ(r.err, c.message + "\n") << joined;
}

const std::vector<std::string> proposal{"--tensor", "3,7,5", "--shard", "2,2,2", "--grid", "2x3"};

std::vector<std::string> with(std::vector<std::string> head, const std::vector<std::string>& tail) {
    head.insert(head.end(), tail.begin(), tail.end());
    return head;
}

TEST(CliErrors, NoCommandOrUnknownCommand) {
    expect_rejected(
        {{}, "ndshard: give a command: map, show, explain, svg, convert, sim, conform, locate or kcheck (see --help)"});
    expect_rejected(
        {{"mop"},
         "ndshard: unknown command \"mop\"; the commands are map, show, explain, svg, convert, sim, conform, "
         "locate and kcheck"});
    expect_rejected({{"--tensor", "3"},
                     "ndshard: \"--tensor\": give a command first: map, show, explain, svg, convert, sim, conform, "
                     "locate or kcheck"});
}

TEST(CliErrors, Map) {
    expect_rejected({{"map", "--tensor", "3,,5", "--shard", "1", "--grid", "2x2"},
                     "ndshard map: --tensor \"3,,5\": empty dim at position 2"});
    expect_rejected({with({"map", "--frobnicate"}, proposal),
                     "ndshard map: The following argument was not expected: --frobnicate"});
    expect_rejected(
        {with({"map", "--format", "xml"}, proposal), "ndshard map: --format \"xml\": expected json or csv"});
    expect_rejected({{"map", "--tensor", "3,7,5", "--shard", "2,0,2", "--grid", "2x3"},
                     "ndshard map: invalid spec: shard [2,0,2] has a 0 in dim 1; shard dims must be >= 1 "
                     "[rule zero_shard_dim]"});
    expect_rejected({{"map", "--tensor", "3,7,5", "--shard", "2,2,2", "--cores", "(0,0)-(1,1),(1,1)"},
                     "ndshard map: invalid spec: core (1,1) is listed twice [rule duplicate_core]"});
    expect_rejected({{"map", "--tensor", "3,7,5", "--shard", "2,2,2", "--grid", "2x3", "--alignment", "3"},
                     "ndshard map: invalid spec: alignment 3 is not a power of two [rule alignment]"});
    expect_rejected({{"map", "--tensor", "3,7,5", "--shard", "2,2,2"},
                     "ndshard map: no cores: give --grid XxY or --cores (x0,y0)-(x1,y1)"});
    expect_rejected({with({"map", "--cores", "(0,0)"}, proposal),
                     "ndshard map: --grid \"2x3\" and --cores \"(0,0)\": give one core list, not both"});
    expect_rejected({{"map", "--tensor", "3,7,5", "--shard", "2,2,2", "--grid", "2x3", "--bank-base", "-4"},
                     "ndshard map: --bank-base \"-4\": negative numbers are not allowed"});
    expect_rejected({{"map", "--tensor", "65536,65536", "--shard", "1,1", "--grid", "1x1"},
                     "ndshard map: invalid spec: tensor page grid [65536,65536] spans 4294967296 page ids (zero dims "
                     "counted as 1); the limit is 2^32-1 [rule tensor_pages_32bit]"});
    expect_rejected({{"map", "--spec", "/nonexistent/spec.json"},
                     "ndshard map: --spec \"/nonexistent/spec.json\": cannot read it (No such file or directory)"});
    expect_rejected({{"map", "--spec", "{\"tensor\":[3,7,5],\"shard\":[2,2,2],\"grid\":\"2x3\",\"colour\":1}"},
                     "ndshard map: spec JSON: unknown key \"colour\" (keys: tensor, shard, grid, cores, page, "
                     "orientation, strategy, element_size, alignment, bank_base, interleaved, banks)"});
    expect_rejected({{"map", "--tensor"}, "ndshard map: --tensor: 1 required DIMS missing"});
}

// A dim of 2^64 or more is refused by the 64-bit number parser; 2^64-1 itself parses and is
// refused by the 32-bit page rule, with its exact value (it was once printed ">= 2^64"
// beside "does not fit 32 bits", mixing the two limits).
TEST(CliErrors, HugeDimsSayWhichLimitTheyBreak) {
    const std::string past_64 = ": does not fit 64 bits (the maximum is 18446744073709551615)";
    const std::string past_32 = " does not fit 32 bits (at most 2^32-1 pages per dim) [rule ";
    struct dims_case {
        std::string tensor, shard, message;  // map --tensor T --shard S --grid 1x1
    };
    for (const dims_case& c : std::vector<dims_case>{
             {"18446744073709551616", "1",
              "--tensor \"18446744073709551616\": dim 1 \"18446744073709551616\"" + past_64},
             {"99999999999999999999999", "1",
              "--tensor \"99999999999999999999999\": dim 1 \"99999999999999999999999\"" + past_64},
             {"18446744073709551615", "1",
              "invalid spec: tensor page dim 18446744073709551615 of [18446744073709551615]" + past_32 +
                  "tensor_pages_32bit]"},
             {"4294967296,1", "1,1",
              "invalid spec: tensor page dim 4294967296 of [4294967296,1]" + past_32 + "tensor_pages_32bit]"},
             {"8", "18446744073709551615",
              "invalid spec: shard page dim 18446744073709551615 of [18446744073709551615]" + past_32 +
                  "shard_pages_32bit]"}})
        expect_rejected(
            {{"map", "--tensor", c.tensor, "--shard", c.shard, "--grid", "1x1"}, "ndshard map: " + c.message});
    expect_rejected({with({"map", "--bank-base", "18446744073709551615"}, proposal),
                     "ndshard map: invalid spec: bank base 18446744073709551615 does not fit 32 bits (addresses are "
                     "at most 2^32-1) [rule address_32bit]"});
    expect_rejected({{"map", "--spec", "{\"tensor\":[18446744073709551616],\"shard\":[1],\"grid\":\"1x1\"}"},
                     "ndshard map: spec.tensor: dim 1 1.8446744073709552e+19: not a non-negative integer below 2^64"});
}

TEST(CliErrors, Show) {
    expect_rejected({with({"show", "--color", "sometimes"}, proposal),
                     "ndshard show: --color \"sometimes\": expected auto, always or never"});
    expect_rejected({{"show", "--tensor", "3,7,5", "--shard", "2,2,2", "--grid", "2x3", "--strategy", "grid_2d"},
                     "ndshard show: invalid spec: shard grid 8x3 (rows x cols) does not fit core range (0,0)-(1,2) "
                     "(2 wide, 3 high) in row_major [rule grid_2d_fit]"});
    expect_rejected({{"show", "--tensor", "1000,1000", "--shard", "1,1", "--grid", "8x8"},
                     "ndshard show: 1000000 shard slots are more than the 200000 a terminal view shows; use explain "
                     "or map --format csv"});
    expect_rejected({{"show", "--level", "page", "--tensor", "1000,1000", "--shard", "10,10", "--grid", "8x8"},
                     "ndshard show: 1004800 slots are more than the 200000 a terminal view shows page by page; use "
                     "--level shard or map --format csv"});
    expect_rejected({{"show", "--level", "blocks", "--tensor", "3,7,5", "--shard", "2,2,2", "--grid", "2x3"},
                     "ndshard show: --level \"blocks\": expected shard, page or auto"});
}

TEST(CliErrors, Explain) {
    expect_rejected({{"explain", "--tensor", "3,7,5", "--shard", "2,2,2,2", "--grid", "2x3"},
                     "ndshard explain: invalid spec: shard rank 4 is not in 1..tensor rank 3 [rule shard_rank]"});
    expect_rejected({{"explain", "--tensor", "3,7,5", "--shard", "2,2,2", "--grid", "2x3", "--page", "tile:0x32"},
                     "ndshard explain: invalid spec: tile 0x32 has a zero side [rule tile]"});
    expect_rejected({{"explain", "--tensor", "3,7,5", "--shard", "2,2,2", "--grid", "2x3", "--orientation", "diag"},
                     "ndshard explain: --orientation \"diag\": expected row_major or col_major"});
    expect_rejected({{"explain", "--tensor", "3,7,5", "--shard", "2,2,2", "--grid", "2x3", "--format", "xml"},
                     "ndshard explain: --format \"xml\": expected text or json"});
    expect_rejected({{"explain", "--tensor", "3,7,5", "--shard", "2,2,2", "--grid", "2x3", "--arch", "quasar"},
                     "ndshard explain: --arch \"quasar\": expected wormhole_b0, blackhole or grayskull"});
}

TEST(CliErrors, Svg) {
    expect_rejected({with({"svg", "--highlight-core", "7,7"}, proposal),
                     "ndshard svg: --highlight-core (7,7): not one of the 6 cores of this distribution"});
    expect_rejected({with({"svg", "--highlight-core", "7;7"}, proposal),
                     "ndshard svg: --highlight-core \"7;7\": expected ',' at character 2"});
    expect_rejected({{"svg", "--tensor", "200,200", "--shard", "1,1", "--grid", "2x2"},
                     "ndshard svg: 40000 shards are more than the 20000 cells a picture shows; use explain or show "
                     "--level shard"});
    expect_rejected({{"svg", "--level", "page", "--tensor", "200,200", "--shard", "2,2", "--grid", "2x2"},
                     "ndshard svg: 40000 pages are more than the 20000 cells a picture shows; use --level shard"});
    expect_rejected({{"svg", "--tensor", "3,7,5", "--shard", "2,2,2", "--cores", "(3,3)-(0,0)"},
                     "ndshard svg: invalid spec: core range 0 (3,3)-(0,0) has x0 > x1 [rule bad_range]"});
}

TEST(CliErrors, Convert) {
    expect_rejected({{"convert", "--tensor", "8,5"},
                     "ndshard convert: give --from LAYOUT (legacy -> ND) or --to legacy (ND -> legacy)"});
    expect_rejected({{"convert", "--from", "diagonal", "--tensor", "8,5", "--grid", "4x1"},
                     "ndshard convert: --from \"diagonal\": expected interleaved, height, width, block or tt-args"});
    expect_rejected({{"convert", "--from", "height", "--tensor", "8,5", "--grid", "4x1"},
                     "ndshard convert: --from height needs --shard-height (pages)"});
    expect_rejected({{"convert", "--from", "height", "--tensor", "8,5", "--grid", "2x1", "--shard-height", "2"},
                     "ndshard convert: invalid spec: height sharding of [8,5] makes 4 shards for 2 cores; legacy "
                     "layouts never give a core two shards [rule legacy_cores]"});
    expect_rejected({{"convert", "--from", "width", "--tensor", "8,5", "--grid", "2x1", "--shard", "1,1"},
                     "ndshard convert: --shard \"1,1\": a legacy layout takes --shard-height / --shard-width, in "
                     "pages"});
    expect_rejected({{"convert", "--to", "modern", "--tensor", "8,5", "--shard", "2,5", "--grid", "4x1"},
                     "ndshard convert: --to \"modern\": expected legacy or tt-args"});
    expect_rejected({{"convert", "--from", "block", "--tensor", "8,8", "--shard-height", "4", "--shard-width", "4",
                      "--grid", "1x1"},
                     "ndshard convert: invalid spec: shard grid 2x2 (rows x cols) does not fit core range "
                     "(0,0) (1 wide, 1 high) in row_major [rule grid_2d_fit]"});
}

TEST(CliErrors, Sim) {
    expect_rejected({{"sim", "--op", "reshard", "--in", "{\"tensor\":[4]}", "--out", "{}"},
                     "ndshard sim: no shard shape: give --shard (\"shard\" in a spec), e.g. --shard 2,2,2"});
    expect_rejected({{"sim", "--in", "{}", "--out", "{}"}, "ndshard sim: --op is required"});
}

TEST(CliHelp, EveryCommandHasHelpWithExamples) {
    for (const char* command : {"map", "show", "explain", "svg", "convert", "sim"}) {
        const run_output r = run_cli({command, "--help"});
        EXPECT_EQ(r.code, 0) << command;
        EXPECT_EQ(r.err, "") << command;
        EXPECT_NE(r.out.find("Examples:"), std::string::npos) << command;
        EXPECT_NE(r.out.find(std::string("ndshard ") + command), std::string::npos) << command;
    }
    const run_output top = run_cli({"--help"});
    EXPECT_EQ(top.code, 0);
    for (const char* command : {"map", "show", "explain", "svg", "convert", "sim"})
        EXPECT_NE(top.out.find(command), std::string::npos) << command;
}

}  // namespace
}  // namespace ndshard::cli::test
