// `ndshard kcheck`: its flags and their errors, a good op passing, a defective reader caught
// with a replay line that fails again when run, --case for one case, and a program factory
// written with tt-metal's host API (--program) passing.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "cli_test_util.hpp"

namespace ndshard::cli::test {
namespace {

// A bad command line: exit 2, one line on stderr starting "ndshard kcheck: " and holding every piece.
void expect_refused(const std::vector<std::string>& args, std::initializer_list<std::string> pieces) {
    std::vector<std::string> full{"kcheck"};
    full.insert(full.end(), args.begin(), args.end());
    const run_output r = run_cli(full);
    EXPECT_EQ(r.code, 2) << r.out << r.err;
    EXPECT_TRUE(is_one_line(r.err)) << r.err;
    EXPECT_EQ(r.err.rfind("ndshard kcheck: ", 0), 0U) << r.err;
    for (const std::string& p : pieces) EXPECT_NE(r.err.find(p), std::string::npos) << "'" << p << "' not in " << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
}

std::vector<std::string> with_cache(std::vector<std::string> args) {
    args.insert(args.end(), {"--cache", NDSHARD_KERNEL_CACHE_DIR});
    return args;
}

TEST(KcheckCli, BadFlagsNameTheValueAndTheRule) {
    expect_refused({}, {"op"});
    expect_refused({"transpose"}, {"transpose", "unknown op"});
    expect_refused({"permute:0,0"}, {"permute:0,0", "permutation"});
    expect_refused({"copy", "--cases", "0"}, {"--cases", "\"0\"", "between 1 and 1000000"});
    expect_refused({"copy", "--cases", "-3"}, {"--cases", "-3"});
    expect_refused({"copy", "--cores", "9"}, {"--cores", "9", "between 1 and 8"});
    expect_refused({"copy", "--grid", "8x8", "--cores", "65"}, {"--cores", "65", "between 1 and 64"});
    expect_refused({"copy", "--grid", "9x8"}, {"--grid", "9", "between 1 and 8"});
    expect_refused({"copy", "--grid", "8"}, {"--grid", "XxY"});
    expect_refused({"copy", "--dram-banks", "13"}, {"--dram-banks", "13", "between 1 and 12"});
    expect_refused({"copy", "--contract", "l1,tiles"}, {"--contract", "tiles", "same-spec"});
    expect_refused({"copy", "--contract", "l1,dram"}, {"--contract", "exclude each other"});
    expect_refused({"copy", "--static-percent", "101"}, {"--static-percent", "101"});
    expect_refused({"copy", "--page-bytes", "16,6"}, {"--page-bytes", "6", "multiple of 4"});
    expect_refused({"copy", "--page-bytes", "8192"}, {"8192", "4..4096"});
    expect_refused({"copy", "--reader", "/no/such/reader.cpp"},
                   {"--reader", "/no/such/reader.cpp", "not a readable file"});
    expect_refused({"copy", "--writer", ""}, {"--writer"});
    expect_refused({"copy", "--include", "/no/such/dir"}, {"--include", "/no/such/dir", "not a directory"});
    expect_refused({"copy", "--case", "{"}, {"--case", "not JSON"});
    expect_refused({"copy", "--case", R"({"inputs":[]})"}, {"--case", "keys"});
    expect_refused({"copy", "--timeout-s", "0"}, {"--timeout-s"});
    expect_refused({"copy", "--bogus"}, {"--bogus"});
    const std::string factory = std::string(NDSHARD_KERNELS_DIR) + "/ops/copy/program.cpp";
    expect_refused({"--program", factory}, {"--program needs --reference OP"});
    expect_refused({"copy", "--program", factory, "--reference", "copy"}, {"--program", "runs alone"});
    expect_refused({"copy", "--reference", "copy"}, {"--reference", "goes with --program"});
    expect_refused({"--program", "/no/such/program.cpp", "--reference", "copy"},
                   {"--program", "/no/such/program.cpp", "not a readable file"});
}

TEST(KcheckCli, AFactoryWrittenWithTtMetalHostCallsPasses) {
    const std::string factory = std::string(NDSHARD_KERNELS_DIR) + "/ops/copy/program.cpp";
    const run_output r = run_cli(with_cache({"kcheck", "--program", factory, "--reference", "copy", "--cases", "4",
                                             "--max-pages", "32", "--page-bytes", "16", "--static-percent", "0"}));
    EXPECT_EQ(r.code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("kcheck copy: 4 cases (seed 1), 0 failed"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\nPASS\n"), std::string::npos) << r.out;
}

TEST(KcheckCli, TheGoodCopyPasses) {
    const run_output r = run_cli(with_cache({"kcheck", "copy", "--cases", "4", "--max-pages", "32", "--seed", "3"}));
    EXPECT_EQ(r.code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("kcheck copy: 4 cases (seed 3), 0 failed"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("reached:"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\nPASS\n"), std::string::npos) << r.out;
    // Four cases hold no hard case (every 10th is one): the summary says which classes it missed.
    EXPECT_NE(r.out.find("hard classes not reached: pages>255; pages>4095; pages>65536;"), std::string::npos) << r.out;
}

TEST(KcheckCli, HardEveryAndSchedulesAreChecked) {
    for (const std::vector<std::string>& flag :
         {std::vector<std::string>{"--hard-every", "-1"}, std::vector<std::string>{"--schedules", "0"},
          std::vector<std::string>{"--schedules", "65"}}) {
        const run_output r = run_cli({"kcheck", "copy", flag[0], flag[1]});
        EXPECT_EQ(r.code, 2) << r.out << r.err;
        EXPECT_NE(r.err.find(flag[0] + " \"" + flag[1] + "\""), std::string::npos) << r.err;
    }
}

// The replay line of a failure, run as it is printed (its quoted words unquoted), fails again.
std::vector<std::string> replay_args(const std::string& line) {
    std::vector<std::string> args;
    std::string word;
    bool quoted = false, any = false;
    for (char ch : line) {
        if (ch == '\'') {
            quoted = !quoted;
            any = true;
        } else if (ch == ' ' && !quoted) {
            if (any || !word.empty()) args.push_back(word);
            word.clear();
            any = false;
        } else {
            word += ch;
        }
    }
    if (any || !word.empty()) args.push_back(word);
    return args;
}

TEST(KcheckCli, ADefectiveReaderIsCaughtShrunkAndReplayed) {
    const std::string reader = std::string(NDSHARD_KERNELS_DIR) + "/defects/start_id_off_by_one.cpp";
    const run_output r =
        run_cli(with_cache({"kcheck", "copy", "--reader", reader, "--cases", "6", "--max-pages", "32"}));
    ASSERT_EQ(r.code, 1) << r.out << r.err;
    EXPECT_NE(r.out.find("FAIL: "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("smallest failing case: "), std::string::npos) << r.out;
    const std::size_t at = r.out.find("replay: ndshard kcheck copy --case '");
    ASSERT_NE(at, std::string::npos) << r.out;
    const std::string line = r.out.substr(at + 8, r.out.find('\n', at) - at - 8);
    EXPECT_NE(line.find("--reader '" + reader + "'"), std::string::npos) << line;

    std::vector<std::string> args = replay_args(line);
    ASSERT_GE(args.size(), 4U);
    ASSERT_EQ(args[0], "ndshard");
    args.erase(args.begin());
    const run_output again = run_cli(with_cache(args));
    EXPECT_EQ(again.code, 1) << again.out << again.err;
    EXPECT_NE(again.out.find("FAIL: "), std::string::npos) << again.out;

    // The op's own reader passes the same case.
    const auto flag = std::find(args.begin(), args.end(), "--reader");
    ASSERT_NE(flag, args.end());
    args.erase(flag, flag + 2);
    const run_output good = run_cli(with_cache(args));
    EXPECT_EQ(good.code, 0) << good.out << good.err;
    EXPECT_NE(good.out.find("\nPASS\n"), std::string::npos) << good.out;
}

// --schedules N: a mistake only some interleavings expose is caught, and the replay line
// carries the flag, so the replay fails again.
TEST(KcheckCli, TheReplayOfAFailureUnderSchedulesCarriesThem) {
    const std::string dir = std::string(NDSHARD_KERNELS_DIR) + "/defects/counter_lost_update";
    const run_output r = run_cli(with_cache({"kcheck", "copy", "--reader", dir + "_reader.cpp", "--writer",
                                             dir + "_writer.cpp", "--semaphore", "--schedules", "8", "--cases", "12",
                                             "--max-pages", "32", "--page-bytes", "8", "--static-percent", "0"}));
    ASSERT_EQ(r.code, 1) << r.out << r.err;
    EXPECT_NE(r.out.find("deadlock"), std::string::npos) << r.out;
    const std::size_t at = r.out.find("replay: ndshard kcheck copy --case '");
    ASSERT_NE(at, std::string::npos) << r.out;
    const std::string line = r.out.substr(at + 8, r.out.find('\n', at) - at - 8);
    EXPECT_NE(line.find(" --schedules 8"), std::string::npos) << line;
    std::vector<std::string> args = replay_args(line);
    ASSERT_EQ(args[0], "ndshard");
    args.erase(args.begin());
    const run_output again = run_cli(with_cache(args));
    EXPECT_EQ(again.code, 1) << again.out << again.err;
}

TEST(KcheckCli, JsonReportsTheCounts) {
    const run_output r =
        run_cli(with_cache({"kcheck", "reduce:0", "--cases", "3", "--max-pages", "24", "--page-bytes", "8", "--json"}));
    EXPECT_EQ(r.code, 0) << r.out << r.err;
    for (const char* key : {"\"op\": \"reduce:0\"", "\"cases_run\": ", "\"cases_failed\": 0", "\"reached\": "})
        EXPECT_NE(r.out.find(key), std::string::npos) << key << " not in " << r.out;
    EXPECT_EQ(r.out.find("\"smallest\""), std::string::npos) << r.out;
}

// --contract narrows the op: a case outside it is not applicable (exit 0), never run.
TEST(KcheckCli, ACaseOutsideTheContractIsNotApplicable) {
    const std::string spec =
        R"js({"tensor":[2,2],"shard":[1,2],"page":"pages","element_size":8,"alignment":32,"cores":"(0,0)-(1,0)",)js"
        R"js("orientation":"row_major","strategy":"round_robin_1d","bank_base":0})js";
    const std::string one = R"js({"inputs":[{"spec":)js" + spec + R"js(,"memory":"l1"}],"output":{"spec":)js" + spec +
                            R"js(,"memory":"dram"},"mix":0,"cores":1,"seed":0})js";
    const run_output r = run_cli(with_cache({"kcheck", "copy", "--contract", "l1,same-spec", "--case", one}));
    EXPECT_EQ(r.code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("not applicable: "), std::string::npos) << r.out;
}

}  // namespace
}  // namespace ndshard::cli::test
