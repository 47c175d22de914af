// `ndshard map` against docs/semantics.md's conformance vectors, with every expected value typed by hand
// from that document (not produced by the program).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <optional>
#include <vector>

#include "cli_test_util.hpp"

namespace ndshard::cli::test {
namespace {

using json = nlohmann::json;
constexpr long P = -1;  // padding slot in the expectations below

struct expected_core {
    unsigned x, y;
    std::vector<long> pages;
};

json map_json(const std::vector<std::string>& flags) {
    std::vector<std::string> args{"map"};
    args.insert(args.end(), flags.begin(), flags.end());
    const run_output r = run_cli(args);
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_TRUE(is_one_line(r.out));
    return json::parse(r.out);
}

void expect_cores(const json& m, const std::vector<expected_core>& want) {
    ASSERT_EQ(m["cores"].size(), want.size());
    for (std::size_t c = 0; c < want.size(); ++c) {
        const json& core = m["cores"][c];
        EXPECT_EQ(core["x"], want[c].x) << "core " << c;
        EXPECT_EQ(core["y"], want[c].y) << "core " << c;
        ASSERT_EQ(core["pages"].size(), want[c].pages.size()) << "core " << c;
        for (std::size_t s = 0; s < want[c].pages.size(); ++s) {
            if (want[c].pages[s] == P) EXPECT_TRUE(core["pages"][s].is_null()) << "core " << c << " slot " << s;
            else EXPECT_EQ(core["pages"][s], want[c].pages[s]) << "core " << c << " slot " << s;
        }
    }
}

// V1: [2,64,96] / [1,32,64] TILE on (0,0)-(3,3) row-major; the whole output, exactly.
TEST(CliMap, V1ExactText) {
    const run_output r =
        run_cli({"map", "--tensor", "2,64,96", "--shard", "1,32,64", "--page", "tile", "--cores", "(0,0)-(3,3)"});
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.out,
              "{\"tensor_pages\":[2,2,3],\"shard_pages\":[1,1,2],\"num_shards\":8,\"max_shards_per_core\":1,"
              "\"shard_volume\":2,\"cores\":["
              "{\"x\":0,\"y\":0,\"pages\":[0,1]},{\"x\":1,\"y\":0,\"pages\":[2,null]},"
              "{\"x\":2,\"y\":0,\"pages\":[3,4]},{\"x\":3,\"y\":0,\"pages\":[5,null]},"
              "{\"x\":0,\"y\":1,\"pages\":[6,7]},{\"x\":1,\"y\":1,\"pages\":[8,null]},"
              "{\"x\":2,\"y\":1,\"pages\":[9,10]},{\"x\":3,\"y\":1,\"pages\":[11,null]},"
              "{\"x\":0,\"y\":2,\"pages\":[null,null]},{\"x\":1,\"y\":2,\"pages\":[null,null]},"
              "{\"x\":2,\"y\":2,\"pages\":[null,null]},{\"x\":3,\"y\":2,\"pages\":[null,null]},"
              "{\"x\":0,\"y\":3,\"pages\":[null,null]},{\"x\":1,\"y\":3,\"pages\":[null,null]},"
              "{\"x\":2,\"y\":3,\"pages\":[null,null]},{\"x\":3,\"y\":3,\"pages\":[null,null]}]}\n");
}

// V4: [3,2,2,3,4] / [1,1,2,2,4] ROW_MAJOR pages on (0,0)-(1,4) COL_MAJOR.
TEST(CliMap, V4) {
    const json m = map_json({"--tensor", "3,2,2,3,4", "--shard", "1,1,2,2,4", "--page", "row", "--cores", "(0,0)-(1,4)",
                             "--orientation", "col_major"});
    EXPECT_EQ(m["tensor_pages"], json::parse("[3,2,2,3,1]"));
    EXPECT_EQ(m["shard_pages"], json::parse("[1,1,2,2,1]"));
    EXPECT_EQ(m["num_shards"], 12);
    EXPECT_EQ(m["max_shards_per_core"], 2);
    EXPECT_EQ(m["shard_volume"], 4);
    expect_cores(m, {{0, 0, {0, 1, 3, 4, 30, 31, 33, 34}},
                     {0, 1, {2, P, 5, P, 32, P, 35, P}},
                     {0, 2, {6, 7, 9, 10, P, P, P, P}},
                     {0, 3, {8, P, 11, P, P, P, P, P}},
                     {0, 4, {12, 13, 15, 16, P, P, P, P}},
                     {1, 0, {14, P, 17, P, P, P, P, P}},
                     {1, 1, {18, 19, 21, 22, P, P, P, P}},
                     {1, 2, {20, P, 23, P, P, P, P, P}},
                     {1, 3, {24, 25, 27, 28, P, P, P, P}},
                     {1, 4, {26, P, 29, P, P, P, P, P}}});
}

// The proposal's picture: [3,7,5] / [2,2,2] on a 2x3 grid: 24 shards, 4 per core,
// real pages per core {24,24,12,18,18,9}; core 0 starts 0,1,5,6,35,36,40,41,20,21,25,26,
// 55,56,60,61 (docs/semantics.md); its last two shards (12 = [1,0,0] and 18 = [1,2,0]) hold
// only depth 2, worked out by hand: 70,71,75,76 and 90,91,95,96, then padding.
TEST(CliMap, ProposalPicture) {
    const json m = map_json({"--tensor", "3,7,5", "--shard", "2,2,2", "--grid", "2x3"});
    EXPECT_EQ(m["tensor_pages"], json::parse("[3,7,5]"));
    EXPECT_EQ(m["shard_pages"], json::parse("[2,2,2]"));
    EXPECT_EQ(m["num_shards"], 24);
    EXPECT_EQ(m["max_shards_per_core"], 4);
    EXPECT_EQ(m["shard_volume"], 8);
    ASSERT_EQ(m["cores"].size(), 6u);
    const unsigned xy[6][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}, {1, 2}};
    const int real[6] = {24, 24, 12, 18, 18, 9};
    for (int c = 0; c < 6; ++c) {
        const json& core = m["cores"][c];
        EXPECT_EQ(core["x"], xy[c][0]);
        EXPECT_EQ(core["y"], xy[c][1]);
        EXPECT_EQ(core["pages"].size(), 32u);
        int n = 0;
        for (const json& p : core["pages"]) n += p.is_null() ? 0 : 1;
        EXPECT_EQ(n, real[c]) << "core " << c;
    }
    const std::vector<long> core0 = {0,  1,  5,  6,  35, 36, 40, 41, 20, 21, 25, 26, 55, 56, 60, 61,
                                     70, 71, 75, 76, P,  P,  P,  P,  90, 91, 95, 96, P,  P,  P,  P};
    expect_cores(json{{"cores", json::array({m["cores"][0]})}}, {{0, 0, core0}});
    // Every page exactly once over all cores.
    std::vector<int> seen(105, 0);
    for (const json& core : m["cores"])
        for (const json& p : core["pages"])
            if (!p.is_null()) ++seen.at(p.get<std::size_t>());
    for (int count : seen) EXPECT_EQ(count, 1);
}

