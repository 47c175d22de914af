// The version macros (lib/include/ndshard/version.hpp) against CMake's PROJECT_VERSION,
// which CMakeLists.txt passes in as NDSHARD_EXPECTED_VERSION: the top-level project()
// stays the one source of the number, and this fails when the header drifts from it.
// Also `ndshard --version`, which prints the same string.
#include <gtest/gtest.h>

#include <string>

#include "cli_test_util.hpp"
#include "ndshard/version.hpp"

#ifndef NDSHARD_EXPECTED_VERSION
#error "build this test with -DNDSHARD_EXPECTED_VERSION=\"${PROJECT_VERSION}\""
#endif

namespace ndshard::cli::test {
namespace {

TEST(CliVersion, HeaderMatchesTheProjectVersion) {
    EXPECT_STREQ(NDSHARD_VERSION_STRING, NDSHARD_EXPECTED_VERSION);
    // The three numbers, printed independently of the header's own stringification.
    const std::string joined = std::to_string(NDSHARD_VERSION_MAJOR) + "." + std::to_string(NDSHARD_VERSION_MINOR) +
                               "." + std::to_string(NDSHARD_VERSION_PATCH);
    EXPECT_EQ(joined, NDSHARD_EXPECTED_VERSION);
    EXPECT_EQ(NDSHARD_VERSION, NDSHARD_VERSION_MAJOR * 10000 + NDSHARD_VERSION_MINOR * 100 + NDSHARD_VERSION_PATCH);
}

TEST(CliVersion, VersionFlagPrintsIt) {
    const run_output r = run_cli({"--version"});
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.err, "");
    EXPECT_EQ(r.out, std::string("ndshard ") + NDSHARD_EXPECTED_VERSION + "\n");
    // --help names the flag.
    EXPECT_NE(run_cli({"--help"}).out.find("--version"), std::string::npos);
}

}  // namespace
}  // namespace ndshard::cli::test
