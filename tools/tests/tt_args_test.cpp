// `ndshard convert --from tt-args / --to tt-args`: tt-metal's accessor words (docs/tt-args.md).
// Expected words and specs are written out by hand from the layout in that page.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_test_util.hpp"
#include "ndshard/cli/spec_input.hpp"
#include "ndshard/cli/tt_args.hpp"
#include "ndshard/distribution.hpp"

namespace ndshard::cli::test {
namespace {

using json = nlohmann::json;

std::string words_text(const json& words) {
    std::string s;
    for (const json& w : words) s += (s.empty() ? "" : ",") + std::to_string(w.get<std::uint64_t>());
    return s;
}

// The worked example of docs/tt-args.md: [2,2,3] pages in [1,1,2] shards on four Wormhole
// cores (18,18),(19,18),(18,19),(19,19), bank coords at run time.
TEST(CliTtArgs, DocExampleDecodes) {
    const std::string spec = ok({"convert", "--from", "tt-args", "--ct", "0x41,3,4,2,2,3,1,1,2", "--crta",
                                 "0x13121212,0x13131213", "--page-size", "2048"});
    EXPECT_EQ(spec, R"js({"tensor":[2,2,3],"shard":[1,1,2],"page":"pages","element_size":2048,"alignment":1,)js"
                    R"js("cores":"(18,18)-(19,18),(18,19)-(19,19)","orientation":"row_major",)js"
                    R"js("strategy":"round_robin_1d","bank_base":0})js");
    // Page 8 by hand: shard 5, bank 1 = (19,18), page offset 2; at bank base 0x40000 its
    // byte address is 0x41000 and its Wormhole NoC address 0x493000041000.
    distribution_spec s = parse_spec_json(spec);
    s.bank_base = 0x40000;
    const distribution d = make_distribution(s);
    const auto at = d.layout.locate(8);
    EXPECT_EQ(at.shard_id, 5U);
    EXPECT_EQ(d.cores[at.core], (core_coord{19, 18}));
    EXPECT_EQ(at.device_offset, 2U);
    EXPECT_EQ(d.byte_address(at.device_offset), 0x41000U);
    EXPECT_EQ(tt_noc_xy_addr(tt_arch::wormhole_b0, 19, 18, 0x41000), 0x493000041000ULL);
    // Both lists may come as JSON arrays, as --to tt-args prints them.
    EXPECT_EQ(ok({"convert", "--from", "tt-args", "--ct", "[65,3,4,2,2,3,1,1,2]", "--crta", "[319951378,320016915]",
                  "--page-size", "2048"}),
              spec);
}

TEST(CliTtArgs, DocExampleEncodes) {
    const json j = json::parse(ok({"convert", "--to", "tt-args", "--tensor", "2,2,3", "--shard", "1,1,2", "--cores",
                                   "(18,18)-(19,18),(18,19)-(19,19)", "--runtime", "bank_coords", "--arch",
                                   "wormhole_b0", "--bank-base", "262144"}));
    EXPECT_EQ(j["config"], 0x41);
    EXPECT_EQ(j["flags"], "Sharded|RuntimeBankCoords");
    EXPECT_EQ(j["compile_time"], json::parse("[65,3,4,2,2,3,1,1,2]"));
    EXPECT_EQ(j["common_runtime"], json::array({0x13121212, 0x13131213}));
    EXPECT_EQ(j["arch"], "wormhole_b0");
    // Bank 1 = (19,18) at 0x40000: 18 << 42 | 19 << 36 | 0x40000.
    EXPECT_EQ(j["banks"][1]["noc_addr"], "0x493000040000");
    // Blackhole uses the same 36 + 6 bit encoding; Grayskull had 32 local bits.
    EXPECT_EQ(tt_noc_xy_addr(tt_arch::blackhole, 1, 2, 0x10200), 0x81000010200ULL);
    EXPECT_EQ(tt_noc_xy_addr(tt_arch::grayskull, 1, 2, 0x10200), 0x8100010200ULL);
    // All compile-time, the default: every part in the CTA, an odd bank count leaves the
    // last word's high half 0.
    const json k = json::parse(ok(
        {"convert", "--to", "tt-args", "--tensor", "4,6", "--shard", "2,3", "--cores", "(1,2),(3,4),(5,6)", "--dram"}));
    EXPECT_EQ(k["compile_time"], json::parse("[3,2,3,4,6,2,3,50594050,1286]"));  // 0x03040102, 0x0506
    EXPECT_EQ(k["common_runtime"], json::array());
}

// spec -> words -> spec for each of tt-metal's 15 runtime mixes: the decoded spec maps every
// page where the original does (compared through `map`), and exactly 15 of the 32 flag
// sets are accepted.
TEST(CliTtArgs, RoundTripsEveryMix) {
    const std::vector<std::vector<std::string>> specs = {
        {"--tensor", "3,7,5", "--shard", "2,2,2", "--grid", "2x3", "--element-size", "64", "--bank-base", "4096"},
        {"--tensor", "2,3,4,5", "--shard", "2,3", "--cores", "(0,0)-(2,0),(5,5)", "--element-size", "32"},  // folded
        {"--tensor", "9", "--shard", "4", "--cores", "(1,1)-(1,3)", "--orientation", "col_major"},
        {"--tensor", "4,6", "--shard", "2,3", "--grid", "3x3", "--strategy", "grid_2d"},  // trimmed list
        {"--tensor", "2,64,96", "--shard", "1,32,64", "--page", "tile", "--element-size", "2", "--grid", "4x4"},
    };
    const char* parts[] = {"rank", "num_banks", "tensor_shape", "shard_shape", "bank_coords"};
    for (const auto& flags : specs) {
        std::vector<std::string> map_args{"map"};
        map_args.insert(map_args.end(), flags.begin(), flags.end());
        const std::string expected_map = ok(map_args);
        const parse_result parsed = parse_args(map_args);
        ASSERT_TRUE(parsed.cmd) << parsed.error;
        const distribution src = make_distribution(std::get<map_command>(*parsed.cmd).spec);
        int accepted = 0;
        for (unsigned mix = 0; mix < 32; ++mix) {
            std::string runtime = "none";
            for (unsigned b = 0; b < 5; ++b)
                if (mix >> b & 1U) runtime = (runtime == "none" ? "" : runtime + ",") + parts[b];
            std::vector<std::string> to{"convert", "--to", "tt-args", "--runtime", runtime};
            to.insert(to.end(), flags.begin(), flags.end());
            const run_output r = run_cli(to);
            if (r.code == 2) continue;  // a mix tt-metal refuses
            ++accepted;
            ASSERT_EQ(r.code, 0) << runtime << ": " << r.err;
            const json w = json::parse(r.out);
            // Page size and bank base travel outside the words.
            const std::string back =
                ok({"convert", "--from", "tt-args", "--ct", words_text(w["compile_time"]), "--crta",
                    words_text(w["common_runtime"]), "--page-size", std::to_string(src.aligned_page_size),
                    "--bank-base", std::to_string(src.bank_base)});
            // The decoded spec is in pages and at the folded rank: compare where pages go.
            EXPECT_EQ(json::parse(ok({"map", "--spec", back}))["cores"], json::parse(expected_map)["cores"])
                << runtime << "\n"
                << back;
            const distribution dst = make_distribution(parse_spec_json(back));
            EXPECT_EQ(dst.cores, src.cores);
            EXPECT_EQ(dst.aligned_page_size, src.aligned_page_size);
            EXPECT_EQ(dst.bank_base, src.bank_base);
        }
        EXPECT_EQ(accepted, 15);
    }
}

// Every class of malformed words: exit 2 and one line naming the list, the word index and its value.
TEST(CliTtArgs, MalformedWordsRefused) {
    auto refused = [](const std::string& ct, const std::string& crta, const std::string& expected) {
        std::vector<std::string> args{"convert", "--from", "tt-args", "--ct", ct};
        if (!crta.empty()) args.insert(args.end(), {"--crta", crta});
        const run_output r = run_cli(args);
        EXPECT_EQ(r.code, 2) << ct << " / " << crta;
        EXPECT_EQ(r.out, "");
        EXPECT_TRUE(is_one_line(r.err)) << r.err;
        EXPECT_EQ(r.err, "ndshard convert: " + expected + "\n");
    };
    // Too few words.
    refused("0x1,2,2,4,6,2", "",
            "--ct: 6 words, but config 0x1 (Sharded) puts shard shape dim 1 at word 6 of this list");
    refused("0x41,2,2,4,6,2,3", "",
            "--crta: 0 words, but config 0x41 (Sharded|RuntimeBankCoords) puts the coords of banks 0..1 at word 0 "
            "of this list");
    // Bad flags.
    refused("0x101,1,1,1,1,0", "", "--ct word 0 = 257 (config): bits 0x100 are not ArgConfig flags (bits 0..7)");
    refused("0x2", "",
            "--ct word 0 = 2 (config IsDram): not Sharded; an interleaved accessor's words carry no shapes or banks "
            "to decode");
    refused("0x5,1,1,1,0", "",
            "--ct word 0 = 5 (config Sharded|RuntimeRank): a runtime rank needs runtime tensor and shard shapes, "
            "runtime num_banks needs runtime bank coords");
    refused("0x9,1,1,1,0", "",
            "--ct word 0 = 9 (config Sharded|RuntimeNumBanks): a runtime rank needs runtime tensor and shard "
            "shapes, runtime num_banks needs runtime bank coords");
    // Rank 0 or past 8.
    refused("0x1,0,1", "", "--ct word 1 = 0 (rank): must be 1..8");
    refused("0x35", "9,1", "--crta word 0 = 9 (rank): must be 1..8");
    // Zero dims.
    refused("0x1,2,1,4,0,2,3,0", "", "--ct word 4 = 0 (tensor shape dim 1): a dim must be at least 1 page");
    refused("0x21,1,1,4,0", "0", "--crta word 0 = 0 (shard shape dim 0): a dim must be at least 1 page");
    refused("0x49,1,4,2", "0", "--crta word 0 = 0 (num_banks): must be at least 1");
    // Bank coordinates out of range, a stray bank in an odd count's last word, a duplicate.
    refused("0x1,1,1,4,2,0x4000", "",
            "--ct word 5 = 16384 (coords): bank 0 at (64,0) is off the NoC: a coordinate is a 6-bit node id, at "
            "most 63");
    refused("0x1,1,1,4,2,0x10001", "",
            "--ct word 5 = 65537 (coords): the high half 0x1 names bank 1, but there are 1; it must be 0");
    refused("0x1,1,2,4,2,0x01020102", "", "--ct word 5 = 16908546 (coords): bank 1 at (1,2) is also bank 0");
    // Trailing words.
    refused("0x1,1,1,4,2,0x0102,7", "",
            "--ct word 6 = 7: trailing word; config 0x1 with rank 1 and 1 banks takes 6 words here");
    refused("0x41,1,1,4,2", "0x0102,0",
            "--crta word 1 = 0: trailing word; config 0x41 with rank 1 and 1 banks "
            "takes 1 words here");
    // Not a word at all.
    refused("0x1,1,x", "", "--ct word 2 \"x\": not a 32-bit word (decimal, or hex with 0x)");
    refused("0x1,4294967296", "", "--ct word 1 \"4294967296\": not a 32-bit word (decimal, or hex with 0x)");
}

TEST(CliTtArgs, SpecsWithoutTtWords) {
    const run_output contiguous = run_cli({"convert", "--to", "tt-args", "--tensor", "8", "--shard", "2", "--grid",
                                           "2x1", "--strategy", "contiguous_1d"});
    EXPECT_EQ(contiguous.code, 1);
    EXPECT_EQ(contiguous.err,
              "ndshard convert: no tt-metal accessor words for this spec: tt-metal's accessor deals shards round "
              "robin only; this spec is contiguous_1d\n");
    const run_output wide =
        run_cli({"convert", "--to", "tt-args", "--tensor", "8", "--shard", "2", "--cores", "(300,0)"});
    EXPECT_EQ(wide.code, 1);
    EXPECT_EQ(wide.err,
              "ndshard convert: no tt-metal accessor words for this spec: bank 0 at (300,0): tt-metal packs a "
              "coordinate into 8 bits\n");
    const run_output mix =
        run_cli({"convert", "--to", "tt-args", "--tensor", "8", "--shard", "2", "--grid", "2x1", "--runtime", "rank"});
    EXPECT_EQ(mix.code, 2);
    EXPECT_EQ(mix.err,
              "ndshard convert: --runtime \"rank\": tt-metal needs runtime tensor_shape and shard_shape with a "
              "runtime rank, and runtime bank_coords with runtime num_banks\n");
}

}  // namespace
}  // namespace ndshard::cli::test
