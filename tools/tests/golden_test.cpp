// Golden outputs of `show`, `explain` and `map --format csv` for the proposal's three
// examples and the docs/semantics.md vectors (tools/tests/golden/<example>.<command>.txt).
// The files were checked by eye against docs/semantics.md; to regenerate after an
// intended change run with NDSHARD_UPDATE_GOLDEN=1 and review the diff.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "cli_test_util.hpp"
#include "ndshard/args.hpp"
#include "ndshard/squeeze.hpp"

#ifndef NDSHARD_CLI_GOLDEN_DIR
#error "NDSHARD_CLI_GOLDEN_DIR must name tools/tests/golden"
#endif

namespace ndshard::cli::test {
namespace {

struct example {
    const char* name;
    std::vector<std::string> flags;
};

// The proposal's three pictures ([10,10,10] with dim 0 as the channels: whole channels
// are [1,10,10] shards; cuts across channels are [4,5,5] shards, 4 channels by a 5x5
// patch), the docs/semantics.md conformance vectors, and a HEIGHT-, a BLOCK- and an
// interleaved-expressible spec for explain's legacy line.
const std::vector<example>& examples() {
    static const std::vector<example> all = {
        {"proposal", {"--tensor", "3,7,5", "--shard", "2,2,2", "--grid", "2x3"}},
        {"channels_whole", {"--tensor", "10,10,10", "--shard", "1,10,10", "--grid", "2x2"}},
        {"channels_cut", {"--tensor", "10,10,10", "--shard", "4,5,5", "--grid", "2x2"}},
        {"v1", {"--tensor", "2,64,96", "--shard", "1,32,64", "--page", "tile", "--cores", "(0,0)-(3,3)"}},
        {"v4",
         {"--tensor", "3,2,2,3,4", "--shard", "1,1,2,2,4", "--page", "row", "--cores", "(0,0)-(1,4)", "--orientation",
          "col_major"}},
        {"v7a", {"--tensor", "2,3", "--shard", "1,2", "--cores", "(0,0)-(3,0)"}},
        {"v7b", {"--tensor", "2,1,3,4", "--shard", "2,2,1,2", "--cores", "(0,0)-(5,0)"}},
        {"v8", {"--tensor", "3,3,3", "--shard", "2,2,2", "--grid", "2x2"}},
        {"height", {"--tensor", "2,4,5", "--shard", "2,5", "--grid", "4x1"}},
        {"block", {"--tensor", "4,6", "--shard", "2,3", "--grid", "2x2", "--strategy", "grid_2d"}},
        {"interleaved", {"--tensor", "2,3", "--interleaved", "--banks", "4"}},
    };
    return all;
}

// The accessor's words belong to the library (ndshard/args.hpp) and change with it; the
// goldens keep them for readers, the comparison masks them, and AccessorWordsAreTheLibrarys
// checks them against make_accessor_words directly.
std::string mask_words(const std::string& text) {
    std::istringstream in(text);
    std::string line, out;
    while (std::getline(in, line)) {
        const std::size_t brace = line.find('{');
        if (brace != std::string::npos &&
            (line.find("compile-time {") != std::string::npos || line.find("runtime      {") != std::string::npos))
            line = line.substr(0, brace) + "{...}";
        out += line + "\n";
    }
    return out;
}

void check_golden(const std::string& file, const std::vector<std::string>& args) {
    const run_output r = run_cli(args);
    ASSERT_EQ(r.code, 0) << r.err;
    ASSERT_EQ(r.err, "");
    const std::string path = std::string(NDSHARD_CLI_GOLDEN_DIR) + "/" + file;
    if (std::getenv("NDSHARD_UPDATE_GOLDEN")) {
        std::ofstream(path, std::ios::binary) << r.out;
        GTEST_SKIP() << "wrote " << path;
    }
    const std::string want = read_text(path);
    ASSERT_FALSE(want.empty()) << "missing golden file " << path << " (run with NDSHARD_UPDATE_GOLDEN=1)";
    if (file.find(".explain.") != std::string::npos)
        EXPECT_EQ(mask_words(r.out), mask_words(want)) << "ndshard output differs from " << path;
    else EXPECT_EQ(r.out, want) << "ndshard output differs from " << path;
}

class CliGolden : public ::testing::TestWithParam<example> {};

TEST_P(CliGolden, Show) {
    std::vector<std::string> args{"show", "--color", "never"};
    args.insert(args.end(), GetParam().flags.begin(), GetParam().flags.end());
    check_golden(std::string(GetParam().name) + ".show.txt", args);
}

TEST_P(CliGolden, Explain) {
    std::vector<std::string> args{"explain"};
    args.insert(args.end(), GetParam().flags.begin(), GetParam().flags.end());
    check_golden(std::string(GetParam().name) + ".explain.txt", args);
}

TEST_P(CliGolden, MapCsv) {
    std::vector<std::string> args{"map", "--format", "csv"};
    args.insert(args.end(), GetParam().flags.begin(), GetParam().flags.end());
    check_golden(std::string(GetParam().name) + ".csv", args);
}

INSTANTIATE_TEST_SUITE_P(Examples, CliGolden, ::testing::ValuesIn(examples()),
                         [](const ::testing::TestParamInfo<example>& info) { return std::string(info.param.name); });

// explain's word lines are exactly make_accessor_words for the layout as given and the
// squeezed one, both mixes (all runtime, all compile-time).
std::vector<std::uint32_t> words_in(const std::string& line) {
    std::vector<std::uint32_t> out;
    std::size_t at = line.find('{');
    const std::size_t end = line.find('}');
    while ((at = line.find("0x", at)) != std::string::npos && at < end) {
        out.push_back(static_cast<std::uint32_t>(std::stoul(line.substr(at + 2), nullptr, 16)));
        at += 2;
    }
    return out;
}

TEST(CliExplain, AccessorWordsAreTheLibrarys) {
    for (const example& e : examples()) {
        std::vector<std::string> args{"explain"};
        args.insert(args.end(), e.flags.begin(), e.flags.end());
        const run_output r = run_cli(args);
        ASSERT_EQ(r.code, 0) << r.err;
        std::vector<std::vector<std::uint32_t>> lines;
        std::istringstream in(r.out);
        for (std::string line; std::getline(in, line);)
            if (line.find("compile-time {") != std::string::npos || line.find("runtime      {") != std::string::npos)
                lines.push_back(words_in(line));
        const parse_result parsed = parse_args(args);
        ASSERT_TRUE(parsed.cmd.has_value()) << parsed.error;
        const distribution d = make_distribution(std::get<explain_command>(*parsed.cmd).spec);
        const page_layout sq = squeeze(d.layout);
        std::vector<std::vector<std::uint32_t>> want;
        for (const page_layout* layout : {static_cast<const page_layout*>(nullptr), &sq}) {
            if (layout && sq.tensor == d.layout.tensor && sq.shard == d.layout.shard) break;
            for (std::uint32_t mask : {arg::all_runtime, arg::all_static}) {
                const accessor_words w = make_accessor_words(d, mask, layout);
                want.push_back(w.compile_time);
                want.push_back(w.runtime);
            }
        }
        EXPECT_EQ(lines, want) << e.name;
    }
}

// --color always wraps ids in the core's 24-bit colour; never (and auto off a terminal)
// prints plain text.
TEST(CliShow, ColorOnlyWhenAsked) {
    const std::vector<std::string> flags{"--tensor", "3,7,5", "--shard", "2,2,2", "--grid", "2x3"};
    std::vector<std::string> always{"show", "--color", "always"}, automatic{"show"};
    always.insert(always.end(), flags.begin(), flags.end());
    automatic.insert(automatic.end(), flags.begin(), flags.end());
    EXPECT_NE(run_cli(always).out.find("\x1b[38;2;"), std::string::npos);
    EXPECT_EQ(run_cli(automatic).out.find('\x1b'), std::string::npos);
}

}  // namespace
}  // namespace ndshard::cli::test
