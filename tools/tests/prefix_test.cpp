// One error prefix: every subcommand, refusing a bad value while its arguments are read
// and (where it has one) while it runs, prints one line that starts with "ndshard NAME: "
// exactly once; the message after it never starts with a command name of its own (as
// "ndshard svg: svg: 40000 pages ..." once did) nor repeats "ndshard".
#include <gtest/gtest.h>

#include "cli_test_util.hpp"

namespace ndshard::cli::test {
namespace {

const std::vector<std::string> commands = {"map", "show", "explain", "svg", "convert", "sim", "conform", "locate"};

struct bad_run {
    std::string command;  // "" for the top level ("ndshard: ")
    std::vector<std::string> rest;
};

const std::vector<std::string> proposal{"--tensor", "3,7,5", "--shard", "2,2,2", "--grid", "2x3"};

std::vector<std::string> with(std::vector<std::string> head, const std::vector<std::string>& tail) {
    head.insert(head.end(), tail.begin(), tail.end());
    return head;
}

const std::string spec_json = R"({"tensor":[4,8],"shard":[2,8],"grid":"2x1"})";

const std::vector<bad_run> bad_runs = {
    {"", {"--frobnicate"}},
    {"", {"mop"}},
    {"map", {"--tensor", "3,x", "--shard", "1", "--grid", "1x1"}},
    {"map", with({"--alignment", "3"}, proposal)},  // refused while it runs
    {"show", with({"--color", "sometimes"}, proposal)},
    {"show", {"--tensor", "3,7,5", "--shard", "2,2,2", "--grid", "2x3", "--strategy", "grid_2d"}},
    {"show", {"--tensor", "1000,1000", "--shard", "1,1", "--grid", "8x8", "--level", "page"}},  // renderer's limit
    {"explain", with({"--orientation", "diag"}, proposal)},
    {"explain", with({"--bank-base", "4294967296"}, proposal)},
    {"svg", with({"--highlight-core", "7;7"}, proposal)},
    {"svg", with({"--highlight-core", "7,7"}, proposal)},                                    // checked by the renderer
    {"svg", {"--tensor", "200,200", "--shard", "1,1", "--grid", "2x2", "--level", "page"}},  // renderer's limit
    {"convert", {"--from", "diagonal", "--tensor", "8,5", "--grid", "4x1"}},
    {"convert", {"--from", "height", "--tensor", "8,5", "--grid", "2x1", "--shard-height", "2"}},
    {"sim", {"--op", "reshard", "--in", R"({"tensor":[4]})", "--out", "{}"}},
    {"sim", {"--op", "frobnicate", "--in", spec_json, "--out", spec_json}},
    {"conform", {"--impl", "x.so", "--cases", "0"}},
    {"conform", {"--impl", "/nonexistent/libimpl.so"}},  // refused when loaded
    {"locate", with({"--at", "1,0"}, proposal)},
    {"locate", with({"--page-id", "105"}, proposal)},
};

TEST(CliErrorPrefix, EveryCommandPrintsItsPrefixOnce) {
    for (const bad_run& b : bad_runs) {
        std::vector<std::string> args;
        if (!b.command.empty()) args.push_back(b.command);
        args.insert(args.end(), b.rest.begin(), b.rest.end());
        std::string joined;
        for (const auto& a : args) joined += a + " ";
        const run_output r = run_cli(args);
        EXPECT_EQ(r.code, 2) << joined << "\n" << r.err;
        EXPECT_TRUE(is_one_line(r.err)) << joined << "\n" << r.err;
        const std::string prefix = b.command.empty() ? "ndshard: " : "ndshard " + b.command + ": ";
        ASSERT_EQ(r.err.rfind(prefix, 0), 0u) << joined << "\n" << r.err;
        const std::string message = r.err.substr(prefix.size());
        EXPECT_EQ(message.find("ndshard"), std::string::npos) << joined << "\n" << r.err;
        for (const std::string& name : commands) EXPECT_NE(message.rfind(name + ":", 0), 0u) << joined << "\n" << r.err;
    }
}

// Each command of the list above has a case (a new command gets one too).
TEST(CliErrorPrefix, EveryCommandIsCovered) {
    for (const std::string& name : commands) {
        int cases = 0;
        for (const bad_run& b : bad_runs) cases += b.command == name;
        EXPECT_GE(cases, 2) << name;
    }
    const run_output top = run_cli({"--help"});
    for (const std::string& name : commands) EXPECT_NE(top.out.find(name), std::string::npos) << name;
}

}  // namespace
}  // namespace ndshard::cli::test
