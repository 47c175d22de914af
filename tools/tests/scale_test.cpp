// explain at scale (per-core pages in closed form, --format json, the L1 warning) and the
// shard-level views of show and svg. Per-core pages are checked against the checked-integer oracle.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cmath>

#include "cli_test_util.hpp"
#include "ndshard/cli/render.hpp"
#include "ndshard/cli/spec_input.hpp"
#include "ndshard/distribution.hpp"
#include "ndshard/oracle/oracle.hpp"
#include "ndshard/testkit/oracle_bridge.hpp"
#include "xml_check.hpp"

namespace ndshard::cli::test {
namespace {

using json = nlohmann::json;

distribution_spec spec_of_args(std::vector<std::string> flags) {
    flags.insert(flags.begin(), "map");
    const parse_result r = parse_args(flags);
    if (!r.cmd) throw std::runtime_error(r.error);
    return std::get<map_command>(*r.cmd).spec;
}

std::vector<std::uint64_t> oracle_pages_per_core(const distribution_spec& s) {
    const oracle::verdict v = oracle::evaluate(testkit::to_oracle(s));
    if (!v.accepted) throw std::runtime_error(v.message);
    std::vector<std::uint64_t> out;
    for (std::size_t c = 0; c < v.accepted->cores.size(); ++c)
        out.push_back(static_cast<std::uint64_t>(oracle::pages_on_core(*v.accepted, c)));
    return out;
}

// Uneven specs of every deal: edge shards along one or several dims, more cores than
// shards, folded ranks, a shard wider than the tensor.
const std::vector<std::vector<std::string>> uneven_specs = {
    {"--tensor", "3,7,5", "--shard", "2,2,2", "--grid", "2x3"},
    {"--tensor", "3,7,5", "--shard", "2,2,2", "--grid", "2x3", "--strategy", "contiguous_1d"},
    {"--tensor", "3,7,5", "--shard", "2,2,2", "--grid", "5x1"},
    {"--tensor", "3,7,5", "--shard", "2,2,2", "--grid", "7x1", "--strategy", "contiguous_1d"},
    {"--tensor", "9,10", "--shard", "4,3", "--grid", "4x4", "--strategy", "grid_2d"},
    {"--tensor", "2,5,3,7", "--shard", "3,2,4", "--cores", "(0,0)-(2,0),(4,4)"},
    {"--tensor", "13", "--shard", "5", "--grid", "9x1"},
    {"--tensor", "3,1000", "--shard", "2,7", "--grid", "7x1"},
    {"--tensor", "3,1000", "--shard", "2,7", "--grid", "6x1"},
    {"--tensor", "5,6,7,8", "--shard", "2,4,3,5", "--grid", "3x5"},
    {"--tensor", "5,6,7,8", "--shard", "2,4,3,5", "--grid", "3x5", "--strategy", "contiguous_1d"},
    {"--tensor", "2,64,96", "--shard", "1,32,64", "--page", "tile", "--grid", "4x4"},
    {"--tensor", "3,2,2,3,4", "--shard", "1,1,2,2,4", "--page", "row", "--cores", "(0,0)-(1,4)", "--orientation",
     "col_major"},
    {"--tensor", "0,5", "--shard", "2,2", "--grid", "3x1"},
};

TEST(CliScale, PerCorePagesEqualTheOracle) {
    for (const auto& flags : uneven_specs) {
        const distribution_spec s = spec_of_args(flags);
        const std::vector<std::uint64_t> expected = oracle_pages_per_core(s);
        EXPECT_EQ(real_pages_per_core(make_distribution(s).layout), expected) << spec_to_flags(s);
        // explain --format json prints the same figures.
        std::vector<std::string> args{"explain", "--format", "json"};
        args.insert(args.end(), flags.begin(), flags.end());
        const run_output r = run_cli(args);
        ASSERT_EQ(r.code, 0) << r.err;
        EXPECT_TRUE(is_one_line(r.out));
        EXPECT_EQ(json::parse(r.out)["real_pages_per_core"].get<std::vector<std::uint64_t>>(), expected);
    }
    // A seeded sweep of small uneven specs, every deal.
    std::uint64_t state = 12345;
    auto draw = [&](std::uint64_t n) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return (state >> 33) % n;
    };
    for (int i = 0; i < 300; ++i) {
        distribution_spec s;
        const std::size_t rank = 1 + draw(4);
        for (std::size_t d = 0; d < rank; ++d) {
            s.tensor.push_back(1 + draw(9));
            s.shard.push_back(1 + draw(4));
        }
        const std::uint32_t w = 1 + static_cast<std::uint32_t>(draw(5)), h = 1 + static_cast<std::uint32_t>(draw(3));
        s.cores = {core_range{{0, 0}, {w - 1, h - 1}}};
        s.strat = draw(2) ? strategy::round_robin_1d : strategy::contiguous_1d;
        EXPECT_EQ(real_pages_per_core(make_distribution(s).layout), oracle_pages_per_core(s)) << spec_to_flags(s);
    }
}

// 65535 x 65535 pages: 4.3e9 pages, and with [2,2] shards 1.07e9 shards. The per-core
// figures take at most P steps plus P per edge-shard class (3 here), never a walk over
// the shards; explain itself finishes well inside ctest's timeout.
TEST(CliScale, ExplainOfA65535SquareTensorIsClosedForm) {
    for (const char* shard : {"1,1", "2,2", "64,1"}) {
        const distribution d =
            make_distribution(spec_of_args({"--tensor", "65535,65535", "--shard", shard, "--grid", "8x8"}));
        std::uint64_t steps = 0;
        const std::vector<std::uint64_t> pages = real_pages_per_core(d.layout, &steps);
        EXPECT_LE(steps, 4U * 64U) << shard;
        std::uint64_t total = 0;
        for (std::uint64_t p : pages) total += p;
        EXPECT_EQ(total, 65535ULL * 65535ULL) << shard;
        const run_output r = run_cli({"explain", "--tensor", "65535,65535", "--shard", shard, "--grid", "8x8"});
        EXPECT_EQ(r.code, 0) << r.err;
        EXPECT_NE(r.out.find("real pages per core"), std::string::npos);
    }
    // By hand for [2,2] on 64 cores: 32768 x 32768 shards, the last row and column cut to
    // 1 page. Shard (i,j) = 32768 i + j is on core j % 64 (32768 is a multiple of 64), so
    // a core holds 512 whole columns. A column has 32767 shards of 4 pages and one of 2 in
    // the last row: 131070. Core 63's columns include the last one, 32767 shards of 2
    // pages and the corner's 1: 65535. Core 0: 512 * 131070; core 63: 511 * 131070 + 65535.
    const distribution d =
        make_distribution(spec_of_args({"--tensor", "65535,65535", "--shard", "2,2", "--grid", "8x8"}));
    const std::vector<std::uint64_t> pages = real_pages_per_core(d.layout);
    EXPECT_EQ(pages[0], 67107840U);
    EXPECT_EQ(pages[63], 67042305U);
}

TEST(CliScale, ExplainJsonHasEveryWord) {
    // 100 banks: the text elides words (`... N more ...`), the JSON never does.
    const run_output r =
        run_cli({"explain", "--format", "json", "--tensor", "20,30", "--shard", "2,3", "--grid", "10x10"});
    ASSERT_EQ(r.code, 0) << r.err;
    const json j = json::parse(r.out);
    const json& w = j["accessor_words"][0];
    EXPECT_EQ(w["layout"], "as_given");
    // All runtime: [config] / [rank, banks, T x2, S x2, 100 coords, checksum] = 107 words.
    EXPECT_EQ(w["all_runtime"]["compile_time"].size(), 1U);
    EXPECT_EQ(w["all_runtime"]["runtime"].size(), 107U);
    EXPECT_EQ(w["all_compile_time"]["compile_time"].size(), 107U);
    EXPECT_EQ(w["all_runtime"]["runtime"][7], 0x10000U);  // after rank, banks, T, S: core 1 = (1,0)
    EXPECT_EQ(j["num_shards"], 100U);
    EXPECT_EQ(j["bytes_per_core"], 6U);
    EXPECT_EQ(j["warnings"], json::array());
    const run_output text = run_cli({"explain", "--tensor", "20,30", "--shard", "2,3", "--grid", "10x10"});
    EXPECT_NE(text.out.find("more ..."), std::string::npos);
}

// Wormhole's L1 is 1464 KiB = 1,499,136 bytes, Blackhole's 1536 KiB = 1,572,864.
// 375 pages of 4096 bytes = 1,536,000 bytes per core: too big for Wormhole only.
TEST(CliScale, ExplainWarnsPastTheL1) {
    auto explain = [](const char* arch, bool as_json) {
        std::vector<std::string> a{"explain", "--tensor",       "750",  "--shard", "375", "--grid",
                                   "2x1",     "--element-size", "4096", "--arch",  arch};
        if (as_json) a.insert(a.end(), {"--format", "json"});
        return run_cli(a);
    };
    const run_output wh = explain("wormhole_b0", false);
    EXPECT_EQ(wh.code, 0) << wh.err;
    EXPECT_NE(wh.out.find("warning: the reservation ends at byte 1536000 of every core, past wormhole_b0's "
                          "1499136-byte L1 (102.5%); it fits only in DRAM banks\n"),
              std::string::npos)
        << wh.out;
    const run_output bh = explain("blackhole", false);
    EXPECT_EQ(bh.out.find("warning"), std::string::npos) << bh.out;
    EXPECT_NE(bh.out.find("L1 (blackhole)"), std::string::npos);
    EXPECT_EQ(json::parse(explain("wormhole_b0", true).out)["arch"]["fits_l1"], false);
    EXPECT_EQ(json::parse(explain("blackhole", true).out)["arch"]["fits_l1"], true);
    EXPECT_EQ(json::parse(explain("grayskull", true).out)["arch"]["l1_bytes"], 1048576U);
}

// [1,32,4096,4096] bf16 in 32x32 tiles: 524,288 pages, too many for page-level pictures.
const std::vector<std::string> big_tensor = {"--tensor", "1,32,4096,4096", "--shard", "1,1,512,512", "--page",
                                             "tile",     "--element-size", "2",       "--grid",      "8x8"};

TEST(CliScale, ShowSwitchesToShards) {
    std::vector<std::string> a{"show"};
    a.insert(a.end(), big_tensor.begin(), big_tensor.end());
    const run_output r = run_cli(a);
    ASSERT_EQ(r.code, 0) << r.err;
    // 32 * 8 * 8 = 2048 shards on 64 cores: 32 slot lines per core.
    std::size_t slot_lines = 0, pos = 0;
    while ((pos = r.out.find("\n  slot ", pos)) != std::string::npos) ++slot_lines, ++pos;
    EXPECT_EQ(slot_lines, 2048U);
    EXPECT_NE(r.out.find("  slot 0  shard 0 at [0,0,0,0]  ####################  256/256\n"), std::string::npos)
        << r.out.substr(0, 400);
    // Forced shard level on an uneven spec: the last shard of [3,7,5]/[2,2,2] has 1 of 8 pages.
    const run_output small =
        run_cli({"show", "--level", "shard", "--tensor", "3,7,5", "--shard", "2,2,2", "--grid", "2x3"});
    ASSERT_EQ(small.code, 0) << small.err;
    EXPECT_NE(small.out.find("  slot 3  shard 23 at [1,3,2]  ###.................  1/8\n"), std::string::npos)
        << small.out;
    const run_output page = run_cli({"show", "--level", "page", "--tensor", "1,32,4096,4096", "--shard", "1,1,512,512",
                                     "--page", "tile", "--grid", "8x8"});
    EXPECT_EQ(page.code, 2);
}

TEST(CliScale, SvgDrawsOneCellPerShard) {
    std::vector<std::string> a{"svg"};
    a.insert(a.end(), big_tensor.begin(), big_tensor.end());
    const run_output r = run_cli(a);
    ASSERT_EQ(r.code, 0) << r.err;
    const auto root = parse_xml(r.out);  // throws on malformed XML
    std::size_t shards = 0;
    root->walk([&](const xml_element& e) {
        const std::string* cls = e.attr("class");
        if (cls && *cls == "shard") ++shards;
    });
    EXPECT_EQ(shards, 2048U);
}

// [5,7] pages in [2,3] shards: grid [3,3]; the last row keeps 1 of 2 rows, the last column
// 1 of 3 columns. Each cell is filled by that fraction along its axis.
TEST(CliScale, SvgEdgeShardsArePartial) {
    const run_output r = run_cli({"svg", "--level", "shard", "--tensor", "5,7", "--shard", "2,3", "--grid", "2x2"});
    ASSERT_EQ(r.code, 0) << r.err;
    const auto root = parse_xml(r.out);
    // Expected (width share, height share, real pages) per shard id, by hand.
    const std::vector<std::tuple<double, double, int>> expected = {{1, 1, 6},   {1, 1, 6},   {1.0 / 3, 1, 2},
                                                                   {1, 1, 6},   {1, 1, 6},   {1.0 / 3, 1, 2},
                                                                   {1, 0.5, 3}, {1, 0.5, 3}, {1.0 / 3, 0.5, 1}};
    std::size_t seen = 0, pads = 0;
    double full = 0;
    root->walk([&](const xml_element& e) {
        const std::string* cls = e.attr("class");
        if (!cls || *cls != "shard") {
            if (cls && *cls == "shard-pad") ++pads;
            return;
        }
        const std::size_t id = std::stoul(*e.attr("data-shard"));
        ASSERT_LT(id, expected.size());
        if (id == 0) full = std::stod(*e.attr("width"));
        const auto [ws, hs, real] = expected[id];
        EXPECT_EQ(std::stoi(*e.attr("data-pages")), real) << id;
        EXPECT_EQ(std::stoi(*e.attr("data-volume")), 6) << id;
        ++seen;
        if (full > 0) {
            EXPECT_NEAR(std::stod(*e.attr("width")) / full, ws, 0.1 / full + 1e-9) << id;
            EXPECT_NEAR(std::stod(*e.attr("height")) / full, hs, 0.1 / full + 1e-9) << id;
        }
    });
    EXPECT_EQ(seen, 9U);
    EXPECT_EQ(pads, 5U);  // the partial shards also get their full cell as a dashed outline
}

}  // namespace
}  // namespace ndshard::cli::test