// V7: [2,3] pages / [1,2] over 4 banks: 0->(0,0) 1->(0,1) 2->(1,0) 3->(2,0) 4->(2,1) 5->(3,0).
TEST(CliMap, V7FirstCase) {
    const json m = map_json({"--tensor", "2,3", "--shard", "1,2", "--cores", "(0,0)-(3,0)"});
    expect_cores(m, {{0, 0, {0, 1}}, {1, 0, {2, P}}, {2, 0, {3, 4}}, {3, 0, {5, P}}});
}

// V7: [2,1,3,4] / [2,2,1,2] over 6 banks: p < 12 -> (p/2, p%2), p >= 12 -> ((p-12)/2, 4+p%2).
TEST(CliMap, V7SecondCase) {
    const json m = map_json({"--tensor", "2,1,3,4", "--shard", "2,2,1,2", "--cores", "(0,0)-(5,0)"});
    expect_cores(m, {{0, 0, {0, 1, P, P, 12, 13, P, P}},
                     {1, 0, {2, 3, P, P, 14, 15, P, P}},
                     {2, 0, {4, 5, P, P, 16, 17, P, P}},
                     {3, 0, {6, 7, P, P, 18, 19, P, P}},
                     {4, 0, {8, 9, P, P, 20, 21, P, P}},
                     {5, 0, {10, 11, P, P, 22, 23, P, P}}});
}

