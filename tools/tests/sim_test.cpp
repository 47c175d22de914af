// `ndshard sim`: the JSON contract of issue 4 and its error paths.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_test_util.hpp"

namespace ndshard::cli::test {
namespace {

using json = nlohmann::json;

const std::string interleaved = R"js({"tensor":[4,8,8],"interleaved":true,"banks":12})js";
const std::string batch_sharded = R"js({"tensor":[4,8,8],"shard":[4,1,1],"grid":"2x3","strategy":"round_robin_1d"})js";

TEST(CliSim, ReshardPrintsTheContract) {
    const run_output r = run_cli({"sim", "--op", "reshard", "--in", interleaved, "--out", batch_sharded});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    ASSERT_TRUE(is_one_line(r.out)) << r.out;
    const json j = json::parse(r.out);
    std::vector<std::string> keys;
    for (const auto& [key, value] : j.items()) keys.push_back(key);
    // Keys in the order of the contract (nlohmann's default object sorts them, so check
    // the text instead).
    std::size_t at = 0;
    for (const char* key : {"\"op\"", "\"verified\"", "\"pages_read\"", "\"pages_written\"", "\"local_reads\"",
                            "\"remote_reads\"", "\"bytes_read\"", "\"bytes_written\"", "\"hops\""}) {
        const std::size_t found = r.out.find(key, at);
        ASSERT_NE(found, std::string::npos) << key;
        at = found;
    }
    EXPECT_EQ(keys.size(), 9u);
    EXPECT_EQ(j["op"], "reshard");
    EXPECT_EQ(j["verified"], true);
    EXPECT_EQ(j["pages_read"], 256);  // 4*8*8 pages, each read once and written once
    EXPECT_EQ(j["pages_written"], 256);
    EXPECT_EQ(j["local_reads"].get<int>() + j["remote_reads"].get<int>(), 256);
}

TEST(CliSim, BatchAlignedReductionIsLocal) {
    const run_output r =
        run_cli({"sim", "--op", "reduce_sum:0", "--in", R"js({"tensor":[8,16,16],"shard":[8,2,16],"grid":"4x2"})js",
                 "--out", R"js({"tensor":[1,16,16],"shard":[1,2,16],"grid":"4x2"})js", "--seed", "7"});
    ASSERT_EQ(r.code, 0) << r.err;
    const json j = json::parse(r.out);
    EXPECT_EQ(j["verified"], true);
    EXPECT_EQ(j["remote_reads"], 0);
}

TEST(CliSim, BadRequestsExitTwoWithOneLine) {
    const std::string one = R"js({"tensor":[2],"shard":[1],"grid":"2x1"})js";
    const std::string three = R"js({"tensor":[3],"shard":[1],"grid":"2x1"})js";
    struct {
        std::vector<std::string> args;
        std::string needle;
    } cases[] = {
        {{"sim", "--op", "frob", "--in", one, "--out", one}, "unknown op 'frob'"},
        {{"sim", "--op", "reshard", "--in", one, "--out", three}, "not [3]"},
        {{"sim", "--op", "reshard", "--in", R"js({"tensor":[2],"shard":[0],"grid":"2x1"})js", "--out", one},
         "[rule zero_shard_dim]"},
        {{"sim", "--op", "reshard", "--in", one, "--out", one, "--page-elems", "x"},
         "--page-elems \"x\": not a non-negative decimal integer"},
        {{"sim", "--op", "reshard", "--in", "{\"tensor\":[2],", "--out", one}, "spec JSON: parse error"},
    };
    for (const auto& c : cases) {
        const run_output r = run_cli(c.args);
        EXPECT_EQ(r.code, 2) << c.needle;
        EXPECT_EQ(r.out, "");
        EXPECT_TRUE(is_one_line(r.err)) << r.err;
        EXPECT_NE(r.err.find(c.needle), std::string::npos) << r.err;
    }
}

}  // namespace
}  // namespace ndshard::cli::test
