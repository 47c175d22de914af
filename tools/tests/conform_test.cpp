// `ndshard conform`: flag errors (exit 2, one line naming the value and the rule), an impl
// that cannot be loaded (exit 2), and the output contract on lib/conform's test
// implementation: exit 0 with every law passing, exit 1 with a planted defect.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstdlib>

#include "cli_test_util.hpp"

namespace ndshard::cli::test {
namespace {

void expect_error(const std::vector<std::string>& args, const std::string& message) {
    const run_output r = run_cli(args);
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_TRUE(is_one_line(r.err)) << r.err;
    EXPECT_EQ(r.err, message + "\n");
}

const std::string impl = NDSC_TESTIMPL;

TEST(CliConform, FlagErrors) {
    expect_error({"conform"},
                 "ndshard conform: --impl: give the implementation under test, a shared library (PATH.so)");
    expect_error({"conform", "--impl", impl, "--cases", "0"},
                 "ndshard conform: --cases \"0\": must be between 1 and 100000000");
    expect_error({"conform", "--impl", impl, "--cases", "100000001"},
                 "ndshard conform: --cases \"100000001\": must be between 1 and 100000000");
    expect_error({"conform", "--impl", impl, "--timeout-ms", "0"},
                 "ndshard conform: --timeout-ms \"0\": must be between 1 and 600000");
    expect_error({"conform", "--impl", impl, "--law", "nolaw"},
                 "ndshard conform: --law \"nolaw\": matches no law (the laws: acceptance, address_limit_32bit, "
                 "page_placement, bijectivity, balance, coord_page_agreement, shard_addressing, iteration_order, "
                 "contiguous_runs, thread_split_iteration, interleaved_equivalence, legacy_equivalence, determinism, "
                 "out_of_range)");
    const run_output bad_regex = run_cli({"conform", "--impl", impl, "--law", "("});
    EXPECT_EQ(bad_regex.code, 2);
    EXPECT_TRUE(is_one_line(bad_regex.err));
    EXPECT_EQ(bad_regex.err.rfind("ndshard conform: --law \"(\": not a valid regular expression", 0), 0U)
        << bad_regex.err;
    for (const char* flag : {"--cases", "--seed", "--timeout-ms"}) {
        const run_output r = run_cli({"conform", "--impl", impl, flag, "-3"});
        EXPECT_EQ(r.code, 2) << flag;
        EXPECT_TRUE(is_one_line(r.err)) << r.err;
        EXPECT_NE(r.err.find(std::string(flag) + " \"-3\""), std::string::npos) << r.err;
    }
}

TEST(CliConform, ImplThatCannotBeLoaded) {
    expect_error({"conform", "--impl", "/nonexistent/libmine.so"},
                 "ndshard conform: --impl \"/nonexistent/libmine.so\": no such file (give the path of the "
                 "implementation's shared library)");
    const run_output r = run_cli({"conform", "--impl", __FILE__});
    EXPECT_EQ(r.code, 2);
    EXPECT_TRUE(is_one_line(r.err)) << r.err;
    EXPECT_NE(r.err.find(": cannot load: "), std::string::npos) << r.err;
}

TEST(CliConform, AllLawsPass) {
    ::unsetenv("NDSC_TESTIMPL_DEFECT");
    const run_output r = run_cli({"conform", "--impl", impl, "--cases", "20", "--seed", "3"});
    EXPECT_EQ(r.code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("PASS acceptance (20 cases)\n"), std::string::npos) << r.out;
    // The test implementation leaves out the two queries of ABI version 2: their laws are skipped.
    EXPECT_NE(r.out.find("SKIP contiguous_runs (0 cases): needs ndsc_page_run, which the implementation does not "
                         "declare\n"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("\n12 passed, 0 failed, 2 skipped\n"), std::string::npos) << r.out;
}

TEST(CliConform, DefectFailsWithCounterexampleAndReplay) {
    ::setenv("NDSC_TESTIMPL_DEFECT", "col_major_ignored", 1);
    const run_output r = run_cli({"conform", "--impl", impl, "--cases", "200", "--seed", "3", "--law",
                                  "^(out_of_range|page_placement)$", "--json"});
    ::unsetenv("NDSC_TESTIMPL_DEFECT");
    EXPECT_EQ(r.code, 1) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["impl"]["name"], "conform-testimpl");
    EXPECT_EQ(j["seed"], 3);
    EXPECT_EQ(j["laws"].size(), 2U);
    EXPECT_GE(j["failed"].get<int>(), 1);
    EXPECT_EQ(j["passed"].get<int>() + j["failed"].get<int>(), 2);
    EXPECT_EQ(j["skipped"], 0);
    const auto& law = j["laws"][0];
    EXPECT_EQ(law["name"], "page_placement");
    EXPECT_EQ(law["status"], "failed");
    const auto& ex = law["counterexample"];
    EXPECT_LE(ex["rank"].get<int>(), 3);
    EXPECT_LE(ex["pages"].get<int>(), 64);
    EXPECT_NE(ex["spec"].get<std::string>().find("--orientation col_major"), std::string::npos) << ex;
    const std::string replay = law["replay"];
    EXPECT_EQ(replay.rfind("ndshard conform --impl " + impl + " --law '^page_placement$' --seed 3 --cases ", 0), 0U)
        << replay;

    // The replay command fails the same way, with the same counterexample.
    ::setenv("NDSC_TESTIMPL_DEFECT", "col_major_ignored", 1);
    std::vector<std::string> args{"conform", "--impl",           impl,
                                  "--law",   "^page_placement$", "--seed",
                                  "3",       "--cases",          replay.substr(replay.rfind(' ') + 1)};
    const run_output again = run_cli(args);
    ::unsetenv("NDSC_TESTIMPL_DEFECT");
    EXPECT_EQ(again.code, 1);
    EXPECT_NE(again.out.find("FAIL page_placement"), std::string::npos) << again.out;
    EXPECT_NE(again.out.find("  spec:     " + ex["spec"].get<std::string>() + "\n"), std::string::npos) << again.out;
    EXPECT_NE(again.out.find("\n0 passed, 1 failed, 0 skipped\n"), std::string::npos) << again.out;
}

}  // namespace
}  // namespace ndshard::cli::test