// V8: pages on a 2x2 grid: max shards per core and shards per core.
TEST(CliMap, V8Counts) {
    struct {
        const char* tensor;
        const char* shard;
        int max_per_core;
        int per_core[4];
    } cases[] = {{"2,2,2", "1,1,1", 2, {2, 2, 2, 2}},
                 {"3,3,3", "2,2,2", 2, {2, 2, 2, 2}},
                 {"2,2,4", "2,2,2", 1, {1, 1, 0, 0}},
                 {"0,0,0", "2,2,2", 0, {0, 0, 0, 0}}};
    for (const auto& c : cases) {
        const json m = map_json({"--tensor", c.tensor, "--shard", c.shard, "--grid", "2x2"});
        EXPECT_EQ(m["max_shards_per_core"], c.max_per_core) << c.tensor;
        const int volume = m["shard_volume"].get<int>();
        for (int core = 0; core < 4; ++core) {
            // A core holds its shards in its first slots (dealt in order).
            int shards = 0;
            for (int slot = 0; slot < c.max_per_core; ++slot) {
                bool any = false;
                for (int i = 0; i < volume; ++i) any = any || !m["cores"][core]["pages"][slot * volume + i].is_null();
                shards += any ? 1 : 0;
            }
            EXPECT_EQ(shards, c.per_core[core]) << c.tensor << " core " << core;
        }
    }
    EXPECT_EQ(map_json({"--tensor", "0,0,0", "--shard", "2,2,2", "--grid", "2x2"})["num_shards"], 0);
}

// grid_2d lists only the trimmed range, in shard order.
TEST(CliMap, Grid2dListsTheTrimmedCores) {
    const json m = map_json({"--tensor", "4,6", "--shard", "2,3", "--grid", "3x3", "--strategy", "grid_2d"});
    expect_cores(m, {{0, 0, {0, 1, 2, 6, 7, 8}},
                     {1, 0, {3, 4, 5, 9, 10, 11}},
                     {0, 1, {12, 13, 14, 18, 19, 20}},
                     {1, 1, {15, 16, 17, 21, 22, 23}}});
}

// CSV carries the same slots: V1's rows typed by hand.
TEST(CliMap, CsvV1) {
    const run_output r = run_cli({"map", "--format", "csv", "--tensor", "2,64,96", "--shard", "1,32,64", "--page",
                                  "tile", "--cores", "(0,0)-(3,3)"});
    EXPECT_EQ(r.code, 0);
    const std::string head = "core_x,core_y,slot,page\n0,0,0,0\n0,0,1,1\n1,0,0,2\n1,0,1,\n2,0,0,3\n2,0,1,4\n";
    EXPECT_EQ(r.out.substr(0, head.size()), head);
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 33);
    EXPECT_NE(r.out.find("\n3,1,0,11\n3,1,1,\n0,2,0,\n"), std::string::npos);
    const std::string tail = "\n3,3,0,\n3,3,1,\n";
    ASSERT_GE(r.out.size(), tail.size());
    EXPECT_EQ(r.out.substr(r.out.size() - tail.size()), tail);
}

// --spec with the same keys gives the same output as the flags; interleaved works too.
TEST(CliMap, SpecJsonEqualsFlags) {
    const run_output flags = run_cli({"map", "--tensor", "3,7,5", "--shard", "2,2,2", "--grid", "2x3"});
    const run_output spec = run_cli({"map", "--spec", R"js({"tensor":[3,7,5],"shard":[2,2,2],"grid":"2x3"})js"});
    EXPECT_EQ(flags.out, spec.out);
    // Interleaved over 4 banks: page i -> bank i % 4, offset i / 4 (docs/semantics.md).
    const json m = json::parse(run_cli({"map", "--spec", R"js({"tensor":[2,3],"interleaved":true,"banks":4})js"}).out);
    expect_cores(m, {{0, 0, {0, 4}}, {1, 0, {1, 5}}, {2, 0, {2, P}}, {3, 0, {3, P}}});
    EXPECT_EQ(run_cli({"map", "--tensor", "2,3", "--interleaved", "--banks", "4"}).out,
              run_cli({"map", "--spec", R"js({"tensor":[2,3],"interleaved":true,"banks":4})js"}).out);
}

}  // namespace
}  // namespace ndshard::cli::test
